import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../api/src/testing/harness';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

const ROOT = { email: 'root@axel.test', password: 'Root-pass-123' };
/** Blocks on the development chain come only when the test moves the app's clock this far. */
const BLOCK_SECONDS = 600;

const { app, browser, signUpConfirmed, signIn, PASSWORD, signedInPage, consoleSignIn, newPage } = e2eSuite({
  admin: ROOT,
  // a small genesis treasury: one purchase is delivered from it, the next waits for staff to fill it
  env: { AXEL_DEV_BLOCK_SECONDS: String(BLOCK_SECONDS), RATE_LIMIT_FACTOR: '10', AXEL_DEV_TREASURY_GENESIS: '3' },
});

/** One block: the app's clock moves a block interval on; the miner notices within a second. */
const mineBlock = async (page: Page) => {
  const height = async () => (await page.request.get(`${app().url}/api/wallet/v1/blockchaininfo`)).json().then((b: { blocks: number }) => b.blocks);
  const before = await height();
  app().clock.advance(BLOCK_SECONDS * 1000);
  for (let i = 0; i < 100 && (await height()) <= before; i++) await new Promise((r) => setTimeout(r, 100));
};

/** The specification: the balance is refreshed within 30 s of an action; allow a little for the page. */
const REFRESH_MS = 35_000;

const expectBalance = async (page: Page, confirmed: string, unconfirmed: string) => {
  await expect.poll(() => page.getByTestId('wallet-balance-confirmed').textContent(), { timeout: REFRESH_MS }).toBe(confirmed);
  await expect.poll(() => page.getByTestId('wallet-balance-unconfirmed').textContent(), { timeout: REFRESH_MS }).toBe(unconfirmed);
};

describe('wallet in the browser', () => {
  it('address, test tokens unconfirmed then confirmed, a send that arrives, and a second send refused while unconfirmed', async () => {
    const shot = stepShots('wallet');
    const alice = await signUpConfirmed();
    const bob = await signUpConfirmed();

    // Alice opens the wallet: it asks for an address first, and names the development chain.
    const page = await signedInPage(alice.email);
    await page.goto(`${app().url}/wallet`);
    await page.waitForURL(/\/wallet\/transactions/);
    await page.getByTestId('wallet-nav-overview').click();
    await page.getByTestId('wallet-no-address').waitFor();
    await page.getByTestId('wallet-dev-chain').waitFor();
    await shot(page, 'no-address');
    await page.getByTestId('wallet-create-address').click();
    await page.getByTestId('wallet-address-primary').waitFor();
    await shot(page, 'address-created');

    // Test tokens from the development chain's faucet: unconfirmed until the next block.
    await page.getByTestId('wallet-faucet').click();
    await expectBalance(page, '0', '10');
    await shot(page, 'unconfirmed');
    await mineBlock(page);
    await expectBalance(page, '10', '0');
    await shot(page, 'confirmed');

    // Bob has a wallet; Alice sends to his address, through the form and its confirmation step.
    const { http: bobApi } = await signIn(bob.email);
    const bobAddress = (await bobApi.post('/api/wallet/v1/addresses', {})).body.addresses[0].address as string;
    await page.getByTestId('wallet-nav-send').click();
    await page.getByTestId('send-address').fill('too-short');
    await page.getByTestId('send-amount').fill('0.0001');
    await page.getByTestId('send-submit').click();
    await expect.poll(() => page.getByTestId('send-form').textContent()).toContain('an address is exactly 34 letters or digits');
    expect(await page.getByTestId('send-form').textContent()).toContain('below the minimum transaction amount');
    await shot(page, 'field-errors');
    // More than the wallet holds is refused on the form, before the confirmation step.
    await page.getByTestId('send-address').fill(bobAddress);
    await page.getByTestId('send-amount').fill('1000');
    await page.getByTestId('send-submit').click();
    await expect.poll(() => page.getByTestId('send-form').textContent()).toContain('More than you can send now');
    expect(await page.getByTestId('send-confirm').count()).toBe(0);
    await shot(page, 'above-sendable');
    await page.getByTestId('send-amount').fill('2.5');
    await page.getByTestId('send-note').fill('lunch');
    await page.getByTestId('send-submit').click();
    await page.getByTestId('send-confirm').waitFor();
    await page.getByTestId('send-confirm-button').click();
    await page.getByTestId('send-sent').waitFor();
    await shot(page, 'sent');

    // The header shows the pending send and says sends wait for it; nothing is sendable until then.
    await expect.poll(() => page.getByTestId('wallet-balance-outgoing').textContent(), { timeout: REFRESH_MS }).toBe('2.5');
    expect(await page.getByTestId('wallet-balance-confirmed').textContent()).toBe('7.5');
    expect(await page.getByTestId('wallet-send-blocked').textContent()).toBe(
      'Your send of 2.5 AXEL waits for the next block: you can send again once it is confirmed.',
    );
    await page.getByTestId('send-new').click();
    expect(await page.getByTestId('send-sendable').textContent()).toBe('Confirmed tokens you can send: 0 AXEL');
    await page.getByTestId('send-address').fill(bobAddress);
    await page.getByTestId('send-amount').fill('1');
    await page.getByTestId('send-submit').click();
    await expect.poll(() => page.getByTestId('send-form').textContent()).toContain('More than you can send now');
    await shot(page, 'second-send-blocked');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSideScroll(page);
    await shot(page, 'second-send-blocked-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    // the server refuses it alike, should a stale page try
    const refused = await page.request.post(`${app().url}/api/wallet/v1/send`, {
      data: { address: bobAddress, amount: '1', idempotencyKey: `stale-${Date.now()}` },
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect((await refused.json()).code).toBe('WALLET_UNCONFIRMED');

    // Bob sees the tokens arrive: unconfirmed first, confirmed after the next block.
    const bobPage = await signedInPage(bob.email);
    await bobPage.goto(`${app().url}/wallet/transactions`);
    await expectBalance(bobPage, '0', '2.5');
    await bobPage.getByTestId('transaction-row-unconfirmed').waitFor();
    expect(await bobPage.getByTestId('transaction-row-amount').first().textContent()).toBe('2.5');
    expect(await bobPage.getByTestId('transaction-row-category').first().textContent()).toBe('Received');
    await shot(bobPage, 'bob-unconfirmed');
    await mineBlock(bobPage);
    await expectBalance(bobPage, '2.5', '0');
    await bobPage.getByTestId('transaction-row-confirmed').waitFor({ timeout: REFRESH_MS });
    await bobPage.getByTestId('transaction-row').first().click();
    await bobPage.getByTestId('transaction-details').waitFor();
    expect(await bobPage.getByTestId('transaction-amount').textContent()).toContain('2.5');
    const txid = (await bobPage.getByTestId('transaction-id').textContent()) ?? '';
    await shot(bobPage, 'bob-confirmed');

    // Anyone can look the transaction up: the search page opens the development chain's own explorer page.
    // a reader far from UTC: the explorer writes its times in the reader's own zone
    const visitor = await (await browser().newContext({ locale: 'en-US', timezoneId: 'Asia/Tokyo' })).newPage();
    await visitor.goto(`${app().url}/transaction/search`);
    await visitor.getByTestId('transaction-search-id').fill('short');
    await visitor.getByTestId('transaction-search-submit').click();
    await expect.poll(() => visitor.getByTestId('transaction-search').textContent()).toContain('at least 20 letters or digits');
    await visitor.getByTestId('transaction-search-id').fill(txid);
    await visitor.getByTestId('transaction-search-submit').click();
    await visitor.waitForURL(new RegExp(`/transaction/${txid}$`));
    const explorer = (await visitor.getByTestId('transaction').textContent()) ?? '';
    expect(explorer).toContain(txid);
    expect(explorer).toContain('1 confirmation');
    expect(explorer).toContain('2.5 AXEL');
    const time = visitor.getByTestId('transaction').locator('time').first();
    await expect.poll(() => time.getAttribute('data-local')).toBe('true');
    const at = new Date((await time.getAttribute('datetime')) ?? '');
    expect(await time.innerText()).toBe(new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Tokyo' }).format(at));
    await shot(visitor, 'explorer');
    await visitor.setViewportSize({ width: 390, height: 844 });
    await expectNoSideScroll(visitor);
    await shot(visitor, 'explorer-phone');
    await visitor.context().close();

    // Once confirmed, the notice goes and Alice's send goes through; her list says what each was, in words.
    await expectBalance(page, '7.5', '0');
    await page.getByTestId('wallet-send-blocked').waitFor({ state: 'detached', timeout: REFRESH_MS });
    await page.getByTestId('send-submit').click();
    await page.getByTestId('send-confirm-button').click();
    await page.getByTestId('send-sent').waitFor();
    await shot(page, 'retry-sent');
    await page.getByTestId('wallet-nav-transactions').click();
    await expect.poll(() => page.getByTestId('transaction-row').count(), { timeout: REFRESH_MS }).toBe(3);
    expect(await page.getByTestId('transaction-row-category').allTextContents()).toEqual(['Sent', 'Sent', 'Minted']);
    expect(await page.getByTestId('transaction-row-note').allTextContents()).toEqual(['', 'lunch', 'Test tokens from the development chain']);
    await shot(page, 'transactions-in-words');
    await page.context().close();
    await bobPage.context().close();
  });

  it('replenish: the price first; back from the test checkout the page says what became of the payment (delivered from the genesis treasury; waiting for the treasury until staff fill it, then sent; declined)', async () => {
    const shot = stepShots('wallet-replenish');
    const buyer = await signUpConfirmed();
    const { http } = await signIn(buyer.email);
    expect((await http.post('/api/wallet/v1/addresses', {})).status).toBe(201);

    // a fresh development chain's treasury holds its genesis supply: a purchase is delivered at once
    const page = await signedInPage(buyer.email);
    await page.goto(`${app().url}/wallet/replenish`);
    await page.getByTestId('replenish-amount').fill('2.5');
    expect(await page.getByTestId('replenish-price').textContent()).toBe('2.5 AXEL cost $2.50 (1 AXEL = $1.00)');
    await shot(page, 'price');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSideScroll(page);
    await shot(page, 'price-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('replenish-submit').click();
    await page.waitForURL(/\/dev\/checkout\//);
    expect(await page.getByTestId('amount').innerText()).toContain('2.50');
    await page.getByTestId('pay').click();
    await page.waitForURL(/\/wallet\/replenish\?status=paid/);
    await page.getByTestId('replenish-result-sent').waitFor({ timeout: 20_000 });
    await expectBalance(page, '0', '2.5');
    await shot(page, 'sent-from-genesis');

    // more than the treasury holds confirmed: paid, the tokens wait for it
    await page.goto(`${app().url}/wallet/replenish`);
    await page.getByTestId('replenish-amount').fill('2');
    await page.getByTestId('replenish-submit').click();
    await page.waitForURL(/\/dev\/checkout\//);
    await page.getByTestId('pay').click();
    await page.waitForURL(/\/wallet\/replenish\?status=paid/);
    // the treasury's new tokens are not confirmed yet: the payment is taken, the tokens wait
    await page.getByTestId('replenish-result-waiting').waitFor();
    expect(await page.getByTestId('replenish-result-waiting').textContent()).toContain('will be sent as soon as the treasury can');
    await shot(page, 'waiting');
    // staff see it waiting on the console's wallet dashboard
    const staffPage = await newPage();
    await consoleSignIn(staffPage, ROOT.email, ROOT.password);
    await staffPage.getByTestId('menu-wallet-dashboard').click();
    const waitingRow = staffPage.getByTestId('wallet-dashboard-waiting-row').filter({ hasText: buyer.email });
    await waitingRow.waitFor();
    // why it waits, in words
    expect(await waitingRow.getByTestId('wallet-dashboard-waiting-reason').textContent()).toBe('The treasury does not hold enough confirmed AXEL yet');
    expect(await waitingRow.textContent()).not.toContain('WALLET_INSUFFICIENT_FUNDS');
    await shot(staffPage, 'console-waiting');
    // staff fill the treasury from the dashboard (development chain only); the mint is on the chain with who did it
    await staffPage.getByTestId('wallet-dashboard-fill').click();
    await staffPage.getByText('100 AXEL minted to the treasury').waitFor();
    const { http: rootApi } = await signIn(ROOT.email, ROOT.password);
    await expect.poll(async () => (await rootApi.get('/api/wallet/v1/admin/dashboard/')).body.treasury.unconfirmed).toBe('100');
    await shot(staffPage, 'console-filled');
    await staffPage.setViewportSize({ width: 390, height: 844 });
    await shot(staffPage, 'console-filled-phone');
    await staffPage.context().close();
    // a block confirms the treasury's tokens; the retried send pays, and the page follows without a reload
    await mineBlock(page);
    // a retry that ran just before the block waits its backoff on the app's clock: time keeps passing until one pays
    const sent = page.getByTestId('replenish-result-sent');
    for (let i = 0; i < 20 && !(await sent.isVisible()); i++) {
      await new Promise((r) => setTimeout(r, 1500));
      if (!(await sent.isVisible())) app().clock.advance(60_000);
    }
    await sent.waitFor({ timeout: 20_000 });
    expect(await sent.textContent()).toContain('2 AXEL are on their way');
    await mineBlock(page);
    await expectBalance(page, '4.5', '0');
    await shot(page, 'paid');

    // declined: nothing charged; and an address claiming "paid" for it changes nothing
    await page.getByTestId('replenish-amount').fill('3');
    await page.getByTestId('replenish-submit').click();
    await page.waitForURL(/\/dev\/checkout\//);
    await page.getByTestId('decline').click();
    await page.waitForURL(/\/wallet\/replenish\?status=declined/);
    await page.getByTestId('replenish-result-declined').waitFor();
    expect(await page.getByTestId('replenish-result-declined').textContent()).toContain('nothing was charged');
    await shot(page, 'declined');
    await page.goto(page.url().replace('status=declined', 'status=paid'));
    await page.getByTestId('replenish-result-declined').waitFor();
    await page.context().close();
  });

  it('staff see the chain, the treasury and the masternodes on the console wallet dashboard', async () => {
    const shot = stepShots('wallet-console');
    const page = await newPage();
    await consoleSignIn(page, ROOT.email, ROOT.password);
    await page.getByTestId('menu-wallet-dashboard').click();
    await page.getByTestId('wallet-dashboard-dev').waitFor();
    expect(await page.getByTestId('wallet-dashboard-treasury').textContent()).toMatch(/[A-Za-z0-9]{34}/);
    await page.getByTestId('wallet-dashboard-treasury-chart').locator('rect').first().waitFor();
    expect(Number(await page.getByTestId('walletDashboard-wallets').textContent())).toBeGreaterThan(0);
    await shot(page, 'wallet-dashboard');
    await page.context().close();
  });

  it('contacts: the §5 rules under the fields, add, edit, pick one to send to, delete', async () => {
    const shot = stepShots('wallet-contacts');
    const carol = await signUpConfirmed();
    const dave = await signUpConfirmed();
    const { http: carolApi } = await signIn(carol.email);
    const { http: daveApi } = await signIn(dave.email);
    const carolKey = (await carolApi.post('/api/wallet/v1/addresses', {})).body.addresses[0].address as string;
    const daveKey = (await daveApi.post('/api/wallet/v1/addresses', {})).body.addresses[0].address as string;

    const page = await signedInPage(carol.email);
    await page.goto(`${app().url}/wallet/contacts`);
    await page.getByTestId('contacts-empty').waitFor();
    await page.getByTestId('contacts-add').click();
    await page.getByTestId('contact-save').click();
    const dialogText = () => page.getByTestId('contact-dialog').textContent();
    await expect.poll(dialogText).toContain('This field is required');

    // Not your own e-mail or key; the key is exactly 34 characters.
    await page.getByTestId('contact-nickname').fill('Dave');
    await page.getByTestId('contact-email').fill(carol.email);
    await page.getByTestId('contact-publicKey').fill(carolKey);
    await page.getByTestId('contact-save').click();
    await expect.poll(dialogText).toContain('You cannot add your own e-mail as a contact');
    expect(await dialogText()).toContain('You cannot add your own public key as a contact');
    await page.getByTestId('contact-publicKey').fill('short');
    await page.getByTestId('contact-phone').fill('call me');
    await page.getByTestId('contact-save').click();
    await expect.poll(dialogText).toContain('The public key must be exactly 34 characters');
    expect(await dialogText()).toContain('Enter a valid phone number');
    await shot(page, 'rules');

    await page.getByTestId('contact-email').fill(dave.email);
    await page.getByTestId('contact-publicKey').fill(daveKey);
    await page.getByTestId('contact-phone').fill('+31 20 123 4567');
    await page.getByTestId('contact-save').click();
    await page.getByTestId('contact-row').waitFor();
    expect(await page.getByTestId('contacts-table').textContent()).toContain(daveKey);

    // Edit: the same e-mail stays allowed for the contact being edited.
    await page.getByTestId('contact-edit').click();
    await page.getByTestId('contact-nickname').fill('Dave D.');
    await page.getByTestId('contact-save').click();
    await expect.poll(() => page.getByTestId('contacts-table').textContent()).toContain('Dave D.');
    await shot(page, 'listed');

    // The send form picks the contact's key as the address.
    await page.getByTestId('wallet-nav-send').click();
    await page.getByTestId('send-contact').click();
    await page.getByRole('option', { name: /Dave D\./ }).click();
    expect(await page.getByTestId('send-address').inputValue()).toBe(daveKey);
    await shot(page, 'picked');

    await page.getByTestId('wallet-nav-contacts').click();
    await page.getByTestId('contact-delete').click();
    await page.getByTestId('contact-delete-confirm').click();
    await page.getByTestId('contacts-empty').waitFor();
    expect((await carolApi.get(`/api/users/${carol.id}/contacts/`)).body.total).toBe(0);
    await page.context().close();
  });

  it('auto-pay in the console: CSV import with row errors, submit, a second staff member approves, every payee paid once, export', async () => {
    const shot = stepShots('wallet-autopay');
    const root = new HttpClient(app().url);
    expect((await root.post('/api/sessions/', { email: ROOT.email, password: ROOT.password })).status).toBe(200);
    const treasurer = { email: `treasurer.${Date.now().toString(36)}@example.com`, password: PASSWORD };
    expect((await root.post('/api/admin/users/', { ...treasurer, passwordConfirmation: PASSWORD, role: 'financial_admin' })).status).toBe(201);
    const erin = await signUpConfirmed();
    const frank = await signUpConfirmed();

    // The treasury pays the payouts: fund it on the development chain.
    const wallet = await app().app.wallet.walletOf(app().app.ctx);
    await wallet.chain.faucet!(await wallet.treasury(), 100 * 100_000_000, `treasury-${Date.now()}`);
    const staffPage = async (who: { email: string; password: string }) => {
      const page = await newPage({ acceptDownloads: true });
      await consoleSignIn(page, who.email, who.password);
      return page;
    };
    const page = await staffPage(ROOT);
    await mineBlock(page);

    await page.getByTestId('menu-auto-pay').click();
    await page.getByTestId('autopay-create').click();
    const name = `Bonus ${Date.now().toString(36)}`;
    await page.getByTestId('autopay-name').fill(name);
    await page.getByTestId('autopay-description').fill('Year-end bonus');
    await page.getByRole('button', { name: /save/i }).click();
    await page.getByTestId('autopay-import-dialog').waitFor();

    // A CSV with a bad row: nothing is imported and the row and field are named.
    const file = (csv: string) => ({ name: 'payees.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByTestId('autopay-import-file').setInputFiles(file(`email,amount,payer name\n${erin.email},1.5,AXEL\nnot-an-email,abc,AXEL\n`));
    await page.getByTestId('autopay-import-upload').click();
    await page.getByTestId('autopay-import-errors').waitFor();
    const errors = (await page.getByTestId('autopay-import-errors').textContent()) ?? '';
    expect(errors).toContain('Not a valid e-mail address');
    expect(errors).toContain('Amount (AXEL)');
    await shot(page, 'row-errors');
    await page.getByTestId('autopay-import-again').click();
    await page.getByTestId('autopay-import-file').setInputFiles(file(`email,amount,payer name\n${erin.email},1.5,AXEL\n${frank.email},2,AXEL\n`));
    await page.getByTestId('autopay-import-upload').click();
    await page.getByTestId('autopay-import-dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('autopay-payees').locator('tbody tr').count()).toBe(2);
    await shot(page, 'imported');

    // The submitter cannot approve (four eyes).
    await page.getByTestId('autopay-submit').click();
    await page.getByRole('button', { name: /confirm/i }).click();
    await page.getByTestId('autopay-status-submitted').waitFor();
    expect(await page.getByTestId('autopay-approve').isDisabled()).toBe(true);
    await shot(page, 'submitted');
    const programUrl = page.url();

    const other = await staffPage(treasurer);
    await other.goto(programUrl);
    await other.getByTestId('autopay-approve').click();
    await other.getByRole('button', { name: /confirm/i }).click();
    for (let i = 0; i < 60 && (await other.getByTestId('autopay-status-paid').count()) === 0; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      await other.reload();
    }
    await other.getByTestId('autopay-status-paid').first().waitFor();
    await expect.poll(() => other.getByTestId('autopay-payees').textContent()).toContain('Paid');
    // "Authorised by" names the staff member who approved, not their id
    expect(await other.getByTestId('autopay-authorised-by').first().textContent()).toBe(treasurer.email);
    await shot(other, 'paid');

    // Each payee got their amount once, on an address created for them.
    const { http: erinApi } = await signIn(erin.email);
    const { http: frankApi } = await signIn(frank.email);
    expect((await erinApi.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '1.5' });
    expect((await frankApi.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '2' });

    const download = other.waitForEvent('download');
    await other.getByTestId('autopay-export').click();
    const csv = await (await download).createReadStream().then(async (stream) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    });
    expect(csv).toContain('payoutStatus');
    expect(csv.split('\n').filter((l) => l.includes(',paid,')).length).toBe(2);

    // The AXEL accounts dashboard counts the paid payees and charts the programs by status.
    await other.goto(`${app().url}/admin/axel-accounts`);
    await other.getByTestId('axel-accounts-programsByStatus').locator('rect').first().waitFor();
    expect(Number(await other.getByTestId('axelAccounts-paidPayees').textContent())).toBeGreaterThanOrEqual(2);
    await shot(other, 'axel-accounts');
    await page.context().close();
    await other.context().close();
  });
});
