import { describe, expect, it } from 'vitest';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

const { app, uniqueEmail, signUpConfirmed, webSignIn: signIn, newPage } = e2eSuite();

describe('upload and share', () => {
  it('refuses an empty cart, uploads two files into its folder, shares them as one link a visitor opens; leaving during an upload asks first', async () => {
    const shot = stepShots('web-upload-cart');
    const { email } = await signUpConfirmed(uniqueEmail('cart'));
    const page = await newPage();
    await signIn(page, email);
    await page.goto(`${app().url}/files/storage`);
    await page.getByTestId('empty-folder').waitFor();
    await page.getByTestId('open-upload-cart').click();
    await page.getByTestId('upload-cart-dialog').waitFor();
    await expect.poll(() => page.getByTestId('cart-cost').innerText()).toContain('0 files');

    // An empty cart is refused with the spec's message.
    await page.getByTestId('cart-title').fill('Holiday pictures');
    await page.getByTestId('cart-share').click();
    await expect.poll(() => page.getByTestId('cart-error').innerText()).toBe('The cart is empty');

    // Two files upload into the storage; each joins the cart when done.
    await page.getByTestId('cart-file-input').setInputFiles([
      { name: 'beach.txt', mimeType: 'text/plain', buffer: Buffer.from('sand and sea\n') },
      { name: 'hills.txt', mimeType: 'text/plain', buffer: Buffer.from('green hills, long walks\n') },
    ]);
    await expect.poll(() => page.getByTestId('cart-entry').count(), { timeout: 30_000 }).toBe(2);
    expect(await page.getByTestId('cart-folder').getAttribute('data-name')).toMatch(/^Shared \d{4}-\d{2}-\d{2} \d{2}h\d{2}$/);
    await expect.poll(() => page.getByTestId('cart-cost').innerText()).toBe('2 files, 37 B. 5 of 5 shares left this month.');
    // a plan with a share limit: the way to more shares, as the share dialog has it
    expect(await page.getByTestId('cart-upgrade').innerText()).toBe('Upgrade for more shares');
    expect(await page.getByTestId('cart-upgrade').getAttribute('href')).toBe('/storages/plans');
    await shot(page, 'cart');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSideScroll(page);
    await shot(page, 'cart-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('cart-share').click();
    await page.getByTestId('cart-shared').waitFor();
    const link = await page.getByTestId('cart-share-link').inputValue();
    expect(link).toMatch(/\/shares\/[A-Za-z0-9_-]{22}$/);
    await shot(page, 'shared');
    await page.getByTestId('cart-done').click();
    // the files are in the storage too, in the cart's own folder
    const folder = page.locator('[data-testid="file-row"][data-name^="Shared "]');
    await folder.getByTestId('file-open').click();
    await page.locator('[data-testid="file-row"][data-name="beach.txt"]').waitFor();

    // A visitor opens the link and sees both files.
    const visitor = await newPage();
    await visitor.goto(link.replace(/^https?:\/\/[^/]+/, app().url));
    await visitor.locator('[data-testid="file-row"][data-name="hills.txt"]').waitFor();
    expect(await visitor.locator('[data-testid="file-row"][data-name="beach.txt"]').count()).toBe(1);
    await visitor.context().close();

    // Leaving while an upload runs asks first (the upload held back so it is still running).
    const leaving = await page.context().newPage();
    await leaving.route('**/api/uploads/**', async (route) => {
      await new Promise((r) => setTimeout(r, 5_000));
      await route.continue().catch(() => undefined);
    });
    await leaving.goto(`${app().url}/files/storage`);
    await leaving.getByTestId('open-upload-cart').click();
    await leaving.getByTestId('cart-file-input').setInputFiles([{ name: 'slow.txt', mimeType: 'text/plain', buffer: Buffer.from('slow\n') }]);
    await leaving.getByTestId('cart-upload').first().waitFor();
    const asked = leaving.waitForEvent('dialog');
    await leaving.close({ runBeforeUnload: true });
    const dialog = await asked;
    expect(dialog.type()).toBe('beforeunload');
    await dialog.accept();
    await page.context().close();
  });
});
