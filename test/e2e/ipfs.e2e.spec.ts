import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../api/src/testing/harness';
import { stepShots } from './browser';
import { e2eSuite } from './suite';

const ROOT = { email: 'root@axel.test', password: 'Root-pass-123' };
const TUS = { 'tus-resumable': '1.0.0' };
const POLL_MS = 20_000;

const { app, signUpConfirmed, signIn, signedInPage, consoleSignIn, newPage } = e2eSuite({ admin: ROOT, env: { RATE_LIMIT_FACTOR: '10' } });

/** A Secure Fetch link whose file was received and paid for (through the API): its files are pinned. */
const paidFetch = async (http: HttpClient, id: string, data: Buffer) => {
  const link = (await http.post(`/api/users/${id}/secure-fetches/`, { note: 'Send the drawings', certificate: true })).body;
  const anon = new HttpClient(app().url);
  const created = await anon.request('POST', '/api/uploads/', undefined, {
    ...TUS,
    'upload-length': String(data.length),
    'upload-metadata': `secureFetchId ${Buffer.from(link.linkId).toString('base64')},filename ${Buffer.from('drawing.bin').toString('base64')}`,
  });
  const location = created.headers.get('location')!;
  await anon.request('PATCH', location, new Uint8Array(data), { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' });
  const files = [{ uploadId: location.split('/').pop()!, name: 'drawing.bin', size: data.length, mime: 'application/octet-stream' }];
  expect((await anon.post(`/api/shares/${link.linkId}/`, { files })).status).toBe(201);
  expect((await http.post('/api/wallet/v1/addresses', {})).status).toBe(201);
  expect((await http.post('/api/wallet/v1/faucet', { amount: '1' })).status).toBe(200);
  const height = async () => (await http.get('/api/wallet/v1/blockchaininfo')).body.blocks as number;
  const before = await height();
  app().clock.advance(10_000);
  for (let i = 0; i < 150 && (await height()) <= before; i++) await new Promise((r) => setTimeout(r, 100));
  const paid = await http.post(`/api/users/${id}/secure-fetches/${link.id}/pay`);
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return link as { id: string };
};

describe('IPFS pinning in the browser', () => {
  it('the owner sees the pin and copies its public link through the gateway chosen in settings; staff unpin it with a reason in the console', async () => {
    const shot = stepShots('ipfs');
    const owner = await signUpConfirmed();
    const { http } = await signIn(owner.email);
    const link = await paidFetch(http, owner.id, randomBytes(1_200_000));

    // the paid fetch shows its pin with the product's own gateway link, on a phone too
    const page = await signedInPage(owner.email);
    await page.goto(`${app().url}/files/secure-fetch/${link.id}`);
    const pin = page.locator('[data-testid="fetch-ipfs-pin"][data-status="pinned"]');
    await pin.waitFor({ timeout: POLL_MS });
    const cid = (await pin.getByTestId('fetch-ipfs-cid').innerText()).trim();
    expect(cid).toMatch(/^bafybei[a-z2-7]+$/);
    expect(await pin.getByTestId('fetch-ipfs-link').inputValue()).toBe(`${app().url}/ipfs/${cid}`);
    // the link answers the file's DAG to an IPFS client
    expect((await fetch(`${app().url}/ipfs/${cid}`, { headers: { accept: 'application/vnd.ipld.car' } })).status).toBe(200);
    await page.setViewportSize({ width: 390, height: 844 });
    // the pins section fits a phone (the received files' hash table beside it scrolls on its own)
    const section = page.getByTestId('fetch-ipfs');
    await expect.poll(async () => (await section.boundingBox())!.width, { timeout: 3000 }).toBeLessThanOrEqual(390);
    expect(await section.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await shot(page, 'pin-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    // a gateway of the wrong form is refused; a good one builds the links from then on
    await page.goto(`${app().url}/settings?tab=account`);
    const input = page.getByTestId('ipfs-gateway-input');
    await input.fill('http://ipfs.example.org');
    await page.getByTestId('ipfs-gateway-save').click();
    await expect.poll(() => page.getByTestId('account-ipfs-gateway').textContent(), { timeout: POLL_MS }).toContain('Enter a valid IPFS gateway address');
    await input.fill('https://dweb.example.org/ipfs/');
    await page.getByTestId('ipfs-gateway-save').click();
    await expect.poll(() => input.inputValue(), { timeout: POLL_MS }).toBe('https://dweb.example.org');
    await shot(page, 'gateway-saved');
    await page.goto(`${app().url}/files/secure-fetch/${link.id}`);
    await expect.poll(() => page.getByTestId('fetch-ipfs-link').inputValue(), { timeout: POLL_MS }).toBe(`https://dweb.example.org/ipfs/${cid}`);

    // staff: the IPFS pinning section lists it with its owner and transaction; unpinning needs a reason
    const staffPage = await newPage();
    await consoleSignIn(staffPage, ROOT.email, ROOT.password);
    await staffPage.getByTestId('menu-ipfs-pinning').click();
    await staffPage.getByTestId('ipfs-pins-search').locator('input').fill(cid);
    const row = staffPage.getByTestId('ipfs-pins-table').locator('tr', { hasText: cid });
    await row.waitFor({ timeout: POLL_MS });
    expect(await row.innerText()).toContain('Pinned');
    expect(await row.innerText()).toContain(owner.email);
    await shot(staffPage, 'console-list');
    await row.locator('[data-testid^="pin-unpin-"]').click();
    const confirm = staffPage.getByTestId('pin-unpin-confirm');
    expect(await confirm.isDisabled()).toBe(true);
    await staffPage.getByTestId('pin-unpin-reason').fill('Takedown request 7');
    await confirm.click();
    await expect.poll(() => row.innerText(), { timeout: POLL_MS }).toContain('Unpinned');
    await shot(staffPage, 'console-unpinned');
    expect((await fetch(`${app().url}/ipfs/${cid}`, { headers: { accept: 'application/vnd.ipld.car' } })).status).toBe(404);

    // the owner sees it unpinned, without a link
    await page.reload();
    await page.locator('[data-testid="fetch-ipfs-pin"][data-status="unpinned"]').waitFor({ timeout: POLL_MS });
    expect(await page.getByTestId('fetch-ipfs-link').count()).toBe(0);
  });
});
