import { describe, expect, it } from 'vitest';
import { unlockKey as unlocks } from '../../api/src/modules/e2ee/e2ee.testing';
import { stepShots } from './browser';
import { e2eSuite } from './suite';

const { uniqueEmail, signUpConfirmed, signIn, signedInPage } = e2eSuite();

describe('the end-to-end passphrase in the settings', () => {
  it('sets a passphrase (rules first), the server keeps only the locked key; changing it keeps the same key', async () => {
    const shot = stepShots('web-e2ee-passphrase');
    const email = uniqueEmail('passphrase');
    const { id } = await signUpConfirmed(email);
    const { http } = await signIn(email);
    // Professional through the test payment provider's own call
    const bought = await http.post(`/api/users/${id}/products/`, { productId: 200 });
    const sessionId = decodeURIComponent(new URL(bought.body.checkoutLink as string).pathname.slice('/dev/checkout/'.length));
    expect((await http.post(`/api/dev/checkout/${encodeURIComponent(sessionId)}/pay`)).status).toBe(200);

    const page = await signedInPage(email);
    await page.goto(`${new URL(page.url()).origin}/settings?tab=account`);
    const section = page.getByTestId('e2ee-section');
    await section.waitFor();

    // the rules of §5, shown before anything is made
    await page.getByTestId('e2ee-passphrase').fill('short');
    await page.getByTestId('e2ee-confirmation').fill('Short');
    await page.getByTestId('e2ee-submit').click();
    await expect.poll(() => section.innerText()).toContain('At least 8 characters');
    expect(await section.innerText()).toContain('The passphrases do not match');
    expect(await section.innerText()).toContain('A hint is required');
    await shot(page, 'rules');

    await page.getByTestId('e2ee-passphrase').fill('Correct Horse 42');
    await page.getByTestId('e2ee-confirmation').fill('Correct Horse 42');
    await page.getByTestId('e2ee-hint').fill('the horse');
    await page.getByTestId('e2ee-submit').click();
    await page.getByTestId('e2ee-saved').waitFor({ timeout: 60_000 });
    const first = (await http.get(`/api/users/${id}/e2ee/`)).body;
    expect(first).toMatchObject({ passphraseSet: true, e2eePassphraseHint: 'the horse' });
    await expect(unlocks(first.e2eePrivateKey, 'correct horse 42')).rejects.toThrow();
    await unlocks(first.e2eePrivateKey, 'Correct Horse 42');
    await shot(page, 'set');

    // change: a wrong current passphrase is refused in the browser; the right one re-protects the same key
    await page.getByTestId('e2ee-current').fill('Wrong Horse 42');
    await page.getByTestId('e2ee-passphrase').fill('Battery Staple 7');
    await page.getByTestId('e2ee-confirmation').fill('Battery Staple 7');
    await page.getByTestId('e2ee-hint').fill('the battery');
    await page.getByTestId('e2ee-submit').click();
    await expect.poll(() => page.getByTestId('e2ee-error').innerText(), { timeout: 60_000 }).toBe('Incorrect current passphrase');
    await page.getByTestId('e2ee-current').fill('Correct Horse 42');
    await page.getByTestId('e2ee-submit').click();
    await page.getByTestId('e2ee-saved').waitFor({ timeout: 60_000 });
    const second = (await http.get(`/api/users/${id}/e2ee/`)).body;
    expect(second.e2eeKeyFingerprint).toBe(first.e2eeKeyFingerprint);
    expect(second.e2eePassphraseHint).toBe('the battery');
    await unlocks(second.e2eePrivateKey, 'Battery Staple 7');
    await expect(unlocks(second.e2eePrivateKey, 'Correct Horse 42')).rejects.toThrow();

    // the default for new uploads, as the user info says it
    await page.getByTestId('e2ee-default').click();
    await expect.poll(async () => (await http.get(`/api/users/${id}/`)).body.encryptionDefault).toBe(true);
    await shot(page, 'changed');
  });
});
