import { storeFile, makePdf } from '../../testing/files';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, useTestApp } from '../../testing/harness';

/* Packages from the owner's side to sealed PDFs, over real HTTP, the real byte pipeline and PostgreSQL. */

const t = useTestApp({ env: { RATE_LIMIT_FACTOR: '20' } });
const { signedInUser, lastMail, linkIn } = accountHelpers(t);
const PASSWORD = 'Sign-here-2026';
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A Professional user (eSign is on that plan), through the test payment provider's checkout. */
const professional = async () => {
  const user = await signedInUser();
  const bought = await user.http.post(`/api/users/${user.id}/products/`, { productId: 200 });
  expect(bought.status, JSON.stringify(bought.body)).toBe(201);
  const sessionId = decodeURIComponent(new URL(bought.body.checkoutLink as string).pathname.slice('/dev/checkout/'.length));
  expect((await user.http.post(`/api/dev/checkout/${encodeURIComponent(sessionId)}/pay`)).status).toBe(200);
  return user;
};

const receiver = (linkId: string, password = PASSWORD, agent = 'signer-browser') => {
  const http = new HttpClient(t().url, agent);
  const auth = { authorization: `Password ${password}` };
  const base = `/api/esign-package-links/${linkId}`;
  return {
    view: () => http.request('GET', `${base}/`, undefined, auth),
    entries: () => http.request('GET', `${base}/entries/`, undefined, auth),
    lock: () => http.request('POST', `${base}/lock/`, undefined, auth),
    sign: (signature: unknown) => http.request('POST', `${base}/sign/`, { signature }, auth),
    finish: () => http.request('POST', `${base}/finish/`, undefined, auth),
    document: () => fetch(`${t().url}${base}/document`, { headers: auth }),
  };
};

/** A sent package of a 3-page PDF with two signers (the second in `order` 2 when ordered), one signature field each. */
const sentPackage = async (options: { ordered?: boolean } = {}) => {
  const owner = await professional();
  const base = `/api/users/${owner.id}/esign/packages`;
  const fileId = await storeFile(owner.http, owner.id, owner.storageId, 'lease.pdf', await makePdf(3));
  const pkg = await owner.http.post(`${base}/`, { name: 'Lease 2026', message: 'Please sign by Friday' });
  expect(pkg.status, JSON.stringify(pkg.body)).toBe(201);
  const p = `${base}/${pkg.body.id}`;
  const entry = await owner.http.post(`${p}/entries/`, { fileId });
  expect(entry.status, JSON.stringify(entry.body)).toBe(201);
  const emails = [`ada.${pkg.body.id.slice(0, 8)}@example.com`, `bob.${pkg.body.id.slice(0, 8)}@example.com`];
  const signers = [];
  for (const [i, email] of emails.entries()) {
    const added = await owner.http.post(`${p}/links/`, { name: i ? 'Bob Signer' : 'Ada Signer', email, color: i + 1, order: options.ordered ? i + 1 : null });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    signers.push(added.body);
    const pin = await owner.http.post(`${p}/pins/`, {
      entryId: entry.body.id,
      signerId: added.body.id,
      kind: 'signature',
      page: i + 1,
      x: 0.1,
      y: 0.7,
      width: 0.3,
      height: 0.06,
    });
    expect(pin.status, JSON.stringify(pin.body)).toBe(201);
  }
  const dated = await owner.http.post(`${p}/pins/`, {
    entryId: entry.body.id,
    signerId: signers[1].id,
    kind: 'date',
    page: 3,
    x: 0.5,
    y: 0.8,
    width: 0.2,
    height: 0.04,
  });
  expect(dated.status).toBe(201);
  const sent = await owner.http.post(`${p}/send/`, { password: PASSWORD });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  expect(sent.body).toMatchObject({ status: 'awaiting_signatures' });
  expect(sent.body.password).toBeUndefined();
  return { owner, base, p, packageId: pkg.body.id as string, entry: entry.body, signers, emails };
};

describe('e-sign packages (owner)', () => {
  it('a Basic user gets the plan error', async () => {
    const basic = await signedInUser();
    const res = await basic.http.post(`/api/users/${basic.id}/esign/packages/`, { name: 'Lease' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'ESIGN_PLAN_REQUIRED', message: 'eSign is available only on the Professional, Team and Enterprise plans', data: null });
  });

  it("drafts a package: PDFs only, a name without special characters, unique signer e-mails, colors 1 to 10; lists by status; another user's is not found", async () => {
    const owner = await professional();
    const base = `/api/users/${owner.id}/esign/packages`;
    expect((await owner.http.post(`${base}/`, { name: 'Lease <2026>' })).body).toMatchObject({ code: 'ESIGN_INVALID_NAME' });
    const pkg = await owner.http.post(`${base}/`, { name: 'Lease 2026' });
    expect(pkg.status).toBe(201);
    expect(pkg.body).toMatchObject({ id: expect.any(String), status: 'draft' });
    const p = `${base}/${pkg.body.id}`;

    const textId = await storeFile(owner.http, owner.id, owner.storageId, 'notes.txt', Buffer.from('not a pdf'));
    const notPdf = await owner.http.post(`${p}/entries/`, { fileId: textId });
    expect(notPdf.status).toBe(400);
    expect(notPdf.body).toMatchObject({ code: 'ESIGN_PDF_ONLY', message: 'Only PDF files can be signed' });
    const fileId = await storeFile(owner.http, owner.id, owner.storageId, 'lease.pdf', await makePdf(2));
    const entry = await owner.http.post(`${p}/entries/`, { fileId });
    expect(entry.body).toMatchObject({ fileId, name: 'lease.pdf', pageCount: 2 });

    const signer = await owner.http.post(`${p}/links/`, { name: 'Ada', email: 'ada@example.com', color: 3 });
    expect(signer.status).toBe(201);
    expect(signer.body.linkId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const twice = await owner.http.post(`${p}/links/`, { name: 'Ada again', email: 'ADA@example.com', color: 4 });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'ESIGN_SIGNER_EMAIL_EXISTS', message: 'Signer e-mails must be unique in a package' });
    expect((await owner.http.post(`${p}/links/`, { name: 'Bob', email: 'bob@example.com', color: 11 })).body).toMatchObject({ code: 'ESIGN_INVALID_COLOR' });
    const offPage = await owner.http.post(`${p}/pins/`, {
      entryId: entry.body.id,
      signerId: signer.body.id,
      kind: 'initials',
      page: 3,
      x: 0,
      y: 0,
      width: 0.1,
      height: 0.1,
    });
    expect(offPage.body).toMatchObject({ code: 'ESIGN_INVALID_PIN', data: { pageCount: 2 } });
    expect((await owner.http.post(`${p}/send/`, {})).body).toMatchObject({ code: 'ESIGN_INCOMPLETE' });
    const pin = await owner.http.post(`${p}/pins/`, {
      entryId: entry.body.id,
      signerId: signer.body.id,
      kind: 'initials',
      page: 2,
      x: 0.5,
      y: 0.5,
      width: 0.1,
      height: 0.1,
    });
    expect(pin.body).toMatchObject({ kind: 'initials', page: 2, filled: false });

    const detail = await owner.http.get(`${p}`);
    expect(detail.body).toMatchObject({
      status: 'draft',
      entries: [{ id: entry.body.id }],
      links: [{ id: signer.body.id, color: 3 }],
      pins: [{ id: pin.body.id }],
    });
    expect((await owner.http.get(`${p}/entries/?q=download-url`)).body[0].downloadUrl).toBe(`${p}/entries/${entry.body.id}/content`);
    const content = await owner.http.request('GET', `${p}/entries/${entry.body.id}/content`);
    expect(content.headers.get('content-type')).toBe('application/pdf');
    expect((await owner.http.get(`${base}/?status=draft`)).body).toMatchObject({
      totalCount: 1,
      data: [{ id: pkg.body.id, status: 'draft', signersCount: 1 }],
    });
    expect((await owner.http.get(`${base}/?status=completed`)).body.totalCount).toBe(0);
    expect((await owner.http.get(`${p}/document`)).body).toMatchObject({ code: 'ESIGN_DOCUMENT_NOT_READY' });

    // a password made by the server is answered once
    const sent = await owner.http.post(`${p}/send/`, {});
    expect(sent.body).toMatchObject({ status: 'awaiting_signatures', password: expect.any(String) });
    expect((await owner.http.post(`${p}/links/`, { name: 'Late', email: 'late@example.com', color: 2 })).body).toMatchObject({ code: 'ESIGN_NOT_DRAFT' });

    const other = await professional();
    expect((await other.http.get(`/api/users/${other.id}/esign/packages/${pkg.body.id}`)).status).toBe(404);
    expect((await other.http.get(`${p}`)).status).toBe(403);

    expect((await owner.http.post(`${p}/archive/`)).body).toMatchObject({ status: 'archived' });
    expect((await owner.http.get(`${base}/?status=archived`)).body.totalCount).toBe(1);
    expect((await owner.http.post(`${p}/unarchive/`)).body).toMatchObject({ status: 'awaiting_signatures' });
    expect((await owner.http.request('DELETE', `${p}`)).status).toBe(204);
    expect((await owner.http.get(`${p}`)).status).toBe(404);
    expect((await receiver(signer.body.linkId, sent.body.password).view()).status).toBe(404);
  });
});

describe('e-sign signing (receivers) and sealing', () => {
  it('mails each signer their link; the password guards it; one signer at a time; the last finish seals a PDF pdfsig and pdftotext accept', async () => {
    const { owner, p, signers, emails, packageId } = await sentPackage();
    const links = [];
    for (const email of emails) {
      const mail = await lastMail(email, 'A document is waiting for your signature');
      expect(mail.text).toContain('Lease 2026');
      expect(mail.text).toContain('Please sign by Friday');
      links.push(linkIn(mail.text, '/esigns/'));
    }
    expect(links).toEqual(signers.map((s: { linkId: string }) => s.linkId));
    const [ada, bob] = [receiver(links[0]!, PASSWORD, 'ada-browser'), receiver(links[1]!, PASSWORD, 'bob-browser')];

    expect((await receiver(links[0]!, 'wrong-password').view()).body).toMatchObject({ code: 'ESIGN_WRONG_PASSWORD' });
    const bare = await fetch(`${t().url}/api/esign-package-links/${links[0]}/`);
    expect(bare.status).toBe(401);
    expect((await receiver('A'.repeat(22)).view()).status).toBe(404);
    expect((await ada.view()).body).toMatchObject({
      packageId,
      name: 'Lease 2026',
      status: 'awaiting_signatures',
      signingState: 'ready',
      locked: false,
      signer: { color: 1 },
    });

    // Ada opens the documents to sign: Bob is told another user signs
    const opened = await ada.entries();
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body[0].pins.filter((x: { mine: boolean }) => x.mine)).toHaveLength(1);
    const locked = await bob.entries();
    expect(locked.status).toBe(423);
    expect(locked.body).toEqual({ code: 'ESIGN_LOCKED', message: 'This document is locked while another user signs', data: null });
    expect((await bob.view()).body).toMatchObject({ locked: true });
    expect((await bob.sign({ type: 'typed', text: 'Bob' })).status).toBe(423);

    expect((await ada.sign({ type: 'drawn', image: 'data:image/gif;base64,AAAA' })).body).toMatchObject({ code: 'ESIGN_INVALID_SIGNATURE' });
    expect((await ada.finish()).body).toMatchObject({ code: 'ESIGN_NOT_SIGNED' });
    expect((await ada.sign({ type: 'typed', text: 'Ada Signer' })).body).toMatchObject({ signingState: 'signed' });
    expect((await ada.finish()).body).toMatchObject({ signingState: 'finished', status: 'awaiting_signatures' });
    // finished: the lease passed on, and Ada sees the already-signed state
    expect((await ada.sign({ type: 'typed', text: 'Ada again' })).body).toMatchObject({
      code: 'ESIGN_ALREADY_SIGNED',
      message: 'You have already signed this document',
    });
    expect((await ada.document()).status).toBe(409);

    expect((await bob.entries()).status).toBe(200);
    expect((await bob.sign({ type: 'drawn', image: PNG })).status).toBe(200);
    const done = await bob.finish();
    expect(done.body).toMatchObject({ status: 'completed', signingState: 'finished', documentReady: true });
    expect((await bob.sign({ type: 'typed', text: 'Bob' })).body).toMatchObject({ code: 'ESIGN_COMPLETED', message: 'This package is already completed' });

    const pkg = await owner.http.get(p);
    expect(pkg.body).toMatchObject({ status: 'completed', finishedCount: 2, documentSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(pkg.body.pins.every((x: { filled: boolean }) => x.filled)).toBe(true);
    expect((await fetch(`${t().url}${p}/document`)).status).toBe(401);
    const doc = await owner.http.request('GET', `${p}/document`);
    expect(doc.headers.get('content-type')).toBe('application/pdf');
    const fromLink = Buffer.from(await (await bob.document()).arrayBuffer());
    expect(fromLink.subarray(0, 5).toString()).toBe('%PDF-');

    const dir = mkdtempSync(path.join(os.tmpdir(), 'esign-'));
    const file = path.join(dir, 'sealed.pdf');
    writeFileSync(file, fromLink);
    const sig = execFileSync('pdfsig', [file], { encoding: 'utf8' });
    expect(sig).toContain('Signature is Valid');
    expect(sig).toContain('Total document signed');
    expect(sig).toContain('AXEL Drive e-sign seal');
    const text = execFileSync('pdftotext', ['-f', '4', '-l', '4', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Certificate of completion');
    expect(text).toContain('Lease 2026');
    expect(text).toContain(emails[0]);
    expect(text).toContain(emails[1]);
    expect(text).toContain('ada-browser');
    expect(text).toContain('bob-browser');
    expect(text).toMatch(/Last package event: position \d+/);
    const pages = execFileSync('pdftotext', ['-f', '1', '-l', '1', file, '-'], { encoding: 'utf8' });
    expect(pages).toContain('Ada Signer');
    // one byte changed after sealing: the signature no longer holds
    const tampered = Buffer.from(fromLink);
    const at = tampered.indexOf('Lease agreement, page 2');
    const target = at > 0 ? at : 200;
    tampered[target] = tampered[target]! ^ 0x01;
    writeFileSync(path.join(dir, 'tampered.pdf'), tampered);
    let tamperedOut = '';
    try {
      tamperedOut = execFileSync('pdfsig', [path.join(dir, 'tampered.pdf')], { encoding: 'utf8' });
    } catch (error) {
      tamperedOut = String((error as { stdout?: string }).stdout ?? '');
    }
    expect(tamperedOut).not.toContain('Signature is Valid');
  });

  it('with a signing order, the next signer is mailed when the previous one finishes', async () => {
    const { emails, signers } = await sentPackage({ ordered: true });
    await lastMail(emails[0]!, 'A document is waiting for your signature');
    const mailsTo = async (to: string) => ((await (await fetch(`${t().url}/api/dev/mailbox?to=${encodeURIComponent(to)}`)).json()) as unknown[]).length;
    expect(await mailsTo(emails[1]!)).toBe(0);
    const bob = receiver(signers[1].linkId);
    expect((await bob.view()).body).toMatchObject({ signingState: 'waiting' });
    expect((await bob.sign({ type: 'typed', text: 'Bob' })).body).toMatchObject({ code: 'ESIGN_NOT_YOUR_TURN' });
    const ada = receiver(signers[0].linkId);
    expect((await ada.sign({ type: 'typed', text: 'Ada' })).status).toBe(200);
    expect((await ada.finish()).status).toBe(200);
    const mail = await lastMail(emails[1]!, 'A document is waiting for your signature');
    expect(linkIn(mail.text, '/esigns/')).toBe(signers[1].linkId);
  });

  it('a lease held by a silent signer expires, and the other signer gets it', async () => {
    const { signers } = await sentPackage();
    const ada = receiver(signers[0].linkId);
    const bob = receiver(signers[1].linkId);
    const leased = await ada.lock();
    expect(leased.status).toBe(200);
    expect((await bob.lock()).status).toBe(423);
    t().clock.advance(61_000);
    expect((await bob.lock()).status).toBe(200);
    expect((await ada.entries()).status).toBe(423);
  });

  it('two signers opening at the same moment: exactly one gets the lock', async () => {
    const { signers } = await sentPackage();
    const results = await Promise.all(signers.map((s: { linkId: string }) => receiver(s.linkId).entries()));
    expect(results.map((r) => r.status).sort()).toEqual([200, 423]);
  });
});
