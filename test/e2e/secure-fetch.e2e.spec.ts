import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../api/src/testing/harness';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

/** Blocks on the development chain come only when the test moves the app's clock this far. */
const BLOCK_SECONDS = 600;

const { app, signUpConfirmed, signIn, dir, newPage, signedInPage } = e2eSuite({
  tempDir: 'axel-fetch-e2e-',
  env: { AXEL_DEV_BLOCK_SECONDS: String(BLOCK_SECONDS), RATE_LIMIT_FACTOR: '10' },
});

/** One block: the app's clock moves a block interval on; the miner notices within a second. */
const mineBlock = async () => {
  const height = async () => ((await (await fetch(`${app().url}/api/wallet/v1/blockchaininfo`)).json()) as { blocks: number }).blocks;
  const before = await height();
  app().clock.advance(BLOCK_SECONDS * 1000);
  for (let i = 0; i < 100 && (await height()) <= before; i++) await new Promise((r) => setTimeout(r, 100));
};

/** Uploads, hashing and server answers share two CPU cores with other work: wait as long as a user would. */
const POLL_MS = 20_000;

const hex = (algorithm: string, bytes: Buffer) => createHash(algorithm).update(bytes).digest('hex');

describe('Secure Fetch in the browser', () => {
  it('a link with certificate, an anonymous upload (paused and resumed, a folder, metadata), pay and pin, the certificate PDF, the verify page, and a revoked link', async () => {
    const shot = stepShots('secure-fetch');
    const owner = await signUpConfirmed();
    const page = await signedInPage(owner.email, { acceptDownloads: true });

    // The owner creates a link with metadata and a certificate (0.009 AXEL), and copies its address.
    await page.goto(`${app().url}/files/storage`);
    await page.getByTestId('open-secure-fetch').click();
    await page.getByTestId('fetch-create').click();
    await page.getByTestId('fetch-create-submit').click();
    await expect.poll(() => page.getByTestId('fetch-create-dialog').textContent(), { timeout: POLL_MS }).toContain('A note is required');
    await page.getByTestId('fetch-create-note').fill('Please send the signed contract');
    await page.getByTestId('fetch-create-metadata').check();
    expect(await page.getByTestId('fetch-create-dialog').textContent()).toContain('total 0.009 AXEL');
    await page.getByTestId('fetch-create-submit').click();
    const url = await page.getByTestId('fetch-created-link').inputValue();
    expect(url).toMatch(new RegExp(`^${app().url}/secure-fetch/[A-Za-z0-9_-]{22}$`));
    await shot(page, 'created');
    await page.getByTestId('fetch-created-close').click();
    await page.locator('[data-testid="fetch-row"][data-status="waiting"]').waitFor();
    // The list searches the notes.
    await page.getByTestId('fetch-search').fill('invoice');
    await page.getByTestId('fetch-list-empty').waitFor();
    await page.getByTestId('fetch-search').fill('contract');
    await page.locator('[data-testid="fetch-row"][data-status="waiting"]').waitFor();

    // Someone without an account uploads a file and a folder through the link and fills the metadata.
    const content = randomBytes(6 * 1024 * 1024 + 777);
    const terms = Buffer.from('terms and conditions\n');
    const scan = Buffer.from('page one of the scan\n');
    mkdirSync(path.join(dir(), 'annex', 'scans'), { recursive: true });
    writeFileSync(path.join(dir(), 'annex', 'terms.txt'), terms);
    writeFileSync(path.join(dir(), 'annex', 'scans', 'page1.txt'), scan);
    const visitor = await newPage({ acceptDownloads: true });
    await visitor.goto(url);
    expect(await visitor.getByTestId('fetch-link-note').textContent()).toBe('Please send the signed contract');
    expect(await visitor.getByTestId('fetch-link-max-size').textContent()).toBe('Up to 10 MiB per file');
    expect(await visitor.getByTestId('fetch-link-certificate').textContent()).toBe('Certificate of authenticity (MD5, SHA-1, SHA3-512)');
    // A slow uplink, so the contract is still uploading when it is paused; resumed, it continues from the server's offset.
    const cdp = await visitor.context().newCDPSession(visitor);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1024 * 1024 });
    await visitor.getByTestId('fetch-file-input').setInputFiles([{ name: 'contract.bin', mimeType: 'application/octet-stream', buffer: content }]);
    const contractRow = visitor.locator('[data-testid="fetch-file"][data-name="contract.bin"]');
    const progress = () => contractRow.getByRole('progressbar').getAttribute('aria-valuenow').then(Number);
    await expect.poll(progress, { timeout: POLL_MS }).toBeGreaterThan(5);
    await contractRow.getByTestId('fetch-file-pause').click();
    expect(await contractRow.getAttribute('data-status')).toBe('paused');
    expect(await progress()).toBeLessThan(100);
    await shot(visitor, 'paused');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await contractRow.getByTestId('fetch-file-resume').click();
    await visitor.getByTestId('fetch-folder-input').setInputFiles(path.join(dir(), 'annex'));
    await expect.poll(() => visitor.locator('[data-testid="fetch-file"][data-status="done"]').count(), { timeout: POLL_MS }).toBe(3);
    await expect.poll(() => visitor.locator('[data-testid="fetch-file-hash"][data-done="true"]').count(), { timeout: POLL_MS }).toBe(3);
    // The hashing ran in the page's module worker, off the page's thread.
    expect(visitor.workers().some((w) => /hashing\.worker/.test(w.url()))).toBe(true);
    expect(await visitor.locator('[data-testid="fetch-file"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')).sort())).toEqual([
      'annex/scans/page1.txt',
      'annex/terms.txt',
      'contract.bin',
    ]);
    expect(await visitor.getByTestId('fetch-overall').getAttribute('data-percent')).toBe('100');
    await visitor.getByTestId('fetch-submit').click();
    await expect.poll(() => visitor.getByTestId('fetch-metadata-form').textContent(), { timeout: POLL_MS }).toContain('Choose a copyright type');
    await visitor.getByTestId('fetch-meta-contactEmail').fill('ana@example.org');
    await visitor.getByTestId('fetch-meta-copyrightTypeId').click();
    await visitor.getByTestId('copyright-3').click();
    await visitor.getByTestId('fetch-meta-author').fill('Ana Lima');
    await shot(visitor, 'uploaded');
    await visitor.getByTestId('fetch-submit').click();
    await visitor.getByTestId('fetch-sent').waitFor();
    // The browser's own hashes agree with the server's receipt, whose signature the browser checks with the server's published key.
    expect(await visitor.getByTestId('fetch-receipt-verdict').getAttribute('data-verdict')).toBe('match');
    expect(await visitor.getByTestId('fetch-receipt-signature').getAttribute('data-signature')).toBe('valid');
    const [receiptFile] = await Promise.all([visitor.waitForEvent('download'), visitor.getByTestId('fetch-receipt-download').click()]);
    const receipt = JSON.parse(readFileSync(await receiptFile.path(), 'utf8')) as { items: Array<Record<string, unknown>>; signature: string };
    const item = (name: string, bytes: Buffer) => ({
      name,
      size: bytes.length,
      md5: hex('md5', bytes),
      sha1: hex('sha1', bytes),
      sha3_512: hex('sha3-512', bytes),
    });
    expect([...receipt.items].sort((a, b) => String(a.name).localeCompare(String(b.name)))).toEqual([
      item('contract.bin', content),
      item('page1.txt', scan),
      item('terms.txt', terms),
    ]);
    expect(receipt.signature).toBeTruthy();
    await shot(visitor, 'sent');
    // The link is used: opening it again shows the spec's message.
    await visitor.reload();
    expect(await visitor.getByTestId('fetch-unavailable').getAttribute('data-error-code')).toBe('SECURE_FETCH_USED');

    // The owner hears that files arrived, and sees them unpaid; paying without confirmed tokens is refused with the spec's message.
    await page.reload();
    await page.getByTestId('notifications-bell').click();
    await expect.poll(() => page.getByTestId('notifications-list').textContent(), { timeout: POLL_MS }).toContain('Files arrived');
    await page.getByTestId('notifications-close').click();
    await page.locator('[data-testid="fetch-row"][data-status="uploaded"]').click();
    await page.getByTestId('fetch-pay').waitFor();
    expect(await page.getByTestId('fetch-pay-cost').getAttribute('data-cost')).toBe('0.009');
    await page.locator('[data-testid="fetch-item"][data-name="contract.bin"]').waitFor();
    expect(await page.locator('[data-testid="fetch-item"][data-name="page1.txt"]').textContent()).toContain('annex/scans/page1.txt');
    expect(await page.locator('[data-testid="fetch-item"]').count()).toBe(3);
    // With no confirmed tokens pay is not offered: the page says so up front, with a way to get tokens.
    await page.getByTestId('fetch-pay-short').waitFor({ timeout: POLL_MS });
    expect(await page.getByTestId('fetch-pay-short').textContent()).toContain('Your confirmed balance (0 AXEL) does not cover the 0.009 AXEL');
    expect(await page.getByTestId('fetch-pay-button').isDisabled()).toBe(true);
    expect(await page.getByTestId('fetch-pay-get-tokens').getAttribute('href')).toBe('/wallet/replenish');
    await shot(page, 'insufficient');

    // Funded by the development chain's faucet and a mined block, the retry pays and returns to the list.
    const { http } = await signIn(owner.email);
    expect((await http.post('/api/wallet/v1/addresses', {})).status).toBeLessThan(300);
    expect((await http.post('/api/wallet/v1/faucet', { amount: '1' })).status).toBeLessThan(300);
    await mineBlock();
    await expect.poll(async () => (await http.get('/api/wallet/v1/balance')).body.confirmed, { timeout: POLL_MS }).toBe('1');
    await page.reload();
    await expect.poll(() => page.getByTestId('fetch-pay-button').isEnabled(), { timeout: POLL_MS }).toBe(true);
    expect(await page.getByTestId('fetch-pay-short').count()).toBe(0);
    await page.getByTestId('fetch-pay-button').click();
    await page.getByTestId('fetch-pay-confirm-button').click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: POLL_MS }).toBe('/files/secure-fetch');
    await page.locator('[data-testid="fetch-row"][data-status="active"]').click();
    await page.locator('[data-testid="fetch-details"][data-paid="true"]').waitFor();

    // The paid file downloads as it was sent; the certificate comes as a PDF and as JSON.
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-testid="fetch-item"][data-name="contract.bin"] [data-testid="fetch-item-download"]').click(),
    ]);
    expect(readFileSync(await file.path()).equals(content)).toBe(true);
    await page.getByTestId('fetch-certificate-view').click();
    await expect.poll(() => page.getByTestId('fetch-certificate-tx').textContent(), { timeout: POLL_MS }).toMatch(/[0-9a-f]{64}/);
    await shot(page, 'certificate');
    await page.keyboard.press('Escape');
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByTestId('fetch-certificate-pdf').click()]);
    expect(
      readFileSync(await pdf.path())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('%PDF');
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('fetch-certificate-json').click()]);
    const certificatePath = await json.path();
    // The same details, received files and their hashes included, read on a phone without scrolling sideways.
    const desktop = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSideScroll(page);
    await page.setViewportSize(desktop);

    // Anyone can check a file against the certificate on the verify page: the file matches, another does not.
    await visitor.goto(`${app().url}/verify-certificate`);
    await visitor
      .getByTestId('verify-certificate-input')
      .setInputFiles([{ name: 'certificate.json', mimeType: 'application/json', buffer: readFileSync(certificatePath) }]);
    expect(await visitor.getByTestId('verify-certificate-summary').getAttribute('data-intact')).toBe('true');
    // The pay and pin transaction timestamps the certificate: it carries the certificate's fingerprint.
    await visitor.locator('[data-testid="verify-chain"][data-anchor="anchored"]').waitFor();
    await visitor.getByTestId('verify-file-input').setInputFiles([{ name: 'contract.bin', mimeType: 'application/octet-stream', buffer: content }]);
    await visitor.locator('[data-testid="verify-result"][data-verdict="match"]').waitFor();
    expect(await visitor.getByTestId('verify-verdict').textContent()).toContain('The file matches the certificate');
    await shot(visitor, 'verified');
    await visitor
      .getByTestId('verify-file-input')
      .setInputFiles([{ name: 'contract.bin', mimeType: 'application/octet-stream', buffer: Buffer.concat([content, Buffer.from('!')]) }]);
    await visitor.locator('[data-testid="verify-result"][data-verdict="mismatch"]').waitFor();
    expect(await visitor.locator('[data-testid="verify-hash-sha3_512"]').getAttribute('data-verdict')).toBe('differs');
    await shot(visitor, 'altered');

    // A link the owner revokes takes no more files: its page says it is no longer valid.
    await page.goto(`${app().url}/files/secure-fetch`);
    await page.getByTestId('fetch-create').click();
    await page.getByTestId('fetch-create-note').fill('Old request');
    await page.getByTestId('fetch-create-certificate').uncheck();
    expect(await page.getByTestId('fetch-create-dialog').textContent()).toContain('total 0.003 AXEL');
    await page.getByTestId('fetch-create-submit').click();
    const oldUrl = await page.getByTestId('fetch-created-link').inputValue();
    await page.getByTestId('fetch-created-close').click();
    await page.locator('[data-testid="fetch-row"]', { hasText: 'Old request' }).click();
    await page.getByTestId('fetch-revoke').click();
    await page.getByTestId('fetch-revoke-confirm').click();
    await expect.poll(() => page.getByTestId('fetch-details-status').textContent(), { timeout: POLL_MS }).toBe('Revoked');
    await visitor.goto(oldUrl);
    expect(await visitor.getByTestId('fetch-unavailable').getAttribute('data-error-code')).toBe('SECURE_FETCH_INVALID');
    expect(await visitor.getByTestId('fetch-unavailable').textContent()).toBe('This Secure Fetch link is no longer valid');
    await shot(visitor, 'revoked');
    await visitor.context().close();
    await page.context().close();
    // The whole journey, on two cores shared with other work, takes longer than one step's default.
  }, 240_000);

  it("the file browser opens the folder a link's files arrived in (sfFolder) and previews and downloads a received file (sfFile)", async () => {
    const owner = await signUpConfirmed();
    const { http } = await signIn(owner.email);
    const link = (await http.post(`/api/users/${owner.id}/secure-fetches/`, { note: 'Send the notes', includeMetadata: false, certificate: false })).body as {
      linkId: string;
    };
    // someone without an account sends a text file through the link
    const notes = Buffer.from('received notes\nsecond line\n');
    const anonymous = new HttpClient(app().url);
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const tus = { 'tus-resumable': '1.0.0' };
    const created = await anonymous.request('POST', '/api/uploads/', undefined, {
      ...tus,
      'upload-length': String(notes.length),
      'upload-metadata': `secureFetchId ${b64(link.linkId)},filename ${b64('notes.txt')}`,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const location = created.headers.get('location')!;
    expect(
      (await anonymous.request('PATCH', location, new Uint8Array(notes), { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }))
        .status,
    ).toBe(204);
    const sent = await anonymous.post(`/api/shares/${link.linkId}/`, {
      files: [{ uploadId: location.split('/').pop()!, name: 'notes.txt', size: notes.length, mime: 'text/plain' }],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);

    const page = await signedInPage(owner.email, { acceptDownloads: true });
    await page.goto(`${app().url}/files/storage`);
    const folder = page.locator('[data-testid="file-row"][data-label="sfFolder"]');
    await folder.waitFor({ timeout: POLL_MS });
    await folder.getByTestId('file-open').click();
    const received = page.locator('[data-testid="file-row"][data-name="notes.txt"][data-label="sfFile"]');
    await received.waitFor({ timeout: POLL_MS });
    await received.getByTestId('file-open').click();
    await page.getByTestId('preview-dialog').waitFor();
    await expect.poll(() => page.getByTestId('preview-text').innerText(), { timeout: POLL_MS }).toContain('received notes');
    await page.getByTestId('preview-close').click();
    await received.getByRole('checkbox').check();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('action-download').click()]);
    expect(download.suggestedFilename()).toBe('notes.txt');
    expect(readFileSync(await download.path()).equals(notes)).toBe(true);
    await page.context().close();
  });
});
