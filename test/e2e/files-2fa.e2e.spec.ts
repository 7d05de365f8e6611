import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { FRESH_SECOND_FACTOR_MS } from '../../api/src/modules/files/storage-tasks.routes';
import { onlineStorageId } from '../../api/src/modules/files/storage.service';
import { stepShots } from './browser';
import { e2eSuite } from './suite';

const { app, uniqueEmail, signUpConfirmed, signIn, newPage, submitSignIn } = e2eSuite();

const TUS = { 'tus-resumable': '1.0.0' };
const totpCode = (secret: string) => generate({ secret, epoch: Math.floor(app().clock.now().getTime() / 1000) });

describe('downloading a folder with two-factor sign-in on (code 5102)', () => {
  it('the skip-2FA dialog opens; Cancel shows why and downloads nothing, Continue downloads the zip', async () => {
    const shot = stepShots('web-files-2fa');
    // an account with an authenticator app and a folder holding one file, set up over the API
    const { email, id } = await signUpConfirmed(uniqueEmail('twofactor'));
    const { http } = await signIn(email);
    const setup = await http.post(`/api/users/${id}/two-factor/totp`);
    const secret = setup.body.secret as string;
    expect((await http.post(`/api/users/${id}/two-factor/enable`, { method: 'totp', code: await totpCode(secret) })).status).toBe(200);
    const storageId = onlineStorageId(id);
    const base = `/api/users/${id}/storages/${storageId}`;
    const folder = await http.post(`${base}/items/`, { label: 'folder', name: 'Letters' });
    expect(folder.status).toBe(201);
    const bytes = randomBytes(70_000);
    const created = await http.request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': String(bytes.length),
      'upload-metadata': `storageId ${Buffer.from(storageId).toString('base64')}`,
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect((await http.request('PATCH', location, bytes, { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' })).status).toBe(
      204,
    );
    const file = await http.post(`${base}/folders/${folder.body.id}/items/`, { label: 'file', name: 'to-ada.bin', uploadId: location.split('/').pop() });
    expect(file.status, JSON.stringify(file.body)).toBe(201);

    // signed in in the browser with the next code, then more than five minutes pass
    const page = await newPage({ acceptDownloads: true });
    await submitSignIn(page, email);
    await page.getByTestId('signin-code-step').waitFor();
    app().clock.advance(30_000);
    await page.getByTestId('signin-code').fill(await totpCode(secret));
    await page.getByTestId('signin-code-submit').click();
    await page.waitForURL(/\/welcome/);
    app().clock.advance(FRESH_SECOND_FACTOR_MS + 60_000);

    await page.getByTestId('welcome-files').click();
    await page.waitForURL(/\/files\/storage\/[^/]+$/);
    const row = page.locator('[data-testid="file-row"][data-name="Letters"]');
    await row.getByRole('checkbox').check();

    // Cancel: the task's own message, and no download
    let downloads = 0;
    page.on('download', () => downloads++);
    await page.getByTestId('action-download').click();
    const dialog = page.getByTestId('skip-2fa-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Continue without two-factor verification?');
    await shot(page, 'skip-2fa-dialog');
    await page.getByTestId('skip-2fa-cancel').click();
    const error = page.getByTestId('action-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/two-factor verification/i);
    expect(downloads).toBe(0);

    // Continue: the task runs again with skip2fa and the zip arrives
    await page.getByTestId('action-download').click();
    await dialog.waitFor();
    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('skip-2fa-confirm').click()]);
    const zipPath = await zip.path();
    execFileSync('unzip', ['-tq', zipPath]);
    expect(execFileSync('unzip', ['-p', zipPath, 'Letters/to-ada.bin']).equals(bytes)).toBe(true);
    await shot(page, 'downloaded');

    // the tasks as the server recorded them: one refused with 5102, one done with skip2fa
    const { rows } = await app().app.ctx.pool.query<{ status: string; error_code: string | null }>(
      `select status, error_code from storage_tasks where user_id = $1 and type = 'archive' order by created_at, status desc`,
      [id],
    );
    expect(rows.map((r) => `${r.status}:${r.error_code ?? ''}`)).toEqual(['failed:5102', 'failed:5102', 'done:']);
  });
});
