import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../api/src/testing/harness';
import { stepShots } from './browser';
import { e2eSuite } from './suite';

const { app, browser, signUpConfirmed, signIn, dir, newPage } = e2eSuite({ tempDir: 'axel-sender-e2e-', env: { RATE_LIMIT_FACTOR: '10' } });

/** Uploads share two CPU cores with other work: wait as long as a user would. */
const POLL_MS = 20_000;

/** How far the page is wider than the screen (0: nothing scrolls sideways). */
const overflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;

describe("the Secure Fetch sender's page", () => {
  it('says who asks, refuses a file over the limit when it is chosen, counts only what it sends, clears "add a file" once one is added, and lets the sender remove any file (390 px phone)', async () => {
    const shot = stepShots('secure-fetch-sender');
    const owner = await signUpConfirmed();
    const { http } = await signIn(owner.email);
    expect((await http.put(`/api/users/${owner.id}/profile`, { firstName: 'Ana', lastName: 'Lima' })).status).toBe(200);
    const link = await http.post(`/api/users/${owner.id}/secure-fetches/`, { note: 'Please send the scans', includeMetadata: false, certificate: false });
    expect(link.status, JSON.stringify(link.body)).toBe(201);

    const context = await browser().newContext({ locale: 'en-US', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${app().url}/secure-fetch/${link.body.linkId}`);
    await page.getByTestId('fetch-upload-page').waitFor();
    expect(await page.getByTestId('fetch-link-owner').textContent()).toBe('Ana Lima asks you for files');

    // Sending nothing is refused; the problem goes away as soon as a file is added.
    await page.getByTestId('fetch-submit').click();
    expect(await page.getByTestId('fetch-submit-error').getAttribute('data-error-code')).toBe('SECURE_FETCH_NOTHING_UPLOADED');

    const a = Buffer.from('first scan');
    const b = Buffer.from('second scan, longer');
    const big = randomBytes(21 * 1000 * 1000);
    // Files on disk, read by the browser itself as picked files are.
    const files = Object.entries({ 'a.txt': a, 'big.bin': big, 'b.txt': b }).map(([name, bytes]) => {
      writeFileSync(path.join(dir(), name), bytes);
      return path.join(dir(), name);
    });
    await page.getByTestId('fetch-file-input').setInputFiles(files);
    // The file over the limit is refused at once, the limit stated, and never listed for upload or retry.
    await page.getByTestId('fetch-refused').waitFor();
    expect(await page.getByTestId('fetch-refused-file').textContent()).toBe("big.bin (21 MB) is over this link's limit of 10 MiB per file");
    expect(await page.getByTestId('fetch-submit-error').count()).toBe(0);
    const rows = page.getByTestId('fetch-file');
    expect(await rows.evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { name: string } }).dataset.name))).toEqual(['a.txt', 'b.txt']);
    await expect.poll(() => page.locator('[data-testid="fetch-file"][data-status="done"]').count(), { timeout: POLL_MS }).toBe(2);
    expect(await page.getByTestId('fetch-overall').textContent()).toBe('2 of 2 uploaded (100 %)');
    expect(await page.getByTestId('fetch-retry-failed').count()).toBe(0);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'refused-and-uploaded');

    // Any file can be taken off the list, an uploaded one too; the refusal can be dismissed.
    await page.locator('[data-testid="fetch-file"][data-name="b.txt"] [data-testid="fetch-file-remove"]').click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await page.getByTestId('fetch-overall').textContent()).toBe('1 of 1 uploaded (100 %)');
    await page.getByTestId('fetch-refused').getByRole('button', { name: /close/i }).click();
    expect(await page.getByTestId('fetch-refused').count()).toBe(0);

    await page.getByTestId('fetch-submit').click();
    await page.getByTestId('fetch-sent').waitFor({ timeout: POLL_MS });
    await shot(page, 'sent');
    const items = await http.get(`/api/users/${owner.id}/secure-fetches/${link.body.id}/items/`);
    expect(items.body.data.map((i: { name: string; size: number }) => [i.name, i.size])).toEqual([['a.txt', a.length]]);
    await context.close();
  });

  it('names no one it cannot name: an owner without a profile name is "the owner of this link"', async () => {
    const owner = await signUpConfirmed();
    const { http } = await signIn(owner.email);
    const link = await http.post(`/api/users/${owner.id}/secure-fetches/`, { note: 'Scans', includeMetadata: false, certificate: false });
    const page = await newPage();
    await page.goto(`${app().url}/secure-fetch/${link.body.linkId}`);
    await page.getByTestId('fetch-upload-page').waitFor();
    expect(await page.getByTestId('fetch-link-owner').textContent()).toBe('The owner of this link asks you for files');
    expect(await new HttpClient(app().url).get(`/api/secure-fetch-links/${link.body.linkId}`).then((r) => r.body.ownerName)).toBeNull();
    await page.context().close();
  });
});
