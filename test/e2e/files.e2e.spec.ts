import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

const { app, browser, uniqueEmail, signUpConfirmed, signedInUser, dir, webSignIn: signIn, newPage } = e2eSuite({ tempDir: 'axel-files-e2e-' });

/** A real PNG (size x size, a colour gradient), so the preview has an image to decode. */
const png = (size: number): Buffer => {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const at = y * (1 + size * 3);
    for (let x = 0; x < size; x++) rows.set([(x * 255) / size, (y * 255) / size, 128], at + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

/** A real two-page PDF with a line of text on each page. */
const pdf = (lines: string[]): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A5' });
    const parts: Buffer[] = [];
    doc.on('data', (p: Buffer) => parts.push(p));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.on('error', reject);
    lines.forEach((line, i) => {
      if (i) (doc as unknown as { addPage(): void }).addPage();
      doc.fontSize(28).text(line, 40, 80);
    });
    doc.end();
  });

/** Ids used more than once, and form controls nothing names (run as text: the test project has no DOM types). */
const pageAudit = (page: Page) =>
  page.evaluate(`(() => {
    const counts = new Map();
    for (const el of document.querySelectorAll('[id]')) counts.set(el.id, (counts.get(el.id) ?? 0) + 1);
    const duplicates = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    const unnamed = [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
      .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')))
      .map((el) => el.outerHTML.slice(0, 120));
    return { duplicates, unnamed };
  })()`) as Promise<{ duplicates: string[]; unnamed: string[] }>;

const row = (page: Page, name: string) => page.locator(`[data-testid="file-row"][data-name="${name}"]`);

const select = async (page: Page, name: string) => {
  await row(page, name).getByRole('checkbox').check();
};

describe('the file browser', () => {
  it('uploads a folder and files with progress, downloads byte-identical, previews an image, trashes and restores it', async () => {
    const shot = stepShots('web-files');
    const { email } = await signUpConfirmed(uniqueEmail('files'));
    const page = await newPage({ acceptDownloads: true });
    await signIn(page, email);

    await page.getByTestId('welcome-files').click();
    await page.waitForURL(/\/files\/storage\/[^/]+$/);
    await page.getByTestId('empty-folder').waitFor();
    await shot(page, 'empty');

    const data = randomBytes(3 * 1024 * 1024 + 12_345);
    const image = png(64);
    const text = 'A line of text\nand another one\n';
    const albumDir = path.join(dir(), 'Album');
    mkdirSync(path.join(albumDir, 'Trip'), { recursive: true });
    writeFileSync(path.join(albumDir, 'cover.png'), image);
    writeFileSync(path.join(albumDir, 'Trip', 'notes.txt'), 'trip notes');

    // A whole folder (with a folder inside) and single files.
    await page.getByTestId('folder-input').setInputFiles(albumDir);
    await page.getByTestId('file-input').setInputFiles([
      { name: 'data.bin', mimeType: 'application/octet-stream', buffer: data },
      { name: 'photo.png', mimeType: 'image/png', buffer: image },
      { name: 'readme.txt', mimeType: 'text/plain', buffer: Buffer.from(text) },
    ]);
    await page.getByTestId('upload-panel').waitFor();
    await shot(page, 'uploading');
    const items = page.getByTestId('upload-item');
    const statuses = async () => {
      const all = (await items.evaluateAll((els) => els.map((i) => (i as { dataset: { status: string } }).dataset.status))).join(',');
      // A failed item says why in the panel: fail at once with that.
      if (all.includes('failed')) throw new Error(await page.getByTestId('upload-panel').innerText());
      return all;
    };
    await expect.poll(statuses, { timeout: 60_000 }).toBe('done,done,done,done,done');
    expect(await page.getByTestId('upload-summary').innerText()).toMatch(/5 of 5/);
    for (const name of ['Album', 'data.bin', 'photo.png', 'readme.txt']) await row(page, name).waitFor();
    await shot(page, 'uploaded');

    // The folder tree arrived as folders.
    await row(page, 'Album').getByTestId('file-open').click();
    await row(page, 'cover.png').waitFor();
    await row(page, 'Trip').getByTestId('file-open').click();
    await row(page, 'notes.txt').waitFor();
    await expect.poll(() => page.getByTestId('breadcrumbs').innerText()).toMatch(/My files[\s\S]*Album[\s\S]*Trip/);
    await page.getByTestId('breadcrumbs').getByRole('button').first().click();
    await row(page, 'data.bin').waitFor();

    // A download is byte-identical.
    await select(page, 'data.bin');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('action-download').click()]);
    expect(download.suggestedFilename()).toBe('data.bin');
    const saved = await download.path();
    expect(readFileSync(saved).equals(data)).toBe(true);
    await row(page, 'data.bin').getByRole('checkbox').uncheck();

    // The image preview decodes, zooms and rotates; next goes to the text file.
    await row(page, 'photo.png').getByTestId('file-open').click();
    await page.getByTestId('preview-dialog').waitFor();
    await expect
      .poll(() =>
        page
          .getByTestId('preview-image')
          .evaluate((img) => (img as { complete: boolean; naturalWidth: number }).complete && (img as { naturalWidth: number }).naturalWidth),
      )
      .toBe(64);
    await page.getByTestId('preview-zoom-in').click();
    expect(await page.getByTestId('preview-zoom').innerText()).toBe('150%');
    await page.getByTestId('preview-rotate').click();
    await shot(page, 'preview');
    await page.getByTestId('preview-next').click();
    expect(await page.getByTestId('preview-text').innerText()).toContain('and another one');
    await page.getByTestId('preview-close').click();

    // Details: the item info call's fields, the SHA-256 of the plaintext among them.
    await select(page, 'photo.png');
    await page.getByTestId('action-details').click();
    await page.getByTestId('details-panel').getByTestId('details-hash').waitFor();
    expect(await page.getByTestId('details-hash').innerText()).toBe(createHash('sha256').update(image).digest('hex'));
    expect(await page.getByTestId('details-location').innerText()).toBe('/');
    expect(await pageAudit(page)).toEqual({ duplicates: [], unnamed: [] });
    await page.keyboard.press('Escape');
    await page.getByTestId('details-panel').waitFor({ state: 'detached' });
    await row(page, 'photo.png').getByRole('checkbox').uncheck();

    // To the trash and back: first with the notice's Undo, then from the trash.
    await select(page, 'photo.png');
    await page.getByTestId('action-trash').click();
    await row(page, 'photo.png').waitFor({ state: 'detached' });
    const notice = page.getByTestId('notice');
    await notice.filter({ hasText: 'Moved 1 item to the trash' }).waitFor();
    await shot(page, 'trashed-notice');
    // on a phone the notice and its Undo fit the screen
    await page.setViewportSize({ width: 390, height: 844 });
    const box = await notice.getByTestId('notice-action').boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390 && box.y + box.height <= 844).toBe(true);
    await shot(page, 'trashed-notice-phone');
    await page.setViewportSize({ width: 1280, height: 720 });
    await notice.getByTestId('notice-action').click();
    await row(page, 'photo.png').waitFor();
    await notice.filter({ hasText: 'Restored: 1' }).waitFor();
    await select(page, 'photo.png');
    await page.getByTestId('action-trash').click();
    await row(page, 'photo.png').waitFor({ state: 'detached' });
    await page.getByTestId('open-trash').click();
    await page.getByTestId('trash-page').waitFor();
    await row(page, 'photo.png').waitFor();
    await shot(page, 'trash');
    await select(page, 'photo.png');
    await page.getByTestId('action-restore').click();
    await page.getByTestId('restored').waitFor();
    await page.getByTestId('trash-empty').waitFor();
    await page.getByTestId('back-to-files').click();
    await row(page, 'photo.png').waitFor();
    await shot(page, 'restored');

    // Search over the storage, then back to the folder.
    await page.getByTestId('search-input').fill('cover');
    await page.getByTestId('search-input').press('Enter');
    await page.getByTestId('search-results').waitFor();
    await row(page, 'cover.png').waitFor();
    expect(await row(page, 'photo.png').count()).toBe(0);
    await page.getByTestId('search-input').fill('');
    await row(page, 'photo.png').waitFor();

    // Each result says which folder it is in, and opens it from there (a column on a desktop, under the name on a phone).
    await page.getByTestId('search-input').fill('t');
    await page.getByTestId('search-input').press('Enter');
    await row(page, 'notes.txt').waitFor();
    expect(await row(page, 'notes.txt').getByTestId('file-row-location').innerText()).toBe('My files / Album / Trip');
    expect(await row(page, 'readme.txt').getByTestId('file-row-location').innerText()).toBe('My files');
    expect(await row(page, 'notes.txt').getByTestId('file-row-location-below').isVisible()).toBe(false);
    await shot(page, 'search-locations');
    // the finished uploads' panel would cover a phone's list: closed first, as a person would
    await page.getByTestId('upload-close').click();
    await page.getByTestId('upload-panel').waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => row(page, 'notes.txt').getByTestId('file-row-location-below').isVisible()).toBe(true);
    expect(await row(page, 'notes.txt').getByTestId('file-row-location').isVisible()).toBe(false);
    expect(await page.evaluate('document.documentElement.scrollWidth > window.innerWidth')).toBe(false);
    await shot(page, 'search-locations-phone');
    await row(page, 'notes.txt').getByTestId('file-row-location-below').click();
    await expect.poll(() => page.getByTestId('breadcrumbs').innerText()).toMatch(/My files[\s\S]*Album[\s\S]*Trip/);
    await row(page, 'notes.txt').waitFor();
    expect(await page.getByTestId('search-results').count()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByTestId('breadcrumbs').getByRole('button').first().click();
    await row(page, 'photo.png').waitFor();

    // A new folder, and a rename the name rules check first.
    await page.getByTestId('create-folder').click();
    await page.getByTestId('name-input').fill('Reports');
    await page.getByTestId('name-submit').click();
    await row(page, 'Reports').waitFor();
    await select(page, 'readme.txt');
    await page.getByTestId('action-rename').click();
    await page.getByTestId('name-input').fill('read:me.txt');
    expect(await page.getByTestId('name-submit').isDisabled()).toBe(true);
    await page.getByTestId('name-input').fill('about.txt');
    await page.getByTestId('name-submit').click();
    await row(page, 'about.txt').waitFor();
    expect(await row(page, 'readme.txt').count()).toBe(0);
    expect(await page.getByTestId('selection-bar').count()).toBe(0);

    // Moving: "1 item", and "Move here" is off, with a hint, in the folder the item already is in.
    await select(page, 'about.txt');
    await page.getByTestId('action-move').click();
    const moveDialog = page.getByTestId('move-copy-dialog');
    await moveDialog.waitFor();
    expect(await moveDialog.getByRole('heading').innerText()).toBe('Move 1 item to…');
    await page.getByTestId('move-copy-already-here').waitFor();
    expect(await page.getByTestId('move-copy-submit').isDisabled()).toBe(true);
    await page.locator('[data-testid="move-copy-folder"][data-name="Reports"]').click();
    await expect.poll(() => page.getByTestId('move-copy-path').innerText()).toMatch(/Reports$/);
    expect(await page.getByTestId('move-copy-already-here').count()).toBe(0);
    await page.getByTestId('move-copy-submit').click();
    await moveDialog.waitFor({ state: 'detached' });
    await row(page, 'about.txt').waitFor({ state: 'detached' });

    // A folder downloads as a zip holding its tree.
    await select(page, 'Album');
    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('action-download').click()]);
    const zipPath = await zip.path();
    execFileSync('unzip', ['-tq', zipPath]);
    const entries = execFileSync('unzip', ['-Z1', zipPath], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(entries.some((e) => e.endsWith('cover.png'))).toBe(true);
    expect(entries.some((e) => e.endsWith('Trip/notes.txt'))).toBe(true);
    expect(execFileSync('unzip', ['-p', zipPath, entries.find((e) => e.endsWith('cover.png'))!]).equals(image)).toBe(true);
    await row(page, 'Album').getByRole('checkbox').uncheck();

    // Deleting for ever takes the typed word; the count of a restore before it does not stay behind.
    await select(page, 'data.bin');
    await select(page, 'Reports');
    await page.getByTestId('action-trash').click();
    await row(page, 'data.bin').waitFor({ state: 'detached' });
    await notice.filter({ hasText: 'Moved 2 items to the trash' }).waitFor();
    await page.getByTestId('open-trash').click();
    await select(page, 'Reports');
    await page.getByTestId('action-restore').click();
    await page.getByTestId('restored').filter({ hasText: 'Restored: 1' }).waitFor();
    await row(page, 'Reports').waitFor({ state: 'detached' });
    await select(page, 'data.bin');
    await page.getByTestId('action-delete').click();
    expect(await page.getByTestId('delete-confirm').isDisabled()).toBe(true);
    await page.getByTestId('delete-confirmation-input').fill('delete');
    await page.getByTestId('delete-confirm').click();
    await page.getByTestId('trash-empty').or(page.getByTestId('delete-error')).waitFor();
    expect(
      await page.getByTestId('delete-error').count(),
      await page
        .getByTestId('delete-dialog')
        .innerText()
        .catch(() => ''),
    ).toBe(0);
    await page.getByTestId('trash-empty').waitFor();
    expect(await page.getByTestId('restored').count()).toBe(0);
    await shot(page, 'deleted');
    await page.context().close();
  });

  it('pauses an upload and resumes it from where the server stopped, byte-identical', async () => {
    const shot = stepShots('web-files-pause');
    const { email } = await signUpConfirmed(uniqueEmail('pause'));
    const page = await newPage({ acceptDownloads: true });
    await signIn(page, email);
    await page.getByTestId('nav-files').click();
    await page.getByTestId('empty-folder').waitFor();

    // A slow uplink, so the upload is still under way when it is paused.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1024 * 1024 });
    const data = randomBytes(6 * 1024 * 1024 + 777);
    await page.getByTestId('file-input').setInputFiles([{ name: 'big.bin', mimeType: 'application/octet-stream', buffer: data }]);
    const item = page.getByTestId('upload-item');
    const progress = () => item.getByRole('progressbar').getAttribute('aria-valuenow').then(Number);
    await expect.poll(progress, { timeout: 30_000 }).toBeGreaterThan(5);
    await page.getByTestId('upload-pause-all').click();
    expect(await item.getAttribute('data-status')).toBe('paused');
    const pausedAt = await progress();
    expect(pausedAt).toBeLessThan(100);
    await shot(page, 'paused');
    await page.waitForTimeout(1500);
    expect(await item.getAttribute('data-status')).toBe('paused');

    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByTestId('upload-resume-all').click();
    await expect.poll(() => item.getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
    await shot(page, 'resumed');

    await row(page, 'big.bin').waitFor();
    await select(page, 'big.bin');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('action-download').click()]);
    expect(readFileSync(await download.path()).equals(data)).toBe(true);

    // A taken name: the file is kept under the next free name, as the server picks it.
    await page.getByTestId('file-input').setInputFiles([{ name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.from('second') }]);
    await row(page, 'big (1).bin').waitFor();
    expect(await row(page, 'big.bin').count()).toBe(1);
    await page.context().close();
  });

  it('previews a PDF in the page, every page drawn by pdf.js from the app itself (nothing fetched elsewhere)', async () => {
    const { email } = await signUpConfirmed(uniqueEmail('pdf'));
    const context = await browser().newContext({ locale: 'en-US' });
    // offline but for the app: any request to another origin fails the test
    const elsewhere: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(app().url)) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    const workers: string[] = [];
    page.on('worker', (w) => workers.push(w.url()));
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await signIn(page, email);
    await page.goto(`${app().url}/files/storage`);
    await page.getByTestId('empty-folder').waitFor();
    await page
      .getByTestId('file-input')
      .setInputFiles([{ name: 'letter.pdf', mimeType: 'application/pdf', buffer: await pdf(['First page of the letter', 'Second page, signed']) }]);
    await row(page, 'letter.pdf').waitFor();

    await row(page, 'letter.pdf').getByTestId('file-open').click();
    await page.getByTestId('preview-dialog').waitFor();
    const pages = page.getByTestId('preview-pdf-page');
    await expect.poll(() => pages.count(), { timeout: 30_000 }).toBe(2);
    // the text layer holds the words pdf.js read from each page; the canvas is drawn, not blank
    await expect.poll(() => page.getByTestId('preview-pdf').innerText(), { timeout: 30_000 }).toMatch(/First page of the letter[\s\S]*Second page, signed/);
    type Canvas2d = {
      width: number;
      height: number;
      getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
    };
    const inked = () =>
      pages
        .first()
        .locator('canvas')
        .evaluate((element) => {
          const c = element as unknown as Canvas2d;
          const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          let dark = 0;
          for (let i = 0; i < data.length; i += 4) if (data[i]! < 128 && data[i + 3]! > 0) dark++;
          return c.width > 0 && dark > 100;
        });
    await expect.poll(inked, { timeout: 30_000 }).toBe(true);
    const width = await pages
      .first()
      .locator('canvas')
      .evaluate((c) => (c as unknown as { clientWidth: number }).clientWidth);
    await page.getByTestId('preview-zoom-in').click();
    await expect
      .poll(() =>
        pages
          .first()
          .locator('canvas')
          .evaluate((c) => (c as unknown as { clientWidth: number }).clientWidth),
      )
      .toBeGreaterThan(width * 1.4);
    await stepShots('web-files-pdf')(page, 'pdf-preview');

    expect(workers.some((w) => w.startsWith(`${app().url}/assets/pdf.worker`))).toBe(true);
    expect(elsewhere).toEqual([]);
    expect(errors.filter((e) => /content security policy|pdf/i.test(e))).toEqual([]);
    await context.close();
  });

  it('a file that cannot be previewed opens the preview with its name, type, size and a download button, and downloads only on that button', async () => {
    const shot = stepShots('web-files-no-preview');
    const { email } = await signUpConfirmed(uniqueEmail('nopreview'));
    const context = await browser().newContext({ locale: 'en-US', acceptDownloads: true });
    const page = await context.newPage();
    const downloads: string[] = [];
    page.on('download', (d) => downloads.push(d.suggestedFilename()));
    await signIn(page, email);
    await page.goto(`${app().url}/files/storage`);
    await page.getByTestId('empty-folder').waitFor();
    const data = randomBytes(2_500);
    await page.getByTestId('file-input').setInputFiles([{ name: 'backup.dat', mimeType: 'application/octet-stream', buffer: data }]);
    await row(page, 'backup.dat').waitFor();

    await row(page, 'backup.dat').getByTestId('file-open').click();
    const pane = page.getByTestId('preview-unsupported');
    await pane.waitFor();
    expect(await page.getByTestId('preview-unsupported-name').innerText()).toBe('backup.dat');
    expect(await page.getByTestId('preview-unsupported-type').innerText()).toBe('application/octet-stream');
    expect(await page.getByTestId('preview-unsupported-size').innerText()).toBe('2.5 KB');
    expect(await pane.innerText()).toContain('This file cannot be previewed.');
    // opening it started no download
    await page.waitForTimeout(500);
    expect(downloads).toEqual([]);
    await shot(page, 'desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSideScroll(page);
    await pane.waitFor();
    await shot(page, 'phone');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('preview-unsupported-download').click()]);
    expect(download.suggestedFilename()).toBe('backup.dat');
    expect(readFileSync(await download.path()).equals(data)).toBe(true);
    await context.close();
  });

  it("a files address with an unknown or someone else's storage says so and leads to one's own files, instead of opening one's own storage", async () => {
    const shot = stepShots('web-files-storage-not-found');
    const { storageId: theirStorage } = await signedInUser(uniqueEmail('owner'));

    const { email } = await signUpConfirmed(uniqueEmail('visitor'));
    const page = await (await browser().newContext({ locale: 'en-US' })).newPage();
    await signIn(page, email);
    for (const storageId of [theirStorage, 'no-such-storage']) {
      await page.goto(`${app().url}/files/storage/${encodeURIComponent(storageId)}`);
      await page.getByTestId('storage-not-found').waitFor();
      expect(page.url()).toBe(`${app().url}/files/storage/${encodeURIComponent(storageId)}`);
      expect(await page.getByTestId('storage-not-found').innerText()).toContain('This storage does not exist or you have no access to it');
      expect(await page.getByTestId('file-row').count()).toBe(0);
    }
    await shot(page, 'desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSideScroll(page);
    await shot(page, 'phone');
    await page.getByTestId('storage-not-found-own').click();
    await page.waitForURL(/\/files\/storage\/[^/]+$/);
    expect(page.url()).not.toContain(encodeURIComponent(theirStorage));
    await page.getByTestId('empty-folder').waitFor();
    await page.context().close();
  });

  it('an upload larger than the storage is refused before a byte is sent and opens the quota limit dialog', async () => {
    const { email } = await signUpConfirmed(uniqueEmail('quota'));
    const page = await newPage();
    await signIn(page, email);
    await page.goto(`${app().url}/files/storage`);
    await page.getByTestId('empty-folder').waitFor();

    // 11 GB that take no disk: a sparse file, read by nobody since the server refuses its size.
    const huge = path.join(dir(), 'huge.bin');
    execFileSync('truncate', ['-s', '11G', huge]);
    await page.getByTestId('file-input').setInputFiles(huge);
    await page.getByTestId('quota-limit-dialog').waitFor();
    await page.getByTestId('quota-upgrade').waitFor();
    await stepShots('web-files-quota')(page, 'quota-dialog');
    const item = page.getByTestId('upload-item');
    expect(await item.getAttribute('data-status')).toBe('failed');
    expect(await item.innerText()).toContain('Insufficient space or quota');
    expect(await item.getByTestId('upload-retry').count()).toBe(0);
    await page.context().close();
  });
});
