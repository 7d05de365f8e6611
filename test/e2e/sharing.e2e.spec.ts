import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { stepShots } from './browser';
import { e2eSuite } from './suite';

const { app, browser, uniqueEmail, signUpConfirmed, dir, webSignIn: signIn, newPage } = e2eSuite({ tempDir: 'axel-sharing-e2e-' });

/** Ids used more than once, and form controls nothing names (run as text: the test project has no DOM types). */
const pageAudit = (page: Page) =>
  page.evaluate(`(() => {
    const counts = new Map();
    for (const el of document.querySelectorAll('[id]')) counts.set(el.id, (counts.get(el.id) ?? 0) + 1);
    const duplicates = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    // MUI's multiline fields keep a hidden shadow textarea (aria-hidden) to measure their height.
    const unnamed = [...document.querySelectorAll('input:not([type=hidden]), select, textarea:not([aria-hidden=true])')]
      .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')))
      .map((el) => el.outerHTML.slice(0, 120));
    return { duplicates, unnamed };
  })()`) as Promise<{ duplicates: string[]; unnamed: string[] }>;

const row = (page: Page, name: string) => page.locator(`[data-testid="file-row"][data-name="${name}"]`);

describe('sharing a folder', () => {
  it('the owner shares a folder with a password; a visitor is refused a wrong password, opens it with the right one, browses and downloads byte-identical; the owner sees one open, revokes, and a private share admits only its recipient until blocked', async () => {
    const shot = stepShots('web-sharing');
    const { email } = await signUpConfirmed(uniqueEmail('sharer'));
    const owner = await newPage();
    await signIn(owner, email);
    await owner.goto(`${app().url}/files/storage`);
    await owner.getByTestId('empty-folder').waitFor();

    // A small folder: a text file and some random bytes.
    const data = randomBytes(256 * 1024 + 17);
    const trip = path.join(dir(), 'Trip');
    mkdirSync(trip, { recursive: true });
    writeFileSync(path.join(trip, 'notes.txt'), 'trip notes\n');
    writeFileSync(path.join(trip, 'data.bin'), data);
    await owner.getByTestId('folder-input').setInputFiles(trip);
    const statuses = () =>
      owner.getByTestId('upload-item').evaluateAll((els) => els.map((i) => (i as { dataset: { status: string } }).dataset.status).join(','));
    await expect.poll(statuses, { timeout: 30_000 }).toBe('done,done');
    await row(owner, 'Trip').waitFor();

    // Share it with a password; the rules are checked before anything is sent.
    await row(owner, 'Trip').getByRole('checkbox').check();
    await owner.getByTestId('action-share').click();
    await owner.getByTestId('share-dialog').waitFor();
    expect(await owner.getByTestId('share-title').inputValue()).toBe('Trip');
    await owner.getByTestId('share-password').fill('short');
    await owner.getByTestId('share-submit').click();
    await owner.getByText('The password must be at least 8 characters').waitFor();
    await owner.getByTestId('share-password').fill('Trip-secret-9');
    await owner.getByTestId('share-submit').click();
    await owner.getByTestId('share-created').waitFor();
    const link = await owner.getByTestId('share-link').inputValue();
    expect(link).toMatch(/\/shares\/[A-Za-z0-9_-]{22}$/);
    await shot(owner, 'created');
    await owner.getByTestId('share-done').click();

    // A visitor with no account: the password dialog, a wrong password refused under the field.
    const visitorContext = await browser().newContext({ locale: 'en-US', acceptDownloads: true });
    const visitor = await visitorContext.newPage();
    await visitor.goto(link.replace(/^https?:\/\/[^/]+/, app().url));
    await visitor.getByTestId('share-access-dialog').waitFor();
    await visitor.getByTestId('share-access-password').fill('Wrong-secret-1');
    await visitor.getByTestId('share-access-submit').click();
    // The password is checked with argon2 on a busy machine: give it time.
    await expect.poll(() => visitor.getByTestId('share-access-dialog').innerText(), { timeout: 15_000 }).toContain('Wrong share password');
    await shot(visitor, 'wrong-password');
    await visitor.getByTestId('share-access-password').fill('Trip-secret-9');
    await visitor.getByTestId('share-access-submit').click();
    await visitor.getByTestId('share-access-dialog').waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => visitor.getByTestId('share-title').innerText(), { timeout: 15_000 }).toBe('Trip');

    // Into the folder, and a download byte-identical to what was uploaded.
    await row(visitor, 'Trip').getByTestId('file-open').click();
    await row(visitor, 'data.bin').waitFor();
    await expect.poll(() => visitor.getByTestId('share-breadcrumbs').innerText(), { timeout: 10_000 }).toMatch(/Trip[\s\S]*Trip/);
    await shot(visitor, 'browsing');
    // The folder is in the address: a reload keeps the place, back and forward move between folders.
    await visitor.waitForURL(/\/shares\/[A-Za-z0-9_-]{22}\/entries\/[^/]+$/);
    await visitor.reload();
    await row(visitor, 'data.bin').waitFor();
    await expect.poll(() => visitor.getByTestId('share-breadcrumbs').innerText(), { timeout: 10_000 }).toMatch(/Trip[\s\S]*Trip/);
    await visitor.goBack();
    await row(visitor, 'Trip').waitFor();
    expect(visitor.url()).not.toContain('/entries/');
    await visitor.goForward();
    await row(visitor, 'data.bin').waitFor();
    // A text file previews inline (a preview is not a download).
    await row(visitor, 'notes.txt').getByTestId('file-open').click();
    await expect.poll(() => visitor.getByTestId('preview-text').innerText(), { timeout: 10_000 }).toContain('trip notes');
    await visitor.getByTestId('preview-close').click();
    // A file no preview shows opens the preview pane too; its Download button downloads it.
    await row(visitor, 'data.bin').getByTestId('file-open').click();
    await visitor.getByTestId('preview-unsupported').waitFor();
    const [download] = await Promise.all([visitor.waitForEvent('download'), visitor.getByTestId('preview-unsupported-download').click()]);
    expect(download.suggestedFilename()).toBe('data.bin');
    expect(readFileSync(await download.path()).equals(data)).toBe(true);
    await visitor.getByTestId('preview-close').click();
    // Everything at once: the share's archive, a zip holding the folder's tree.
    await visitor.getByTestId('share-breadcrumbs').getByRole('button').first().click();
    await row(visitor, 'Trip').waitFor();
    const [zip] = await Promise.all([visitor.waitForEvent('download'), visitor.getByTestId('share-download-all').click()]);
    const zipPath = await zip.path();
    const entries = execFileSync('unzip', ['-Z1', zipPath], { encoding: 'utf8' }).split('\n').filter(Boolean);
    const inZip = entries.find((e) => e.endsWith('Trip/data.bin'));
    expect(inZip, entries.join(', ')).toBeDefined();
    expect(execFileSync('unzip', ['-p', zipPath, inZip!], { maxBuffer: 8 * 1024 * 1024 }).equals(data)).toBe(true);
    // The token was kept for this share in the tab's session storage, never the password.
    const stored = (await visitor.evaluate('JSON.stringify(Object.entries(sessionStorage))')) as string;
    expect(stored).toMatch(/axel\.share-access\./);
    expect(stored).not.toContain('Trip-secret-9');
    await visitorContext.close();

    // The owner sees the share opened once (one visit, however many calls it made).
    await owner.goto(`${app().url}/files/shares`);
    const shareRow = owner.locator('[data-testid="share-row"][data-title="Trip"]');
    await shareRow.waitFor();
    // The month's count against the plan; the e-mail lookup asks for its range; a range leaves out shares that never expire.
    await expect.poll(() => owner.getByTestId('shares-plan-usage').innerText()).toBe('1 of 5 shares used this month');
    await owner.getByTestId('shares-filter-email').fill('friend@example.com');
    await owner.getByTestId('shares-filter-apply').click();
    await owner.getByText('Looking up an e-mail needs both expiry dates').waitFor();
    await owner.getByTestId('shares-filter-email').fill('');
    await owner.getByTestId('shares-filter-expiresFrom').fill('2026-01-01');
    await owner.getByTestId('shares-filter-apply').click();
    await owner.getByTestId('shares-empty').waitFor();
    await owner.getByTestId('shares-filter-clear').click();
    await shareRow.waitFor();
    await expect
      .poll(
        async () => {
          await owner.reload();
          await shareRow.waitFor();
          return shareRow.getByTestId('share-row-opened').innerText();
        },
        { timeout: 15_000 },
      )
      .toBe('1');
    await shareRow.getByTestId('share-row-open').click();
    await owner.getByTestId('share-details').waitFor();
    expect(await owner.getByTestId('share-opened-count').innerText()).toBe('1');
    await owner.getByTestId('access-log').waitFor();
    // The owner browses what was shared, as visitors see it.
    await owner.getByTestId('share-contents').locator('[data-testid="file-row"][data-name="Trip"]').getByTestId('file-open').click();
    await owner.getByTestId('share-contents').locator('[data-testid="file-row"][data-name="notes.txt"]').waitFor();
    const actions = await owner
      .getByTestId('access-log-row')
      .evaluateAll((rows) => rows.map((r) => (r as { dataset: { action: string } }).dataset.action).sort());
    expect(actions).toEqual(['archive', 'download', 'open']);
    // The owner picks entries of the share and takes them as one zip (not a visit: the log is unchanged).
    const contents = owner.getByTestId('share-contents');
    await contents.locator('[data-testid="file-row"][data-name="notes.txt"]').getByRole('checkbox').check();
    await contents.locator('[data-testid="file-row"][data-name="data.bin"]').getByRole('checkbox').check();
    const [ownerZip] = await Promise.all([owner.waitForEvent('download'), owner.getByTestId('share-contents-download').click()]);
    const ownerEntries = execFileSync('unzip', ['-Z1', await ownerZip.path()], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((e) => path.basename(e))
      .sort();
    expect(ownerEntries).toEqual(['data.bin', 'notes.txt']);
    await shot(owner, 'owner-view');

    // Revoked, the link says so to the next visitor.
    await owner.getByTestId('share-revoke').click();
    await owner.getByTestId('share-confirm').click();
    await expect.poll(() => owner.getByTestId('share-state').innerText()).toBe('Revoked');
    const late = await newPage();
    await late.goto(link.replace(/^https?:\/\/[^/]+/, app().url));
    await late.getByTestId('share-refused').waitFor();
    expect(await late.getByTestId('share-refused').getAttribute('data-error-code')).toBe('LINK_BLOCKED');
    expect(await late.getByTestId('share-refused').innerText()).toContain('This link is blocked');
    await late.context().close();

    // A private share: never to the sender's own address; a visitor with another e-mail is refused.
    await owner.goto(`${app().url}/files/storage`);
    await row(owner, 'Trip').getByRole('checkbox').check();
    await owner.getByTestId('action-share').click();
    await owner.getByTestId('share-kind-private').click();
    await owner.getByTestId('share-title').fill('Trip for a friend');
    await owner.getByTestId('share-recipients').fill(`friend@example.com, ${email}`);
    await owner.getByTestId('share-message').fill('The photos from the trip');
    await owner.getByTestId('share-password').fill('Friend-secret-7');
    await owner.getByTestId('share-submit').click();
    await owner.getByText('You cannot send a private share to your own e-mail address').waitFor();
    expect(await pageAudit(owner)).toEqual({ duplicates: [], unnamed: [] });
    await owner.getByTestId('share-recipients').fill('friend@example.com');
    await owner.getByTestId('share-submit').click();
    await owner.getByTestId('share-created').waitFor();
    const privateLink = await owner.getByTestId('share-link').inputValue();
    expect(privateLink).toMatch(/\/private-share\/[A-Za-z0-9_-]{22}$/);

    const friend = await newPage();
    await friend.goto(privateLink.replace(/^https?:\/\/[^/]+/, app().url));
    await friend.getByTestId('share-access-email').waitFor();
    await friend.getByTestId('share-access-email').fill('stranger@example.com');
    await friend.getByTestId('share-access-password').fill('Friend-secret-7');
    await friend.getByTestId('share-access-submit').click();
    await expect
      .poll(() => friend.getByTestId('share-access-dialog').innerText(), { timeout: 15_000 })
      .toContain('This private share is for the intended recipient only');
    await friend.getByTestId('share-access-email').fill('friend@example.com');
    await friend.getByTestId('share-access-password').fill('Friend-secret-7');
    await friend.getByTestId('share-access-submit').click();
    await expect.poll(() => friend.getByTestId('share-title').innerText(), { timeout: 15_000 }).toBe('Trip for a friend');
    await row(friend, 'Trip').waitFor();
    await shot(friend, 'private-share');

    // A recipient with an account finds the share under "Shared with me", opens it with their own
    // address, can bookmark it, and the folder they open is in the address.
    const tripId = ((await (await owner.request.get(`${app().url}/api/shares/`)).json()) as { data: { items: { id: string }[] }[] }).data[0]!.items[0]!.id;
    const member = await signUpConfirmed(uniqueEmail('member'));
    const sent = await owner.request.post(`${app().url}/api/shares/`, {
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
      data: { itemIds: [tripId], title: 'Trip for a member', downloadable: true, recipients: [member.email], message: 'Here', password: 'Member-secret-5' },
    });
    expect(sent.status()).toBe(201);
    const memberPage = await newPage();
    await signIn(memberPage, member.email);
    await memberPage.goto(`${app().url}/shares_shared`);
    const sharedRow = memberPage.locator('[data-testid="shared-row"][data-title="Trip for a member"]');
    await sharedRow.getByTestId('shared-row-open').click();
    await memberPage.getByTestId('share-access-password').fill('Member-secret-5');
    expect(await memberPage.getByTestId('share-access-email').inputValue()).toBe(member.email);
    await memberPage.getByTestId('share-access-submit').click();
    await expect.poll(() => memberPage.getByTestId('share-title').innerText(), { timeout: 15_000 }).toBe('Trip for a member');
    await memberPage.getByTestId('bookmark-add').click();
    await memberPage.getByTestId('bookmark-added').waitFor();
    await row(memberPage, 'Trip').getByTestId('file-open').click();
    await row(memberPage, 'data.bin').waitFor();
    await memberPage.waitForURL(/\/shares_shared\/[A-Za-z0-9_-]{22}\/entries\/[^/]+$/);
    await shot(memberPage, 'shared-with-me');
    await memberPage.getByTestId('back-to-shared-with-me').click();
    await sharedRow.waitFor();
    await memberPage.context().close();

    // The owner sees the recipient's first open and blocks them: the same visit is refused at once.
    await owner.goto(`${app().url}/files/shares`);
    await owner.locator('[data-testid="share-row"][data-title="Trip for a friend"]').getByTestId('share-row-open').click();
    const recipient = owner.locator('[data-testid="recipient-row"][data-email="friend@example.com"]');
    await expect
      .poll(
        async () => {
          await owner.reload();
          await recipient.waitFor();
          return recipient.innerText();
        },
        { timeout: 15_000 },
      )
      .not.toContain('—');
    await recipient.getByTestId('recipient-block').click();
    await recipient.getByTestId('recipient-unblock').waitFor();
    await friend.reload();
    await friend.getByTestId('share-refused').waitFor();
    expect(await friend.getByTestId('share-refused').innerText()).toContain('The owner blocked your access to this share');
    await owner.context().close();
    await friend.context().close();
  });
});

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const PHONE = { width: 390, height: 844 };

/** Whether the page is wider than its window (a phone would scroll sideways). */
const overflowsSideways = (page: Page) => page.evaluate('document.documentElement.scrollWidth > window.innerWidth') as Promise<boolean>;

describe('sharing, as a new user notices it', () => {
  it('a share of one file downloads as that file; the recipient sees who sent it and the message; "shared with me" names the sender; the access log says the browser in words; the monthly limit shows before the form is filled — on a phone and a desktop', async () => {
    const shot = stepShots('web-sharing-details');
    const { email } = await signUpConfirmed(uniqueEmail('sender'));
    const owner = await newPage();
    await signIn(owner, email);
    await owner.goto(`${app().url}/files/storage`);
    await owner.getByTestId('empty-folder').waitFor();
    const text = 'Quarterly figures\n1,2,3\n';
    await owner.getByTestId('file-input').setInputFiles([{ name: 'figures.txt', mimeType: 'text/plain', buffer: Buffer.from(text) }]);
    await row(owner, 'figures.txt').waitFor({ timeout: 30_000 });

    // The plan's monthly shares are said as soon as the dialog opens, with the way to more.
    await row(owner, 'figures.txt').getByRole('checkbox').check();
    await owner.getByTestId('action-share').click();
    await expect.poll(() => owner.getByTestId('share-usage').innerText()).toContain('0 of 5 shares used this month on your plan (5 left)');
    expect(await owner.getByTestId('share-upgrade').getAttribute('href')).toBe('/storages/plans');
    // the recipients typed, against the 10 a share may have
    await owner.getByTestId('share-kind-private').click();
    await owner.getByTestId('share-recipients').fill('a@example.com, b@example.com');
    await owner.getByText('2 of 10 recipients').waitFor();
    await owner.getByTestId('share-kind-public').click();
    await owner.getByTestId('share-submit').click();
    await owner.getByTestId('share-created').waitFor();
    const link = (await owner.getByTestId('share-link').inputValue()).replace(/^https?:\/\/[^/]+/, app().url);
    await owner.getByTestId('share-done').click();

    // A visitor on a phone: one file, downloaded as itself (its name, its type), never a zip; a
    // public link never tells the owner's e-mail.
    const phoneContext = await browser().newContext({ locale: 'en-US', acceptDownloads: true, viewport: PHONE, userAgent: FIREFOX_WINDOWS });
    const visitor = await phoneContext.newPage();
    await visitor.goto(link);
    await row(visitor, 'figures.txt').waitFor({ timeout: 15_000 });
    expect(await visitor.getByTestId('share-facts').innerText()).not.toContain(email);
    expect(await visitor.getByTestId('share-download-all').innerText()).toMatch(/^download$/i);
    const [download] = await Promise.all([visitor.waitForEvent('download'), visitor.getByTestId('share-download-all').click()]);
    expect(download.suggestedFilename()).toBe('figures.txt');
    expect(readFileSync(await download.path(), 'utf8')).toBe(text);
    // the file's own URL, not an archive's, sent as its own type
    expect(download.url()).toMatch(/\/api\/share-links\/[A-Za-z0-9_-]{22}\/download\//);
    expect((await visitor.request.head(download.url())).headers()['content-type']).toMatch(/^text\/plain/);
    expect(await overflowsSideways(visitor)).toBe(false);
    await shot(visitor, 'one-file-phone');
    await phoneContext.close();

    // A private share to someone with an account, with a message.
    const fileId = ((await (await owner.request.get(`${app().url}/api/shares/`)).json()) as { data: { items: { id: string }[] }[] }).data[0]!.items[0]!.id;
    const member = await signUpConfirmed(uniqueEmail('receiver'));
    const sent = await owner.request.post(`${app().url}/api/shares/`, {
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
      data: {
        itemIds: [fileId],
        title: 'Figures for you',
        downloadable: true,
        recipients: [member.email],
        message: 'Here are the figures we spoke about',
        password: 'Member-secret-5',
      },
    });
    expect(sent.status()).toBe(201);

    // "Shared with me" names the sender: a column on a desktop, under the title on a phone.
    const memberContext = await browser().newContext({ locale: 'en-US', viewport: PHONE });
    const memberPage = await memberContext.newPage();
    await signIn(memberPage, member.email);
    await memberPage.goto(`${app().url}/shares_shared`);
    const sharedRow = memberPage.locator('[data-testid="shared-row"][data-title="Figures for you"]');
    await sharedRow.waitFor();
    expect(await sharedRow.getByTestId('shared-row-sender-below').innerText()).toBe(`Shared by ${email}`);
    expect(await sharedRow.getByTestId('shared-row-sender').isVisible()).toBe(false);
    expect(await overflowsSideways(memberPage)).toBe(false);
    await shot(memberPage, 'shared-with-me-phone');
    await memberPage.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => sharedRow.getByTestId('shared-row-sender').isVisible()).toBe(true);
    expect(await sharedRow.getByTestId('shared-row-sender').innerText()).toBe(email);
    expect(await sharedRow.getByTestId('shared-row-sender-below').isVisible()).toBe(false);
    await shot(memberPage, 'shared-with-me-desktop');

    // The recipient's page says who shared it and what they wrote.
    await memberPage.setViewportSize(PHONE);
    await sharedRow.getByTestId('shared-row-open').click();
    await memberPage.getByTestId('share-access-password').fill('Member-secret-5');
    await memberPage.getByTestId('share-access-submit').click();
    await expect.poll(() => memberPage.getByTestId('share-title').innerText(), { timeout: 15_000 }).toBe('Figures for you');
    expect(await memberPage.getByTestId('share-message').innerText()).toContain('Here are the figures we spoke about');
    expect(await memberPage.getByTestId('share-facts').innerText()).toContain(`Shared by ${email}`);
    expect(await overflowsSideways(memberPage)).toBe(false);
    await shot(memberPage, 'recipient-phone');
    await memberContext.close();

    // The owner's access log names the visitor's browser in words, the raw user agent at hand.
    await owner.goto(`${app().url}/files/shares`);
    const publicRow = owner.locator('[data-testid="share-row"][data-title="figures.txt"]');
    await publicRow.getByTestId('share-row-open').click();
    const device = owner.locator('[data-testid="access-log-row"][data-action="download"]').getByTestId('access-log-device');
    await expect
      .poll(
        async () => {
          await owner.reload();
          await owner.getByTestId('share-details').waitFor();
          return (await device.count()) ? device.innerText() : '';
        },
        { timeout: 15_000 },
      )
      .toBe('Firefox on Windows');
    expect(await device.getAttribute('title')).toBe(FIREFOX_WINDOWS);
    await shot(owner, 'access-log');
    await owner.setViewportSize(PHONE);
    const below = owner.locator('[data-testid="access-log-row"][data-action="download"]').getByTestId('access-log-device-below');
    await expect.poll(() => below.isVisible()).toBe(true);
    expect(await below.innerText()).toContain('Firefox on Windows');
    // The table lays itself out again after the resize: the settled page must not scroll sideways.
    await expect.poll(() => overflowsSideways(owner)).toBe(false);
    await shot(owner, 'access-log-phone');
    await owner.setViewportSize({ width: 1280, height: 800 });

    // Three more shares use up the month: the dialog says so before anything is filled in, and the way to more.
    for (const n of [1, 2, 3]) {
      const more = await owner.request.post(`${app().url}/api/shares/`, {
        headers: { 'X-Requested-With': 'XMLHttpRequest' },
        data: { itemIds: [fileId], title: `More ${n}`, downloadable: true },
      });
      expect(more.status()).toBe(201);
    }
    await owner.goto(`${app().url}/files/storage`);
    await row(owner, 'figures.txt').getByRole('checkbox').check();
    await owner.getByTestId('action-share').click();
    await expect.poll(() => owner.getByTestId('share-usage').innerText()).toContain('You have used all 5 shares your plan allows this month.');
    expect(await owner.getByTestId('share-submit').isDisabled()).toBe(true);
    await shot(owner, 'limit-reached');
    await owner.getByTestId('share-upgrade').click();
    await owner.waitForURL(/\/storages\/plans$/);
    await owner.context().close();
  });
});
