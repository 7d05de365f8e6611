import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropboxContentHash } from '../../api/src/modules/integrations/dropbox/dropbox.content-hash';
import { startDropboxStandIn, type DropboxStandIn } from '../../api/src/modules/integrations/dropbox/dropbox.standin';
import { stepShots } from './browser';
import { e2eSuite } from './suite';

// the Dropbox stand-in starts first: the product's environment names it (read when the product starts)
let dropbox: DropboxStandIn;
beforeAll(async () => {
  dropbox = await startDropboxStandIn({ root: mkdtempSync(path.join(os.tmpdir(), 'dropbox-e2e-')), account: 'dbid:e2e' });
});
afterAll(async () => {
  await dropbox?.stop();
});

const { app, signUpConfirmed, signIn, webSignIn, newPage } = e2eSuite({
  env: {
    DROPBOX_CLIENT_ID: 'e2e-app-key',
    get DROPBOX_AUTHORIZE_URL() {
      return `${dropbox.url}/oauth2/authorize`;
    },
    get DROPBOX_API_URL() {
      return dropbox.url;
    },
    get DROPBOX_CONTENT_URL() {
      return dropbox.url;
    },
  },
});

/** A user on the Professional plan (it permits the dropbox app), paid through the test provider. */
const professional = async () => {
  const { email, id } = await signUpConfirmed();
  const { http } = await signIn(email);
  const bought = await http.post(`/api/users/${id}/products/`, { productId: 200 });
  const sessionId = decodeURIComponent(new URL(bought.body.checkoutLink as string).pathname.slice('/dev/checkout/'.length));
  expect((await http.post(`/api/dev/checkout/${encodeURIComponent(sessionId)}/pay`)).status).toBe(200);
  return { email, id, http };
};

describe('Dropbox in the web app', () => {
  it('connects Dropbox, browses, creates a folder, imports a file (hash checked) into the storage, and disconnects', async () => {
    const shot = stepShots('web-dropbox');
    const root = dropbox.folderOf('dbid:e2e');
    mkdirSync(path.join(root, 'Evidence'));
    writeFileSync(path.join(root, 'Evidence', 'statement.txt'), 'witness statement, signed');
    writeFileSync(path.join(root, 'contract.txt'), 'the contract, final version');
    const { email, id, http } = await professional();
    const page = await newPage();
    await webSignIn(page, email);

    await page.goto(`${app().url}/files/dropbox`);
    await page.getByRole('button', { name: 'Connect Dropbox' }).click();
    // Dropbox (its stand-in) approves and sends the browser back to the callback page
    await page.waitForURL(/\/app\/dropbox\/auth\?/);
    await page.locator('[data-testid="app-auth"][data-state="connected"]').waitFor();
    await shot(page, 'connected');
    await page.getByRole('link', { name: 'Continue' }).click();

    const entries = page.getByTestId('dropbox-entries');
    await entries.getByText('contract.txt').waitFor();
    await expect(entries.getByTestId('dropbox-folder').allTextContents()).resolves.toEqual(['Evidence']);
    await entries.getByText('Evidence').click();
    await page.waitForURL(/\/files\/dropbox\/Evidence$/);
    await entries.getByText('statement.txt').waitFor();
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByLabel('Folder name').fill('Photos');
    await page.getByRole('button', { name: 'Create' }).click();
    await entries.getByTestId('dropbox-folder').filter({ hasText: 'Photos' }).waitFor();
    await shot(page, 'browsing');

    await page.getByRole('link', { name: 'Dropbox' }).first().click();
    await page.getByTestId('dropbox-file').filter({ hasText: 'contract.txt' }).getByRole('button', { name: 'Import to my storage' }).click();
    await expect(page.getByTestId('dropbox-notice').textContent()).resolves.toContain('“contract.txt” was imported');
    const storageId = (await http.get(`/api/users/${id}/storages/`)).body.data[0].id as string;
    const items = (await http.get(`/api/users/${id}/storages/${storageId}/items/`)).body.data as { name: string }[];
    expect(items.map((i) => i.name)).toContain('contract.txt');
    const imported = (await app().app.ctx.store.readStream(`integrations-${id}`)).events.find((e) => e.type === 'DropboxFileImported');
    expect(imported?.data).toMatchObject({ contentHash: dropboxContentHash(Buffer.from('the contract, final version')) });

    // a phone shows the list without sideways scrolling
    await page.setViewportSize({ width: 390, height: 844 });
    await entries.getByText('contract.txt').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.goto(`${app().url}/manage-apps`);
    const card = page.getByTestId('app-dropbox');
    await page.locator('[data-testid="app-dropbox"][data-connected="true"]').waitFor();
    await card.getByRole('button', { name: 'Disconnect' }).click();
    await page.locator('[data-testid="app-dropbox"][data-connected="false"]').waitFor();
    await shot(page, 'disconnected');
    expect(dropbox.calls).toContain('POST /2/auth/token/revoke');
  });
});
