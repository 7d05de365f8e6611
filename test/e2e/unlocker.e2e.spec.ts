import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { encryptFor, makeKey } from '../../api/src/modules/e2ee/e2ee.testing';
import type { HttpClient } from '../../api/src/testing/harness';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';
import { writeZip } from '../../web/src/features/unlocker/zip-writer.testing';

const { signedInUser, buyPlan, signedInPage } = e2eSuite();
const PROFESSIONAL = 200;
const PASSPHRASE = 'Unlock Me 2026';
const TUS = { 'tus-resumable': '1.0.0' };

/** An end-to-end file as the browser makes it: the content uploaded, the key packets as its pgpmessage. */
const e2eeFile = async (http: HttpClient, storageId: string, userId: string, name: string, content: Uint8Array, pgpmessage: string) => {
  const created = await http.request('POST', '/api/uploads/', undefined, {
    ...TUS,
    'upload-length': String(content.length),
    'upload-metadata': `storageId ${Buffer.from(storageId).toString('base64')}`,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const location = created.headers.get('location')!;
  const sent = await http.request('PATCH', location, new Uint8Array(content), {
    ...TUS,
    'upload-offset': '0',
    'content-type': 'application/offset+octet-stream',
  });
  expect(sent.status).toBe(204);
  const made = await http.post(`/api/users/${userId}/storages/${storageId}/items/`, {
    label: 'file',
    name,
    uploadId: location.split('/').at(-1),
    e2eeEnabled: true,
    pgpmessage,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.id as string;
};

const zipOf = (entries: { name: string; data: Uint8Array }[]) => writeZip(entries.map((e) => ({ ...e, compress: e.name.endsWith('.txt.pgp') })));

/** Waits for this many downloads from the page, by suggested file name. */
const downloadsOf = (page: Page, count: number) =>
  new Promise<Map<string, Download>>((resolve) => {
    const seen = new Map<string, Download>();
    const onDownload = (d: Download) => {
      seen.set(d.suggestedFilename(), d);
      if (seen.size === count) {
        page.off('download', onDownload);
        resolve(seen);
      }
    };
    page.on('download', onDownload);
  });
const bytesOf = async (d: Download | undefined) => readFile((await d!.path())!);

describe('the AXEL unlocker', () => {
  it('unlocks a zip of two end-to-end files byte-identical after refusing a wrong passphrase, and a selection of the file browser through its archive', async () => {
    const shot = stepShots('web-unlocker');
    const owner = await signedInUser();
    await buyPlan(owner.http, owner.id, PROFESSIONAL);
    const key = await makeKey(PASSPHRASE, owner.email);
    const set = await owner.http.put(`/api/users/${owner.id}/e2ee/key`, { mode: 'set', privateKey: key.privateKey, hint: 'the year' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);

    const contract = Buffer.concat([Buffer.from('%PDF-1.7 contract '), randomBytes(700_000)]);
    const notes = Buffer.from('meeting notes: nothing here leaves the browser unencrypted\n'.repeat(200));
    const contractFile = await encryptFor([key.publicKey], contract);
    const notesFile = await encryptFor([key.publicKey], notes);
    const contractId = await e2eeFile(owner.http, owner.storageId, owner.id, 'contract.pdf', contractFile.content, contractFile.pgpmessage);
    const notesId = await e2eeFile(owner.http, owner.storageId, owner.id, 'notes.txt', notesFile.content, notesFile.pgpmessage);

    const page = await signedInPage(owner.email, { viewport: { width: 390, height: 844 }, acceptDownloads: true });
    const origin = new URL(page.url()).origin;
    await page.goto(`${origin}/axel-unlocker`);
    await page.getByTestId('unlocker-drop').waitFor();
    await expectNoSideScroll(page);
    await shot(page, 'empty');

    // a zip of both whole messages, as a download of several items holds them
    const zip = zipOf([
      { name: 'Docs/contract.pdf.pgp', data: contractFile.whole },
      { name: 'notes.txt.pgp', data: notesFile.whole },
    ]);
    await page.getByTestId('unlocker-input').setInputFiles({ name: 'axel-download.zip', mimeType: 'application/zip', buffer: zip });
    await page.getByTestId('unlocker-passphrase').fill('unlock me 2026');
    await page.getByTestId('unlocker-unlock').click();
    await expect.poll(() => page.getByTestId('unlocker-passphrase-error').innerText(), { timeout: 60_000 }).toBe('Wrong passphrase');
    expect(await page.getByTestId('unlocker-items').count()).toBe(0);
    await expectNoSideScroll(page);
    await shot(page, 'wrong-passphrase');

    const fromZip = downloadsOf(page, 2);
    await page.getByTestId('unlocker-passphrase').fill(PASSPHRASE);
    await page.getByTestId('unlocker-unlock').click();
    const saved = await fromZip;
    await page.getByTestId('unlocker-done').waitFor({ timeout: 60_000 });
    expect([...saved.keys()].sort()).toEqual(['Docs_contract.pdf', 'notes.txt']);
    expect((await bytesOf(saved.get('Docs_contract.pdf'))).equals(contract)).toBe(true);
    expect((await bytesOf(saved.get('notes.txt'))).equals(notes)).toBe(true);
    expect(await page.getByTestId('unlocker-done').innerText()).toContain('2 of 2 files decrypted and saved');
    // real progress: each row says how many bytes were read and decrypted
    const rows = await page.getByTestId('unlocker-item-bytes').allInnerTexts();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => /read · .* decrypted/.test(r))).toBe(true);
    await expectNoSideScroll(page);
    await shot(page, 'done');

    // on a desktop, from the file browser's selection: Unlock opens the unlocker with both, which has them archived, downloads and unlocks them
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${origin}/files/storage/${owner.storageId}`);
    for (const name of ['contract.pdf', 'notes.txt']) await page.locator(`[data-testid="file-row"][data-name="${name}"]`).getByRole('checkbox').check();
    await page.getByTestId('action-unlock').click();
    await page.waitForURL((url) => url.pathname === '/axel-unlocker');
    const arrived = new URL(page.url()).searchParams;
    expect(arrived.get('storageId')).toBe(owner.storageId);
    expect(arrived.get('itemIds')?.split(',').sort()).toEqual([contractId, notesId].sort());
    const fromStorage = downloadsOf(page, 2);
    await page.getByTestId('unlocker-passphrase').fill(PASSPHRASE);
    await page.getByTestId('unlocker-unlock').click();
    const archived = await fromStorage;
    await page.getByTestId('unlocker-done').waitFor({ timeout: 60_000 });
    expect((await bytesOf([...archived.entries()].find(([n]) => n.endsWith('contract.pdf'))?.[1])).equals(contract)).toBe(true);
    expect((await bytesOf([...archived.entries()].find(([n]) => n.endsWith('notes.txt'))?.[1])).equals(notes)).toBe(true);
    expect(await page.getByTestId('unlocker-done').innerText()).toContain('2 of 2 files decrypted and saved');
    await expectNoSideScroll(page);
    await shot(page, 'from-storage');
  }, 240_000);
});
