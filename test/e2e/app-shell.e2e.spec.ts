import { deflateSync, crc32 } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { shareAccessHelpers } from '../../api/src/modules/sharing/share-access.testing';
import { stepShots } from './browser';
import { e2eSuite } from './suite';

const { app, browser, webSignIn } = e2eSuite();

const { owner } = shareAccessHelpers(app);

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const contextOf = (viewport: { width: number; height: number }, extra: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> =>
  browser().newContext({ locale: 'en-US', viewport, ...extra });

/** A one-page PDF (a line of text), its cross-reference table counted byte by byte. */
const tinyPdf = (): Buffer => {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    '<< /Length 44 >>\nstream\nBT /F1 24 Tf 72 720 Td (Quarterly) Tj ET\nendstream',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
};

/** A 4x4 red PNG. */
const tinyPng = (): Buffer => {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(4, 0);
  header.writeUInt32BE(4, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const row = Buffer.from([0, ...Array.from({ length: 4 }, () => [255, 0, 0]).flat()]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat([row, row, row, row]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

/**
 * What sticks out sideways: the page scrolling horizontally, any element wider than the viewport,
 * and any element reaching past its right edge that no scrolling or clipping box holds (run as
 * text: the test project has no DOM types).
 */
const overflow = (page: Page) =>
  page.evaluate(`(() => {
    const root = document.documentElement;
    const vw = root.clientWidth;
    const out = [];
    if (root.scrollWidth > vw) out.push('page scrolls sideways: ' + root.scrollWidth + ' > ' + vw);
    const held = (el) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') return true;
      }
      return false;
    };
    const name = (el) => el.tagName.toLowerCase() + (el.dataset.testid ? '[' + el.dataset.testid + ']' : '') + '.' + String(el.className && el.className.baseVal === undefined ? el.className : '').split(' ').filter(Boolean).slice(0, 2).join('.');
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      if (r.width > vw + 1) out.push(name(el) + ' is ' + Math.round(r.width) + ' px wide');
      else if (r.right > vw + 1 && !held(el)) out.push(name(el) + ' reaches ' + Math.round(r.right) + ' px');
      if (out.length > 8) break;
    }
    return out;
  })()`) as Promise<string[]>;

/** Lets a page finish loading: no indeterminate progress left in it (a page that spins for ever is still checked). */
const settle = async (page: Page) => {
  await page.locator('main').waitFor();
  await expect
    .poll(() => page.locator('main .MuiCircularProgress-root, main .MuiLinearProgress-indeterminate').count(), { timeout: 15_000 })
    .toBe(0)
    .catch(() => undefined);
  await page.waitForTimeout(300);
};

const NAV = ['home', 'files', 'shares', 'secureFetch', 'bookmarks', 'trash', 'wallet', 'plans'] as const;

describe('the signed-in app shell', () => {
  it('on a desktop: a side navigation to every screen that exists, the current one marked, the storage used, a welcome page that says what to do first, no entry for what does not exist, and /manage-apps without the flag back at the welcome page', async () => {
    const shot = stepShots('app-shell-desktop');
    const o = await owner();
    await o.file('report.pdf', tinyPdf());
    const page = await (await contextOf(DESKTOP)).newPage();
    await webSignIn(page, o.email);

    const nav = page.getByTestId('app-nav');
    await nav.waitFor();
    expect(await page.getByTestId('nav-open').count()).toBe(0);
    expect(await nav.locator('ul > li > a').evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { testid: string } }).dataset.testid))).toEqual(
      NAV.map((k) => `nav-${k}`),
    );
    await expect.poll(() => page.getByTestId('nav-storage').getAttribute('data-used')).not.toBe('0');
    expect(await page.getByTestId('nav-storage-usage').innerText()).toMatch(/^[\d.,]+ \w+ of [\d.,]+ \w+ used$/);
    await shot(page, 'signed-in');
    await expect.poll(() => page.getByTestId('nav-home').getAttribute('aria-current')).toBe('page');

    // The welcome page: four first steps, each with the screen that does it.
    const steps = page.getByTestId('welcome-step');
    expect(await steps.evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { step: string } }).dataset.step))).toEqual([
      'upload',
      'share',
      'request',
      'plan',
    ]);
    expect(await steps.locator('a').evaluateAll((els) => els.map((e) => e.getAttribute('href')))).toEqual([
      '/files/storage',
      '/files/storage',
      '/files/secure-fetch',
      '/storages/plans',
    ]);
    await shot(page, 'welcome');

    // Every entry opens a real screen and is marked there.
    const expected: Record<(typeof NAV)[number], RegExp> = {
      home: /\/welcome$/,
      files: /\/files\/storage\/[^/]+$/,
      shares: /\/files\/shares$/,
      secureFetch: /\/files\/secure-fetch$/,
      bookmarks: /\/files\/bookmarks$/,
      trash: /\/files\/trash$/,
      wallet: /\/wallet\/overview$/,
      plans: /\/storages\/plans$/,
    };
    for (const key of [...NAV.slice(1), 'home' as const]) {
      await page.getByTestId(`nav-${key}`).click();
      await page.waitForURL(expected[key]);
      await expect.poll(() => page.getByTestId(`nav-${key}`).getAttribute('aria-current')).toBe('page');
      expect(await page.getByTestId('not-available-home').count(), key).toBe(0);
      expect(await page.getByTestId('go-home').count(), key).toBe(0);
    }

    // An upload saved on the files page shows in the storage used at once.
    await page.getByTestId('nav-files').click();
    await page.getByTestId('file-input').waitFor({ state: 'attached' });
    const before = Number(await page.getByTestId('nav-storage').getAttribute('data-used'));
    await page.getByTestId('file-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.alloc(5000, 'n') });
    await expect
      .poll(async () => Number(await page.getByTestId('nav-storage').getAttribute('data-used')), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(before + 5000);

    // The account menu offers only what exists.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-settings').waitFor();
    expect(await page.getByTestId('menu-invite').count()).toBe(0);
    expect(await page.getByTestId('menu-support').count()).toBe(1);
    await shot(page, 'menu');
    await page.keyboard.press('Escape');

    // A gated route the user may not open goes where the route table says, not to a dead end.
    await page.goto(`${app().url}/manage-apps`);
    await page.waitForURL(/\/welcome$/);
    expect(await page.getByTestId('not-available-home').count()).toBe(0);
  }, 180_000);

  it('on a phone: the navigation is a menu the header opens, and it closes on the way to the screen', async () => {
    const o = await owner();
    const page = await (await contextOf(PHONE)).newPage();
    await webSignIn(page, o.email);
    await page.getByTestId('welcome-page').waitFor();
    expect(await page.getByTestId('app-nav').count()).toBe(0);
    await page.getByTestId('nav-open').click();
    await page.getByTestId('app-nav').waitFor();
    await page.getByTestId('nav-storage-usage').waitFor();
    await page.getByTestId('nav-shares').click();
    await page.waitForURL(/\/files\/shares$/);
    await page.getByTestId('app-nav').waitFor({ state: 'detached' });
    await page.getByTestId('shares-page').waitFor();
    await page.getByTestId('nav-open').click();
    await expect.poll(() => page.getByTestId('nav-shares').getAttribute('aria-current')).toBe('page');
  });

  it('every signed-in page fits a 390 px phone: nothing scrolls sideways, long names end in an ellipsis with size and date under them, and a PDF preview fits the width under a readable name', async () => {
    const shot = stepShots('app-shell-phone');
    const o = await owner();
    const longName = 'Quarterly-report-of-the-board-with-appendices-and-signatures-2026-final.pdf';
    const pdf = await o.file(longName, tinyPdf());
    await o.folder('Photographs-and-scans-from-the-family-archive');
    const share = await o.share({ itemIds: [pdf], title: 'Quarterly report for the board, with every appendix and signature page' });
    const fetchLink = await o.http.post(`/api/users/${o.id}/secure-fetches/`, {
      note: 'Please send the signed contract together with every appendix and annex',
      includeMetadata: false,
      certificate: false,
    });
    expect(fetchLink.status, JSON.stringify(fetchLink.body)).toBe(201);
    const storageId = (await o.http.get(`/api/users/${o.id}/storages/`)).body.data[0].id as string;

    const page = await (await contextOf(PHONE)).newPage();
    await webSignIn(page, o.email);

    const pages = [
      '/welcome',
      '/settings',
      '/settings?tab=account',
      '/subscription/manage',
      '/storages/management',
      '/storages/plans',
      '/storages/upgrade',
      '/storages/slots',
      '/storages/group',
      '/storages/checkout',
      `/files/storage/${storageId}`,
      '/files/shares',
      `/files/shares/${share.id}`,
      '/files/secure-fetch',
      `/files/secure-fetch/${fetchLink.body.id as string}`,
      '/files/bookmarks',
      `/files/trash/${storageId}`,
      '/shares_shared',
      '/wallet/overview',
      '/wallet/send',
      '/wallet/receive',
      '/wallet/replenish',
      '/wallet/payment',
      '/wallet/transactions',
      '/wallet/contacts',
      '/transaction/search',
    ];
    // The lists are checked with their rows on screen, not before they load.
    const rows: Record<string, string> = { [`/files/storage/${storageId}`]: 'file-row', '/files/shares': 'share-row', '/files/secure-fetch': 'fetch-row' };
    const found: Record<string, string[]> = {};
    for (const path of pages) {
      await page.goto(`${app().url}${path}`);
      if (rows[path]) await page.getByTestId(rows[path]).first().waitFor();
      await settle(page);
      const problems = await overflow(page);
      if (problems.length) {
        found[path] = problems;
        await shot(page, path.replace(/\W+/g, '-'));
      }
    }
    expect(found).toEqual({});

    // The files: one line per name, cut with an ellipsis, the size and date under it.
    await page.goto(`${app().url}/files/storage/${storageId}`);
    const row = page.locator(`[data-testid="file-row"][data-name="${longName}"]`);
    await row.waitFor();
    const name = row.getByTestId('file-open');
    const box = (await name.boundingBox())!;
    expect(box.height).toBeLessThan(30);
    expect(
      await name.evaluate(
        (el) => (el as unknown as { scrollWidth: number; clientWidth: number }).scrollWidth > (el as unknown as { clientWidth: number }).clientWidth,
      ),
    ).toBe(true);
    expect(await row.getByTestId('file-row-meta').innerText()).toMatch(/^[\d.,]+ \w+ · .*\d/);
    await shot(page, 'files');

    // The preview: the name keeps most of the width, the PDF page fits the screen.
    await name.click();
    await page.getByTestId('preview-pdf-page').first().waitFor({ timeout: 20_000 });
    expect((await page.getByTestId('preview-name').boundingBox())!.width).toBeGreaterThan(250);
    await expect
      .poll(async () => (await page.locator('[data-testid="preview-pdf-page"] canvas').first().boundingBox())?.width ?? 0, { timeout: 10_000 })
      .toBeGreaterThan(200);
    expect((await page.locator('[data-testid="preview-pdf-page"]').first().boundingBox())!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await overflow(page)).toEqual([]);
    await shot(page, 'preview');
  }, 300_000);
});

describe('a share opened on another host name of the server', () => {
  it('previews its PDF and shows its view-only image when opened at localhost while the public address says 127.0.0.1', async () => {
    const shot = stepShots('share-other-host');
    const o = await owner();
    const folder = await o.folder('Board');
    await o.file('minutes.pdf', tinyPdf(), folder);
    await o.file('chart.png', tinyPng(), folder);
    const share = await o.share({ itemIds: [folder], title: 'Board papers', downloadable: false });
    const other = app().url.replace('127.0.0.1', 'localhost');
    expect(other).not.toBe(app().url);

    const context = await contextOf(DESKTOP);
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
    });
    await page.goto(`${other}/shares/${share.shareLinkId}`);
    const row = (n: string) => page.locator(`[data-testid="file-row"][data-name="${n}"]`);
    await row('Board').getByTestId('file-open').click();

    await row('chart.png').getByTestId('file-open').click();
    const image = page.getByTestId('preview-image');
    await image.waitFor();
    await expect
      .poll(
        () =>
          image.evaluate(
            (el) => (el as unknown as { complete: boolean; naturalWidth: number }).complete && (el as unknown as { naturalWidth: number }).naturalWidth,
          ),
        { timeout: 15_000 },
      )
      .toBe(4);
    expect(await image.getAttribute('src')).toMatch(/^\/api\/share-links\//);
    await shot(page, 'image');
    await page.getByTestId('preview-close').click();

    await row('minutes.pdf').getByTestId('file-open').click();
    await page.locator('[data-testid="preview-pdf-page"] canvas').first().waitFor({ timeout: 20_000 });
    expect(await page.getByText('The preview could not be loaded').count()).toBe(0);
    await shot(page, 'pdf');
    expect(blocked).toEqual([]);
    await context.close();

    // The visitor's page fits a phone as well.
    const phoneContext = await contextOf(PHONE);
    const phone = await phoneContext.newPage();
    await phone.goto(`${other}/shares/${share.shareLinkId}`);
    await phone.locator('[data-testid="file-row"][data-name="Board"]').waitFor();
    await settle(phone);
    expect(await overflow(phone)).toEqual([]);
    await phoneContext.close();
  }, 180_000);
});
