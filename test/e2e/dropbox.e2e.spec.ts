import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../api/src/testing/harness';
import { startClioStandIn, type ClioStandIn } from '../../api/src/modules/integrations/clio/clio.standin';
import { dropboxContentHash } from '../../api/src/modules/integrations/dropbox/dropbox.content-hash';
import { startDropboxStandIn, type DropboxStandIn } from '../../api/src/modules/integrations/dropbox/dropbox.standin';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

// the stand-ins start first: the product's environment names them (read when the product starts)
let dropbox: DropboxStandIn;
let clio: ClioStandIn;
beforeAll(async () => {
  dropbox = await startDropboxStandIn({ root: mkdtempSync(path.join(os.tmpdir(), 'dropbox-e2e-')), account: 'dbid:e2e' });
  clio = await startClioStandIn();
});
afterAll(async () => {
  await dropbox?.stop();
  await clio?.stop();
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
    CLIO_CLIENT_ID: 'e2e-clio',
    CLIO_CLIENT_SECRET: 'e2e-clio-secret-value',
    get CLIO_URL() {
      return clio.url;
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
    // read once the page has laid itself out again for the phone's width
    await expectNoSideScroll(page);
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

const TUS = { 'tus-resumable': '1.0.0' };

/** A Secure Fetch with a certificate, a file received through it, paid from the development chain's faucet. */
const paidCertificate = async (http: HttpClient, id: string) => {
  const link = (await http.post(`/api/users/${id}/secure-fetches/`, { note: 'Deposition exhibits', certificate: true })).body;
  const sender = new HttpClient(app().url);
  const data = Buffer.from('exhibit A, as received');
  const created = await sender.request('POST', '/api/uploads/', undefined, {
    ...TUS,
    'upload-length': String(data.length),
    'upload-metadata': `secureFetchId ${Buffer.from(link.linkId).toString('base64')},filename ${Buffer.from('exhibit.txt').toString('base64')}`,
  });
  const location = created.headers.get('location')!;
  await sender.request('PATCH', location, new Uint8Array(data), { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' });
  const submitted = await sender.post(`/api/shares/${link.linkId}/`, {
    files: [{ uploadId: location.split('/').pop(), name: 'exhibit.txt', size: data.length, mime: 'text/plain' }],
  });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
  await http.post('/api/wallet/v1/addresses', {});
  expect((await http.post('/api/wallet/v1/faucet', { amount: '1' })).status).toBe(200);
  const before = (await http.get('/api/wallet/v1/blockchaininfo')).body.blocks as number;
  app().clock.advance(10_000);
  for (let i = 0; i < 150 && (await http.get('/api/wallet/v1/blockchaininfo')).body.blocks <= before; i++) await new Promise((r) => setTimeout(r, 100));
  const paid = await http.post(`/api/users/${id}/secure-fetches/${link.id}/pay`);
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return (await http.get(`/api/users/${id}/secure-fetches/${link.id}/certificate?format=json`)).body as { canonicalSha256: string; txId: string };
};

describe('Clio in the web app', () => {
  it('connects Clio from the partner dialog, greets the connection, and files a certificate to a matter with its hashes', async () => {
    const shot = stepShots('web-clio');
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const certificate = await paidCertificate(http, id);
    const page = await newPage();
    await webSignIn(page, email);

    await page.goto(`${app().url}/app/clio?type=clio`);
    const partner = page.getByTestId('clio-partner-dialog');
    await partner.getByRole('button', { name: 'Connect Clio' }).waitFor();
    await shot(page, 'partner-dialog');
    await partner.getByRole('button', { name: 'Connect Clio' }).click();
    await page.waitForURL(/\/app\/clio\/auth\?/);
    await page.locator('[data-testid="app-auth"][data-state="connected"]').waitFor();
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.getByTestId('clio-congratulations-dialog').getByText('Congratulations!').waitFor();
    await page.getByTestId('clio-congratulations-dialog').getByRole('button', { name: 'Continue' }).click();

    const matter = page.getByTestId('clio-matter').filter({ hasText: '00001-Acme' });
    await matter.getByRole('button', { name: 'File a certificate' }).click();
    await page.getByLabel('Secure Fetch certificate').click();
    await page.getByRole('option', { name: 'Deposition exhibits' }).click();
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await expect(page.getByTestId('clio-notice').textContent()).resolves.toContain('was filed to 00001-Acme');
    await shot(page, 'filed');
    const filed = [...clio.documents.values()].find((d) => d.matterId === 1001 && d.name.startsWith('certificate-'));
    expect(filed).toMatchObject({ fullyUploaded: true });
    expect(clio.notes.at(-1)?.detail).toContain(certificate.canonicalSha256);
    expect(clio.notes.at(-1)?.detail).toContain(certificate.txId);
  });
});
