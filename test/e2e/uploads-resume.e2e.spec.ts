import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { stepShots } from './browser';
import { e2eSuite } from './suite';

const { app, browser, uniqueEmail, signUpConfirmed, dir, webSignIn, newPage } = e2eSuite({ tempDir: 'axel-uploads-e2e-' });

const row = (page: Page, name: string) => page.locator(`[data-testid="file-row"][data-name="${name}"]`);
const MiB = 1024 * 1024;

/** How far the page is wider than the screen (0: nothing scrolls sideways). */
const overflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;

describe('uploads that survive leaving the page', () => {
  it('a 20 MB upload interrupted by a reload is listed as interrupted and resumes from the server offset when the same file is picked again (390 px phone)', async () => {
    const shot = stepShots('web-uploads-resume');
    const { email } = await signUpConfirmed(uniqueEmail('resume'));
    const context = await browser().newContext({
      locale: 'en-US',
      acceptDownloads: true,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    // The leave warning is answered "leave".
    page.on('dialog', (dialog) => void dialog.accept());
    await webSignIn(page, email);
    await page.goto(`${app().url}/files/storage`);
    await page.getByTestId('empty-folder').waitFor();

    // Every tus call the page makes: which upload, how it was asked, and from which offset.
    const calls: { method: string; url: string; offset: number | null; status?: number }[] = [];
    page.on('request', (request) => {
      if (!request.url().includes('/api/uploads/')) return;
      const offset = request.headers()['upload-offset'];
      calls.push({ method: request.method(), url: request.url(), offset: offset === undefined ? null : Number(offset) });
    });
    page.on('response', (response) => {
      if (!response.url().includes('/api/uploads/')) return;
      const call = calls.findLast((c) => c.url === response.url() && c.method === response.request().method() && c.status === undefined);
      if (call) call.status = response.status();
    });

    // A slow uplink (2 MiB/s), so the upload is under way when the page is reloaded.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 2 * MiB });
    const data = randomBytes(20 * 1000 * 1000);
    // The file on disk: the browser reads it itself, as it would a file the user picks.
    const file = path.join(dir(), 'big.bin');
    writeFileSync(file, data);
    await page.getByTestId('file-input').setInputFiles([file]);
    const item = page.getByTestId('upload-item');
    // The panel shows the bytes sent, the speed and the time left.
    await expect.poll(() => page.getByTestId('upload-transfer').innerText(), { timeout: 30_000 }).toMatch(/MB of 20 MB · [\d.]+ [KM]B\/s · \d+ (sec|min)/);
    // A first 8 MiB chunk reached the server: its offset is kept there.
    await expect.poll(() => calls.some((c) => c.method === 'PATCH' && c.status === 204), { timeout: 60_000 }).toBe(true);
    await shot(page, 'uploading');
    const before = Number(await item.getByRole('progressbar').getAttribute('aria-valuenow'));
    expect(before).toBeGreaterThan(20);
    expect(before).toBeLessThan(100);
    const uploadUrl = calls.find((c) => c.method === 'PATCH')!.url;

    calls.length = 0;
    await page.reload();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByTestId('upload-panel').waitFor();
    await expect.poll(() => item.getAttribute('data-status'), { timeout: 10_000 }).toBe('interrupted');
    expect(await item.getAttribute('data-name')).toBe('big.bin');
    expect(await page.getByTestId('upload-interrupted-hint').innerText()).toMatch(/Choose the same file/);
    expect(await page.getByTestId('upload-summary').innerText()).toMatch(/1 upload interrupted/);
    // Nothing went out before the file was given back.
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    const panel = (await page.getByTestId('upload-panel').boundingBox())!;
    expect(panel.x).toBeGreaterThanOrEqual(0);
    expect(panel.x + panel.width).toBeLessThanOrEqual(390);
    await shot(page, 'interrupted');

    // The same bytes picked again (a new File object, a new date): the upload continues where the server stopped.
    await page.getByTestId('file-input').setInputFiles([file]);
    await expect.poll(() => item.getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
    expect(await item.count()).toBe(1);
    await shot(page, 'resumed');

    const head = calls.find((c) => c.method === 'HEAD');
    expect(head?.url).toBe(uploadUrl);
    const patches = calls.filter((c) => c.method === 'PATCH');
    expect(patches.length).toBeGreaterThan(0);
    expect(patches.every((c) => c.url === uploadUrl)).toBe(true);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    const resumedFrom = patches[0]!.offset!;
    const sentAfterResume = data.length - resumedFrom;
    expect(resumedFrom).toBeGreaterThanOrEqual(8 * MiB);
    expect(sentAfterResume).toBeLessThan(data.length);

    // The file is in the folder, byte for byte.
    await row(page, 'big.bin').waitFor();
    await row(page, 'big.bin').getByRole('checkbox').check();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('action-download').click()]);
    const got = readFileSync(await download.path());
    expect(got.length).toBe(data.length);
    expect(got.equals(data)).toBe(true);

    // Nothing is kept once the upload is over: a reload lists nothing.
    await page.reload();
    await row(page, 'big.bin').waitFor();
    await page.waitForTimeout(500);
    expect(await page.getByTestId('upload-panel').count()).toBe(0);
    await context.close();
  });

  it('names a file saved under the next free name as it was saved', async () => {
    const shot = stepShots('web-uploads-saved-as');
    const { email } = await signUpConfirmed(uniqueEmail('savedas'));
    const page = await newPage();
    await webSignIn(page, email);
    await page.goto(`${app().url}/files/storage`);
    await page.getByTestId('empty-folder').waitFor();

    await page.getByTestId('file-input').setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('first') }]);
    await row(page, 'notes.txt').waitFor();
    await page.getByTestId('file-input').setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('second') }]);
    await row(page, 'notes (1).txt').waitFor();
    const second = page.getByTestId('upload-item').nth(1);
    await expect.poll(() => second.getAttribute('data-status')).toBe('done');
    expect(await second.getAttribute('data-saved-name')).toBe('notes (1).txt');
    expect(await second.getByTestId('upload-item-name').innerText()).toBe('notes (1).txt');
    expect(await second.getByTestId('upload-saved-as').innerText()).toBe('Saved as notes (1).txt (notes.txt was taken)');
    expect(await page.getByTestId('upload-item').first().getByTestId('upload-saved-as').count()).toBe(0);
    await shot(page, 'saved-as');
    await page.context().close();
  });
});
