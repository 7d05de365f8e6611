import { describe, expect, it } from 'vitest';
import { onlineStorageId } from '../../api/src/modules/files/storage.service';
import { stepShots } from './browser';
import { e2eSuite } from './suite';

const { bytes, signUpConfirmed, signIn, uniqueEmail, signedInPage, lastMail, mailCount } = e2eSuite({ memoryBytes: true });

/** The newest verification code mailed to the address, once a new mail has arrived after `before`. */
const nextCode = async (email: string, before: number) => {
  for (let i = 0; i < 200 && (await mailCount(email)) <= before; i++) await new Promise((r) => setTimeout(r, 50));
  return /\b(\d{6})\b/.exec((await lastMail(email, 'Your verification code')).text)![1]!;
};

describe('the two-factor lock in the file browser', () => {
  it('locks a file from its details with a mailed code; opening it then asks for a fresh code, and the code opens it', async () => {
    const shot = stepShots('web-files-lock');
    const email = uniqueEmail('locker');
    const { id } = await signUpConfirmed(email);
    const { http } = await signIn(email);
    const storageId = onlineStorageId(id);
    await http.get(`/api/users/${id}/storages/`);
    const made = await http.post(`/api/users/${id}/storages/${storageId}/items/`, {
      label: 'file',
      name: 'plan.txt',
      uploadId: bytes!.upload(id, storageId, 'the secret plan, in plain text'),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);

    const page = await signedInPage(email);
    await page.goto(`${page.url().replace(/\/welcome.*$/, '')}/files/storage/${storageId}`);
    const row = page.locator('[data-testid="file-row"][data-name="plan.txt"]');
    await row.waitFor();

    // lock it from the details panel with the mailed code (a wrong one first)
    await row.getByRole('checkbox').check();
    await page.getByTestId('action-details').click();
    expect(await page.getByTestId('details-twoFactorLock').innerText()).toBe('Off');
    let before = await mailCount(email);
    await page.getByTestId('details-lock-toggle').click();
    const dialog = page.getByTestId('lock-code-dialog');
    await dialog.waitFor();
    const code = await nextCode(email, before);
    await page.getByTestId('lock-code-input').fill(code === '000000' ? '111111' : '000000');
    await page.getByTestId('lock-code-submit').click();
    await page.getByTestId('lock-code-error').waitFor();
    expect(await page.getByTestId('lock-code-error').innerText()).toBe('Incorrect 2FA code');
    await shot(page, 'wrong-code');
    await page.getByTestId('lock-code-input').fill(code);
    await page.getByTestId('lock-code-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('details-twoFactorLock').innerText()).toBe('On');
    await page.keyboard.press('Escape');
    await page.getByTestId('details-panel').waitFor({ state: 'detached' });

    // opening it asks for a fresh code; with it, the preview shows the text
    before = await mailCount(email);
    await row.getByTestId('file-open').click();
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('"plan.txt" is locked');
    await shot(page, 'asked-to-open');
    await page.getByTestId('lock-code-input').fill(await nextCode(email, before));
    await page.getByTestId('lock-code-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('preview-text').innerText()).toContain('the secret plan');
    await shot(page, 'opened');

    // the server kept the lock, the grant and the opening in the activity log
    const { body } = await http.get(`/api/users/${id}/storages/${storageId}/two-factor-files/?itemId=${made.body.id}`);
    expect(body.data).toEqual([made.body.id]);
  });
});
