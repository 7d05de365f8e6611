import { makePdf, storeFile } from '../../api/src/testing/files';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

const {
  app,
  dir,
  uniqueEmail,
  buyPlan,
  signUpConfirmed,
  signedInUser,
  signIn: apiSignIn,
  lastMail,
  linkIn,
  newPage,
  webSignIn,
} = e2eSuite({ tempDir: 'axel-esign-e2e-' });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** The Professional plan: eSign is on it. */
const PROFESSIONAL = 200;

/** Clicks a page of the board at fractions of its width and height. */
const clickPage = async (page: Page, pageNumber: number, fx: number, fy: number) => {
  const target = page.locator(`[data-testid="esign-page"][data-page="${pageNumber}"]`);
  await target.locator('canvas').waitFor();
  const box = (await target.boundingBox())!;
  await target.click({ position: { x: box.width * fx, y: box.height * fy } });
};

const pinOf = (page: Page, email: string) => page.locator(`[data-testid="esign-pin"][data-signer="${email}"]`);

const setLocale = async (email: string, id: string, locale: string) => {
  const res = await (await apiSignIn(email)).http.request('PUT', `/api/users/${id}/account`, { locale });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

describe('e-sign, the owner side', () => {
  it('a Professional user uploads a PDF, adds two signers, places and moves fields on the page, sends; the package awaits signatures and the signers are mailed (desktop and 390 px phone)', async () => {
    const shot = stepShots('web-esign-owner');
    const owner = await signUpConfirmed(uniqueEmail('esign-owner'));
    const ownerApi = (await apiSignIn(owner.email)).http;
    await buyPlan(ownerApi, owner.id, PROFESSIONAL);
    const stamp = owner.id.slice(0, 8);
    const ada = `ada.${stamp}@example.com`;
    const bob = `bob.${stamp}@example.com`;
    const lease = path.join(dir(), 'lease.pdf');
    writeFileSync(lease, await makePdf(2));
    const notes = path.join(dir(), 'notes.txt');
    writeFileSync(notes, 'not a pdf');

    const page = await newPage({ viewport: DESKTOP });
    await webSignIn(page, owner.email);
    await page.getByTestId('nav-esign').click();
    await page.waitForURL(/\/esigns\/list/);
    await page.getByTestId('esign-empty').waitFor();

    // step 1: the name rule and PDF-only are said under the fields, before anything is sent
    await page.getByTestId('esign-new').click();
    await page.waitForURL(/\/esigns\/package\/upload/);
    await page.getByTestId('esign-name').fill('Lease <2026>');
    await page.getByTestId('esign-file-input').setInputFiles(notes);
    expect(await page.getByTestId('esign-not-pdf').innerText()).toContain('Only PDF files can be signed');
    await page.getByTestId('esign-next').click();
    await expect.poll(() => page.getByText('The package name must not contain special characters').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('esign-no-documents').innerText()).toContain('Add at least one PDF');
    expect((await ownerApi.get(`/api/users/${owner.id}/esign/packages/?status=draft`)).body.totalCount).toBe(0);

    await page.getByTestId('esign-name').fill('Lease 2026');
    await page.getByTestId('esign-message').fill('Please sign by Friday');
    await page.getByTestId('esign-password').fill('Sign-here-2026');
    await page.getByTestId('esign-file-input').setInputFiles(lease);
    await page.locator('[data-testid="esign-doc"][data-name="lease.pdf"]').waitFor();
    await shot(page, 'step1');
    await page.getByTestId('esign-next').click();
    await page.waitForURL(/\/esigns\/package\/prepare\?id=/, { timeout: 20_000 });
    const packageId = new URL(page.url()).searchParams.get('id')!;

    // step 2: two signers (the same e-mail twice is refused), each a colour of their own
    const addSigner = async (name: string, email: string) => {
      await page.getByTestId('esign-signer-name').fill(name);
      await page.getByTestId('esign-signer-email').fill(email);
      await page.getByTestId('esign-signer-add').click();
    };
    await addSigner('Ada Signer', ada);
    await page.locator(`[data-testid="esign-signer"][data-email="${ada}"]`).waitFor();
    await addSigner('Ada again', ada.toUpperCase());
    await expect.poll(() => page.getByText('Signer e-mails must be unique in a package').count()).toBeGreaterThan(0);
    await addSigner('Bob Signer', bob);
    await page.locator(`[data-testid="esign-signer"][data-email="${bob}"]`).waitFor();
    expect(await page.getByTestId('esign-next').isDisabled()).toBe(true);

    // the last signer added is the one fields are placed for: Bob's signature on page 1
    await clickPage(page, 1, 0.5, 0.5);
    await pinOf(page, bob).waitFor();
    expect(await pinOf(page, bob).getAttribute('data-kind')).toBe('signature');
    // then Ada's, chosen in the list
    await page.getByRole('combobox', { name: 'Field for' }).click();
    await page.locator(`[data-testid="esign-place-signer-option"][data-email="${ada}"]`).click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await clickPage(page, 2, 0.3, 0.8);
    await pinOf(page, ada).waitFor({ timeout: 10_000 });

    // Bob's field dragged down and right: stored anew further along the page
    const before = Number(await pinOf(page, bob).getAttribute('data-x'));
    await pinOf(page, bob).scrollIntoViewIfNeeded();
    const pinBox = (await pinOf(page, bob).boundingBox())!;
    await page.mouse.move(pinBox.x + 20, pinBox.y + pinBox.height / 2);
    await page.mouse.down();
    await page.mouse.move(pinBox.x + 60, pinBox.y + pinBox.height / 2 + 40, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => Number(await pinOf(page, bob).getAttribute('data-x')), { timeout: 10_000 }).toBeGreaterThan(before + 0.02);
    expect(await pinOf(page, bob).count()).toBe(1);
    await shot(page, 'step2');

    // on a phone step 2 fits the screen, and a tap places a field
    await page.setViewportSize(PHONE);
    await expectNoSideScroll(page);
    await page.getByTestId('esign-kind-date').click();
    await clickPage(page, 1, 0.7, 0.2);
    await expect.poll(() => pinOf(page, ada).count()).toBe(2);
    await expectNoSideScroll(page);
    await shot(page, 'step2-phone');
    await page.setViewportSize(DESKTOP);

    // the fields reached the API as fractions of the page, tied to their signers
    const stored = (await ownerApi.get(`/api/users/${owner.id}/esign/packages/${packageId}`)).body;
    expect(stored.pins).toHaveLength(3);
    const signerIds = Object.fromEntries(stored.links.map((s: { id: string; email: string }) => [s.email, s.id]));
    const bobPin = stored.pins.find((p: { signerId: string }) => p.signerId === signerIds[bob]);
    expect(bobPin).toMatchObject({ kind: 'signature', page: 1 });
    expect(bobPin.x).toBeGreaterThan(0.36);
    expect(bobPin.y).toBeGreaterThan(0.47);
    for (const p of stored.pins) for (const v of [p.x, p.y, p.x + p.width, p.y + p.height]) expect(v).toBeLessThanOrEqual(1);
    expect(stored.links.map((s: { color: number }) => s.color).sort()).toEqual([1, 2]);

    // step 3: review, send, confirm
    await page.getByTestId('esign-next').click();
    await page.waitForURL(/\/esigns\/package\/preview\?id=/);
    await expect.poll(() => page.locator('[data-testid="esign-summary-signer"]').count()).toBe(2);
    await shot(page, 'step3');
    await page.getByTestId('esign-send').click();
    await page.getByTestId('esign-send-confirm').click();
    await page.getByTestId('esign-sent').waitFor({ timeout: 20_000 });
    // the owner chose the password: none is made and shown
    expect(await page.getByTestId('esign-made-password').count()).toBe(0);

    const mail = await lastMail(ada, 'A document is waiting for your signature');
    expect(mail.text).toContain('Lease 2026');
    expect(mail.text).toContain('/esigns/');
    await lastMail(bob, 'A document is waiting for your signature');

    await page.getByTestId('esign-to-list').click();
    await page.waitForURL(/\/esigns\/list/);
    const row = page.locator('[data-testid="esign-row"][data-name="Lease 2026"]');
    await expect.poll(() => row.getAttribute('data-status')).toBe('awaiting_signatures');
    expect(await row.getByTestId('esign-status').innerText()).toBe('Awaiting signatures');
    expect(await row.getByTestId('esign-progress').innerText()).toContain('0 of 2 signed');
    await shot(page, 'list');

    await page.setViewportSize(PHONE);
    await expectNoSideScroll(page);
    await shot(page, 'list-phone');

    // archived, it moves to the archive and back
    await row.getByTestId('esign-archive').click();
    await page.getByTestId('esign-empty').waitFor();
    await page.getByTestId('esign-tab-archive').click();
    await row.getByTestId('esign-unarchive').click();
    await page.getByTestId('esign-empty').waitFor();
    await page.getByTestId('esign-tab-list').click();
    await expect.poll(() => row.getAttribute('data-status')).toBe('awaiting_signatures');

    // in Portuguese
    await setLocale(owner.email, owner.id, 'pt_br');
    await page.reload();
    await expect.poll(() => row.getByTestId('esign-status').innerText()).toBe('Aguardando assinaturas');
  });

  it('a PDF picked from storage, a password the server makes shown once; once signed the package is completed, its fields read-only and its sealed PDF downloaded', async () => {
    const shot = stepShots('web-esign-owner-completed');
    const owner = await signedInUser(uniqueEmail('esign-complete'));
    await buyPlan(owner.http, owner.id, PROFESSIONAL);
    await storeFile(owner.http, owner.id, owner.storageId, 'contract.pdf', await makePdf(1));
    await storeFile(owner.http, owner.id, owner.storageId, 'notes.txt', Buffer.from('not a pdf'));
    const signer = `carol.${owner.id.slice(0, 8)}@example.com`;

    const page = await newPage({ viewport: DESKTOP });
    await webSignIn(page, owner.email);
    await page.goto(`${app().url}/esigns/package/upload`);
    await page.getByTestId('esign-name').fill('Contract 2026');
    await page.getByTestId('esign-upload-storage').click();
    const offered = page.locator('[data-testid="esign-picker-item"]');
    await offered.first().waitFor();
    // only PDFs are offered
    expect(await offered.count()).toBe(1);
    expect(await offered.first().getAttribute('data-name')).toBe('contract.pdf');
    await offered.first().click();
    await page.locator('[data-testid="esign-doc"][data-name="contract.pdf"]').waitFor();
    await page.getByTestId('esign-next').click();
    await page.waitForURL(/\/esigns\/package\/prepare\?id=/, { timeout: 20_000 });
    await page.getByTestId('esign-signer-name').fill('Carol Signer');
    await page.getByTestId('esign-signer-email').fill(signer);
    await page.getByTestId('esign-signer-add').click();
    await page.locator(`[data-testid="esign-signer"][data-email="${signer}"]`).waitFor();
    await clickPage(page, 1, 0.4, 0.6);
    await pinOf(page, signer).waitFor();
    await page.getByTestId('esign-next').click();
    await page.getByTestId('esign-send').click();
    await page.getByTestId('esign-send-confirm').click();
    const made = page.getByTestId('esign-made-password');
    await made.waitFor({ timeout: 20_000 });
    const password = await made.inputValue();
    expect(password.length).toBeGreaterThanOrEqual(8);
    await shot(page, 'sent-with-made-password');

    // the signer signs with the link of the mail and the password the owner passed on
    const linkId = linkIn((await lastMail(signer, 'A document is waiting for your signature')).text, '/esigns/');
    const auth = { authorization: `Password ${password}` };
    const base = `/api/esign-package-links/${linkId}`;
    const signerHttp = (await apiSignIn(owner.email)).http;
    expect((await signerHttp.request('GET', `${base}/entries/`, undefined, auth)).status).toBe(200);
    expect((await signerHttp.request('POST', `${base}/sign/`, { signature: { type: 'typed', text: 'Carol Signer' } }, auth)).status).toBe(200);
    expect((await signerHttp.request('POST', `${base}/finish/`, undefined, auth)).status).toBe(200);

    await page.getByTestId('esign-to-list').click();
    const row = page.locator('[data-testid="esign-row"][data-name="Contract 2026"]');
    await expect.poll(() => row.getAttribute('data-status')).toBe('completed');
    expect(await row.getByTestId('esign-status').innerText()).toBe('Completed');
    expect(await row.getByTestId('esign-progress').innerText()).toContain('1 of 1 signed');
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('esign-download').click()]);
    expect(download.suggestedFilename()).toBe('Contract 2026 (signed).pdf');
    const saved = path.join(dir(), 'signed.pdf');
    await download.saveAs(saved);
    expect(readFileSync(saved).subarray(0, 5).toString()).toBe('%PDF-');
    await shot(page, 'completed');

    // opened: the signer has signed; the fields are shown and cannot be changed
    await row.getByTestId('esign-view').click();
    await page.waitForURL(/\/esigns\/view\/1\//);
    await expect.poll(() => page.locator(`[data-testid="esign-summary-signer"][data-email="${signer}"]`).getAttribute('data-state')).toBe('finished');
    await page.getByTestId('esign-view-fields').click();
    await page.waitForURL(/\/esigns\/view\/2\//);
    await pinOf(page, signer).waitFor();
    expect(await page.getByTestId('esign-pin-remove').count()).toBe(0);
    expect(await page.getByTestId('esign-tools').count()).toBe(0);
  });

  it('a draft is deleted from the drafts after a confirmation', async () => {
    const owner = await signUpConfirmed(uniqueEmail('esign-drafts'));
    const http = (await apiSignIn(owner.email)).http;
    await buyPlan(http, owner.id, PROFESSIONAL);
    expect((await http.post(`/api/users/${owner.id}/esign/packages/`, { name: 'Old draft' })).status).toBe(201);
    const page = await newPage({ viewport: PHONE });
    await webSignIn(page, owner.email);
    await page.goto(`${app().url}/esigns/drafts`);
    const row = page.locator('[data-testid="esign-row"][data-name="Old draft"]');
    await row.getByTestId('esign-delete').click();
    await page.getByTestId('esign-delete-dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await row.count()).toBe(1);
    await row.getByTestId('esign-delete').click();
    await page.getByTestId('esign-delete-confirm').click();
    await page.getByTestId('esign-empty').waitFor();
    expect((await http.get(`/api/users/${owner.id}/esign/packages/?status=draft`)).body.totalCount).toBe(0);
  });

  it('a Basic user has no E-sign entry, and the address tells them the plan message with a way to the plans (en, es, pt)', async () => {
    const basic = await signUpConfirmed(uniqueEmail('esign-basic'));
    const page = await newPage();
    await webSignIn(page, basic.email);
    expect(await page.getByTestId('nav-esign').count()).toBe(0);
    await page.goto(`${app().url}/esigns/list`);
    expect(await page.getByTestId('esign-plan-required').innerText()).toContain('eSign is available only on the Professional, Team and Enterprise plans');
    expect(await page.getByTestId('esign-list').count()).toBe(0);

    await setLocale(basic.email, basic.id, 'es_mx');
    await page.reload();
    await expect
      .poll(() => page.getByTestId('esign-plan-required').innerText())
      .toContain('La firma electrónica solo está disponible en los planes Professional, Team y Enterprise');
    await setLocale(basic.email, basic.id, 'pt_br');
    await page.reload();
    await expect.poll(() => page.getByTestId('esign-plan-required').innerText()).toContain('A assinatura eletrônica está disponível somente');

    await page.getByTestId('esign-see-plans').click();
    await page.waitForURL(/\/storages\/plans/);
  });
});
