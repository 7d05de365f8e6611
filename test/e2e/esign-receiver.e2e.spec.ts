import { storeFile, makePdf } from '../../api/src/testing/files';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

const { app, signedInUser, buyPlan, lastMail, newPage, PASSWORD: ACCOUNT_PASSWORD } = e2eSuite();

const PHONE = { width: 390, height: 844 };
const PASSWORD = 'Sign-here-2026';
const SUBJECT = 'A document is waiting for your signature';

/** A Professional owner's package of a 2-page PDF, sent with a password: Ada signs and dates page 1, Bob signs and initials page 2. */
const sentPackage = async (options: { ordered?: boolean } = {}) => {
  const owner = await signedInUser();
  await buyPlan(owner.http, owner.id, 200);
  const base = `/api/users/${owner.id}/esign/packages`;
  const fileId = await storeFile(owner.http, owner.id, owner.storageId, 'lease.pdf', await makePdf(2));
  const pkg = await owner.http.post(`${base}/`, { name: 'Lease 2026', message: 'Please sign by Friday' });
  expect(pkg.status, JSON.stringify(pkg.body)).toBe(201);
  const p = `${base}/${pkg.body.id}`;
  const entry = await owner.http.post(`${p}/entries/`, { fileId });
  expect(entry.status, JSON.stringify(entry.body)).toBe(201);
  const tag = String(pkg.body.id).slice(0, 8);
  const links: string[] = [];
  const people = [
    { name: 'Ada Signer', email: `ada.${tag}@example.com`, page: 1, kinds: ['signature', 'date'] },
    { name: 'Bob Signer', email: `bob.${tag}@example.com`, page: 2, kinds: ['signature', 'initials'] },
  ];
  for (const [i, person] of people.entries()) {
    const added = await owner.http.post(`${p}/links/`, { name: person.name, email: person.email, color: i + 1, order: options.ordered ? i + 1 : null });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    for (const [k, kind] of person.kinds.entries()) {
      const pin = await owner.http.post(`${p}/pins/`, {
        entryId: entry.body.id,
        signerId: added.body.id,
        kind,
        page: person.page,
        x: 0.1 + k * 0.45,
        y: 0.6,
        width: 0.35,
        height: 0.08,
      });
      expect(pin.status, JSON.stringify(pin.body)).toBe(201);
    }
    links.push(added.body.linkId as string);
  }
  const sent = await owner.http.post(`${p}/send/`, { password: PASSWORD });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return { owner, p, people, links };
};

const signingLink = async (email: string) => {
  const text = (await lastMail(email, SUBJECT)).text;
  return text.match(/https?:\/\/\S+\/esigns\/[A-Za-z0-9_-]{22}/)![0];
};

/** The owner's sealed PDF, as bytes (signed in over plain fetch: the test client reads answers as text). */
const ownerDocument = async (email: string, packagePath: string) => {
  const session = await fetch(`${app().url}/api/sessions/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email, password: ACCOUNT_PASSWORD }),
  });
  expect(session.status).toBe(200);
  const cookie = session.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const res = await fetch(`${app().url}${packagePath}/document`, { headers: { cookie } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  return Buffer.from(await res.arrayBuffer());
};

const pinOf = (page: Page, kind: string) => page.locator(`[data-testid="esign-pin"][data-kind="${kind}"]`);

/** A finger stroke over the drawing pad, as touch events (the pad reads pointer events, so touch and mouse draw alike). */
const drawWithFinger = async (page: Page) => {
  const pad = page.getByTestId('esign-draw-pad');
  const box = (await pad.boundingBox())!;
  const cdp = await page.context().newCDPSession(page);
  const at = (fx: number, fy: number) => [{ x: box.x + box.width * fx, y: box.y + box.height * fy }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0.1, 0.6) });
  for (let i = 1; i <= 12; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(0.1 + i * 0.065, 0.6 - Math.sin(i / 2) * 0.3) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
};

describe('e-sign receiver', () => {
  it('two signers open their mailed links: the password guards them, one signs while the other waits, a drawn signature on a phone and a typed one on desktop; the sealed PDF passes pdfsig', async () => {
    const shot = stepShots('web-esign-receiver');
    const { owner, p, people } = await sentPackage();
    const [ada, bob] = people as [(typeof people)[0], (typeof people)[0]];

    // Ada, on a phone in Spanish: a wrong password is refused with its message, the right one opens the documents
    const phone = await newPage({ viewport: PHONE, hasTouch: true, isMobile: true, locale: 'es-MX' });
    await phone.goto(await signingLink(ada.email));
    await phone.getByTestId('esign-password').fill('not-the-password');
    await phone.getByTestId('esign-password-submit').click();
    await expect.poll(() => phone.getByTestId('esign-password-error').innerText()).toBe('Contraseña incorrecta');
    await phone.getByTestId('esign-password').fill(PASSWORD);
    await phone.getByTestId('esign-password-submit').click();
    await expect.poll(() => pinOf(phone, 'signature').count(), { timeout: 20_000 }).toBe(1);
    expect(await phone.getByTestId('esign-package-name').innerText()).toBe('Lease 2026');
    expect(await phone.getByTestId('esign-message').innerText()).toBe('Please sign by Friday');
    expect(await phone.getByTestId('esign-other-pin').count()).toBe(2);
    expect(await phone.getByTestId('esign-progress').innerText()).toBe('0 de 2 campos completados');
    expect(await phone.getByTestId('esign-finish').isDisabled()).toBe(true);
    await expectNoSideScroll(phone);
    await shot(phone, 'ada-documents-phone');

    // meanwhile Bob, on desktop in Portuguese, is told another user signs
    const desktop = await newPage({ acceptDownloads: true, locale: 'pt-BR' });
    await desktop.goto(await signingLink(bob.email));
    await desktop.getByTestId('esign-password').fill(PASSWORD);
    await desktop.getByTestId('esign-password-submit').click();
    await expect
      .poll(() => desktop.getByTestId('esign-locked').innerText(), { timeout: 15_000 })
      .toContain('Este documento está bloqueado enquanto outro usuário assina');
    await shot(desktop, 'bob-locked');

    // Ada draws her signature with a finger and dates the document
    await pinOf(phone, 'signature').click();
    await phone.getByTestId('esign-mode-drawn').click();
    expect(await phone.getByTestId('esign-adopt').isDisabled()).toBe(true);
    await drawWithFinger(phone);
    await expect.poll(() => phone.getByTestId('esign-adopt').isDisabled()).toBe(false);
    await shot(phone, 'ada-drawn');
    await phone.getByTestId('esign-adopt').click();
    await expect.poll(() => pinOf(phone, 'signature').getAttribute('data-filled')).toBe('true');
    expect(await pinOf(phone, 'signature').locator('img').count()).toBe(1);
    await pinOf(phone, 'date').click();
    expect(await pinOf(phone, 'date').innerText()).toBe(new Date().toISOString().slice(0, 10));
    expect(await phone.getByTestId('esign-progress').innerText()).toBe('2 de 2 campos completados');
    await phone.getByTestId('esign-finish').click();
    await expect.poll(() => phone.getByTestId('esign-done').getAttribute('data-ready'), { timeout: 20_000 }).toBe('false');
    expect(await phone.getByTestId('esign-done-pending').innerText()).toContain('El documento sellado estará listo');
    await expectNoSideScroll(phone);
    await shot(phone, 'ada-done-phone');

    // the documents are free: Bob is let in and types his signature
    await desktop.getByTestId('esign-locked').getByRole('button').click();
    await expect.poll(() => pinOf(desktop, 'signature').count(), { timeout: 20_000 }).toBe(1);
    expect(await pinOf(desktop, 'signature').innerText()).toBe('Assine aqui');
    await pinOf(desktop, 'signature').click();
    expect(await desktop.getByTestId('esign-typed-input').inputValue()).toBe('Bob Signer');
    await desktop.getByTestId('esign-typed-input').fill('Bob T. Signer');
    expect(await desktop.getByTestId('esign-typed-preview').innerText()).toBe('Bob T. Signer');
    await desktop.getByTestId('esign-adopt').click();
    await expect.poll(() => pinOf(desktop, 'signature').innerText()).toBe('Bob T. Signer');
    await pinOf(desktop, 'initials').click();
    expect(await pinOf(desktop, 'initials').innerText()).toBe('BTS');
    await shot(desktop, 'bob-typed');
    await desktop.getByTestId('esign-finish').click();
    await expect.poll(() => desktop.getByTestId('esign-done').getAttribute('data-ready'), { timeout: 30_000 }).toBe('true');

    // the last signer downloads the sealed document from the done page
    const [download] = await Promise.all([desktop.waitForEvent('download'), desktop.getByTestId('esign-download').click()]);
    expect(download.suggestedFilename()).toBe('Lease 2026 (signed).pdf');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'esign-receiver-'));
    const fromPage = path.join(dir, 'from-page.pdf');
    await download.saveAs(fromPage);
    await shot(desktop, 'bob-done');

    // the owner downloads the same sealed PDF; poppler's pdfsig says its seal holds over the whole file
    const ownerFile = path.join(dir, 'owner.pdf');
    writeFileSync(ownerFile, await ownerDocument(owner.email, p));
    expect(readFileSync(ownerFile).equals(readFileSync(fromPage))).toBe(true);
    const sig = execFileSync('pdfsig', [ownerFile], { encoding: 'utf8' });
    expect(sig).toContain('Signature is Valid');
    expect(sig).toContain('Total document signed');
    const page2 = execFileSync('pdftotext', ['-f', '2', '-l', '2', ownerFile, '-'], { encoding: 'utf8' });
    expect(page2).toContain('Bob T. Signer');
    const certificate = execFileSync('pdftotext', ['-f', '3', '-l', '3', ownerFile, '-'], { encoding: 'utf8' });
    expect(certificate).toContain(ada.email);
    expect(certificate).toContain(bob.email);

    // Ada's link now shows the already-signed state with the download
    await phone.reload();
    await expect.poll(() => phone.getByTestId('esign-done').getAttribute('data-ready'), { timeout: 15_000 }).toBe('true');
  });

  it('with a signing order the second signer is told to wait, and signs once the first has finished; a finished signer sees the already-signed state', async () => {
    const { people, links } = await sentPackage({ ordered: true });
    const [, bob] = people as [(typeof people)[0], (typeof people)[0]];
    const page = await newPage();
    await page.goto(`${app().url}/esigns/${links[1]}`);
    await page.getByTestId('esign-password').fill(PASSWORD);
    await page.getByTestId('esign-password-submit').click();
    await expect
      .poll(() => page.getByTestId('esign-waiting').innerText(), { timeout: 15_000 })
      .toContain('Another signer signs before you. You will get an e-mail when it is your turn.');

    // the first signer signs and finishes over the API; the second gets the mail and, checking again, the documents
    const ada = { authorization: `Password ${PASSWORD}`, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
    const call = (path: string, body?: unknown) =>
      fetch(`${app().url}/api/esign-package-links/${links[0]}/${path}`, { method: 'POST', headers: ada, body: JSON.stringify(body ?? {}) });
    expect((await call('sign/', { signature: { type: 'typed', text: 'Ada Signer' } })).status).toBe(200);
    expect((await call('finish/')).status).toBe(200);
    expect(await signingLink(bob.email)).toContain(`/esigns/${links[1]}`);
    await page.getByTestId('esign-waiting').getByRole('button').click();
    await expect.poll(() => pinOf(page, 'signature').count(), { timeout: 20_000 }).toBe(1);
    // the first signer's fields show as signed, in their colour
    expect(await page.locator('[data-testid="esign-other-pin"][data-filled="true"]').count()).toBe(2);

    // the first signer's link opened again: already signed, the sealed document not ready yet; the password is asked once per tab
    const first = await newPage();
    await first.goto(`${app().url}/receiver/signing/${links[0]}`);
    await first.getByTestId('esign-password').fill(PASSWORD);
    await first.getByTestId('esign-password-submit').click();
    await expect.poll(() => first.getByTestId('esign-done').getAttribute('data-ready'), { timeout: 15_000 }).toBe('false');
    await first.reload();
    await expect.poll(() => first.getByTestId('esign-done').getAttribute('data-ready'), { timeout: 15_000 }).toBe('false');
    expect(await first.getByTestId('esign-password').count()).toBe(0);
  });
});
