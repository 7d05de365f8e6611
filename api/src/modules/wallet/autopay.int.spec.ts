import { EmbeddedProcessRuntime } from '@axel/workflows';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { type HttpClient, useTestApp } from '../../testing/harness';
import { payOut } from './autopay.payout';

const t = useTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });

const { uniqueEmail, signIn, PASSWORD, signUpConfirmed } = accountHelpers(t);
const BASE = '/api/admin/auto-pay/programs/';

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> => {
  for (let i = 0; i < 200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

const staffMember = async (root: HttpClient, role: string) => {
  const email = uniqueEmail(role.replace('_', '-'));
  const created = await root.post('/api/admin/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, role });
  expect(created.status).toBe(201);
  const { http } = await signIn(email);
  return { http, id: created.body.id as string, email };
};

/** The treasury gets confirmed tokens on the development chain: minted, then a block. */
const fundTreasury = async (root: HttpClient, amount: string) => {
  expect((await root.post('/api/wallet/v1/faucet', { amount, to: 'treasury' })).status).toBe(200);
  const before = (await root.get('/api/wallet/v1/blockchaininfo')).body.blocks as number;
  t().clock.advance(10_000);
  await until(
    () => root.get('/api/wallet/v1/blockchaininfo'),
    (r) => r.body.blocks > before,
    'a block',
  );
};

const REMINDER = 'An auto-pay program waits for your approval';
const HOUR = 60 * 60 * 1000;

/** Reminder mails in the development mailbox of an address, once the outbox has delivered what it will. */
const reminders = async (to: string) => {
  await new Promise((r) => setTimeout(r, 300));
  const mails = (await (await fetch(`${t().url}/api/dev/mailbox?to=${encodeURIComponent(to)}`)).json()) as { subject: string; text: string }[];
  return mails.filter((m) => m.subject === REMINDER);
};

/** Moves the test clock on and runs every process timer due by then. */
const advance = async (ms: number) => {
  const runtime = t().app.ctx.processes();
  if (!(runtime instanceof EmbeddedProcessRuntime)) throw new Error('expected the embedded runtime');
  t().clock.advance(ms);
  await runtime.fireDueTimers();
  await runtime.whenIdle();
};

const treasuryPayments = async () => {
  const wallet = await t().app.wallet.walletOf(t().app.ctx);
  const treasury = await wallet.treasury();
  const page = await wallet.chain.transactions(treasury, { page: 1, perPage: 1000 });
  return page.data.filter((tx) => tx.category === 'send');
};

describe('auto-pay programs', () => {
  let root: HttpClient;
  let alice: { http: HttpClient; id: string; email: string };
  let bob: { http: HttpClient; id: string; email: string };
  beforeAll(async () => {
    root = (await signIn('root@axel.test', 'Root-pass-123')).http;
    alice = await staffMember(root, 'financial_admin');
    bob = await staffMember(root, 'financial_admin');
  });

  it('imports a CSV, is approved by a second staff member, and pays every payee exactly once, creating missing addresses', async () => {
    const withWallet = await signUpConfirmed();
    const withWalletSession = (await signIn(withWallet.email)).http;
    const { body: w } = await withWalletSession.post('/api/wallet/v1/addresses', {});
    const withoutWallet = await signUpConfirmed();
    const direct = 'y'.repeat(34);

    const name = `Spring bonus ${Date.now()}`;
    const created = await alice.http.post(BASE, { name, description: 'Thanks for testing' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name, status: 'draft', usersCount: 0, imported: false, totalTokens: '0', actions: ['submit', 'lock', 'cancel'] });
    const id = created.body.id as string;
    expect((await bob.http.post(BASE, { name: name.toUpperCase(), description: 'x' })).body.code).toBe('AUTOPAY_DUPLICATE_NAME');
    expect((await bob.http.post(BASE, { name: '', description: '' })).body).toMatchObject({
      code: 'VALIDATION_FAILED',
      data: { fields: { name: 'validation.required', description: 'validation.required' } },
    });

    const bad = await alice.http.post(`${BASE}${id}/import`, { csv: 'User email,Amount,Address\nnot-an-email,1,\nok@example.com,abc,short\n' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('AUTOPAY_CSV_INVALID');
    expect(bad.body.data.errors).toEqual([
      { row: 1, field: 'email', message: 'validation.email' },
      { row: 2, field: 'amount', message: 'wallet.invalidAmount' },
      { row: 2, field: 'address', message: 'wallet.invalidAddress' },
    ]);
    expect((await alice.http.post(`${BASE}${id}/import`, { csv: 'email,amount\n' })).body).toEqual({ imported: 0, errors: [] });

    const csv = [
      'email,amount,address,payer name,payee name,transaction type,account notes',
      `${withWallet.email},1.5,,AXEL,Ada,bonus,first`,
      `${withoutWallet.email},2,,AXEL,Bob,bonus,`,
      `someone@example.com,0.25,${direct},AXEL,Carol,bonus,external`,
    ].join('\n');
    expect((await alice.http.post(`${BASE}${id}/import`, { csv })).body).toEqual({ imported: 3, errors: [] });
    const program = await alice.http.get(`${BASE}${id}`);
    expect(program.body).toMatchObject({ usersCount: 3, imported: true, totalTokens: '3.75', totalNewAddresses: 1 });
    const payees = await alice.http.get(`${BASE}${id}/payees/?range=[0,9]`);
    expect(payees.headers.get('content-range')).toBe('payees 0-2/3');
    expect(payees.body.map((p: { payeeName: string; payoutStatus: string }) => [p.payeeName, p.payoutStatus])).toEqual([
      ['Ada', 'pending'],
      ['Bob', 'pending'],
      ['Carol', 'pending'],
    ]);

    expect((await alice.http.post(`${BASE}${id}/submit`, {})).body.status).toBe('submitted');
    const own = await alice.http.post(`${BASE}${id}/approve`, {});
    expect(own.status).toBe(403);
    expect(own.body.data).toEqual({ reason: 'four_eyes' });
    const admin = await staffMember(root, 'admin');
    expect((await admin.http.post(`${BASE}${id}/approve`, {})).body).toMatchObject({ code: 'FORBIDDEN', data: { feature: 'admin:autopay:approve' } });

    await fundTreasury(root, '10');
    expect((await bob.http.post(`${BASE}${id}/approve`, {})).status).toBe(200);
    const paid = await until(
      () => alice.http.get(`${BASE}${id}`),
      (r) => r.body.status === 'paid',
      'the payout',
    );
    expect(paid.body).toMatchObject({
      authorisedBy: bob.id,
      authorisedByEmail: bob.email,
      authorisedByName: bob.email,
      submittedByEmail: alice.email,
      createdByEmail: alice.email,
      totalNewAddresses: 0,
    });
    const listed = (await alice.http.get(`${BASE}?range=[0,99]`)).body as { id: string; authorisedByEmail: string | null }[];
    expect(listed.find((p) => p.id === id)!.authorisedByEmail).toBe(bob.email);

    const after = (await alice.http.get(`${BASE}${id}/payees/`)).body as { payoutStatus: string; txid: string; paidTo: string }[];
    expect(after.every((p) => p.payoutStatus === 'paid' && p.txid)).toBe(true);
    expect(after[0]!.paidTo).toBe(w.addresses[0].address);
    expect(after[2]!.paidTo).toBe(direct);
    const newWallet = await (await t().app.wallet.walletOf(t().app.ctx)).addresses(withoutWallet.id);
    expect(after[1]!.paidTo).toBe(newWallet?.primary);
    expect((await withWalletSession.get('/api/wallet/v1/balance')).body).toEqual({ confirmed: '0', unconfirmed: '1.5' });

    // a payout run again (a redelivered command, a restart mid-payout) pays nobody twice
    const submission = 1;
    await Promise.all([
      payOut(t().app.ctx, t().app.wallet.walletOf, id, submission, { actorId: 'test', actorKind: 'system' }),
      payOut(t().app.ctx, t().app.wallet.walletOf, id, submission, { actorId: 'test', actorKind: 'system' }),
    ]);
    const sends = (await treasuryPayments()).filter((tx) => after.some((p) => p.txid === tx.txid));
    expect(sends).toHaveLength(3);

    const exported = await alice.http.request('GET', `${BASE}${id}/export`);
    expect(exported.headers.get('content-type')).toMatch(/text\/csv/);
    const lines = String(exported.body).trim().split('\n');
    expect(lines[0]).toBe('email,amount,address,payerName,payeeName,transactionType,accountNotes,payoutStatus,txid,paidTo,failure');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(',paid,');
  });

  it('a change to a submitted program sends it back to draft, and whoever changed it since submission cannot approve it', async () => {
    const carol = await staffMember(root, 'financial_admin');
    const created = await alice.http.post(BASE, { name: `Four eyes ${Date.now()}`, description: 'd' });
    const id = created.body.id as string;
    expect((await alice.http.post(`${BASE}${id}/import`, { csv: 'email,amount\nada@example.com,1\n' })).body).toEqual({ imported: 1, errors: [] });
    expect((await alice.http.post(`${BASE}${id}/submit`, {})).body.status).toBe('submitted');
    const [payee] = (await alice.http.get(`${BASE}${id}/payees/`)).body;

    // bob redirects the payout: the submission is withdrawn
    const changed = await bob.http.put(`${BASE}${id}/payees/${payee.id}`, { email: 'ada@example.com', amount: 1, address: 'B'.repeat(34) });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await bob.http.get(`${BASE}${id}`)).body.status).toBe('draft');
    expect((await bob.http.post(`${BASE}${id}/approve`, {})).body.code).toBe('AUTOPAY_ACTION_NOT_ALLOWED');
    // submitted again by alice: bob still may not approve it; carol, who changed nothing, may
    expect((await alice.http.post(`${BASE}${id}/submit`, {})).body.status).toBe('submitted');
    const own = await bob.http.post(`${BASE}${id}/approve`, {});
    expect(own.status).toBe(403);
    expect(own.body).toMatchObject({ code: 'FORBIDDEN', data: { reason: 'four_eyes', changed: true } });

    // the same through lock and unlock
    expect((await bob.http.post(`${BASE}${id}/lock`, {})).body.status).toBe('locked');
    expect((await bob.http.post(`${BASE}${id}/unlock`, {})).body.status).toBe('draft');
    expect((await carol.http.post(`${BASE}${id}/submit`, {})).body.status).toBe('submitted');
    expect((await bob.http.post(`${BASE}${id}/approve`, {})).status).toBe(403);
    const approved = await alice.http.post(`${BASE}${id}/approve`, {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.authorisedBy).toBe(alice.id);
  });

  it('a partial failure waits for a retry, which pays only the failed payees', async () => {
    const known = await signUpConfirmed();
    const later = uniqueEmail('later');
    const { body: program } = await alice.http.post(BASE, { name: `Retry ${Date.now()}`, description: 'partial' });
    const csv = `email,amount\n${known.email},0.5\n${later},0.5\n`;
    expect((await alice.http.post(`${BASE}${program.id}/import`, { csv })).body.imported).toBe(2);
    await alice.http.post(`${BASE}${program.id}/submit`, {});
    await fundTreasury(root, '2');
    await bob.http.post(`${BASE}${program.id}/approve`, {});
    const partial = await until(
      () => alice.http.get(`${BASE}${program.id}`),
      (r) => r.body.status === 'partially_failed',
      'the partial payout',
    );
    expect(partial.body.actions).toEqual(['retry', 'cancel']);
    const payees = (await alice.http.get(`${BASE}${program.id}/payees/`)).body as { payoutStatus: string; failure: string | null; txid: string | null }[];
    expect(payees.map((p) => [p.payoutStatus, p.failure])).toEqual([
      ['paid', null],
      ['failed', 'AUTOPAY_UNKNOWN_PAYEE'],
    ]);
    const firstTxid = payees[0]!.txid;

    await signUpConfirmed(later);
    expect((await alice.http.post(`${BASE}${program.id}/retry`, {})).status).toBe(200);
    await until(
      () => alice.http.get(`${BASE}${program.id}`),
      (r) => r.body.status === 'paid',
      'the retried payout',
    );
    const retried = (await alice.http.get(`${BASE}${program.id}/payees/`)).body as { payoutStatus: string; txid: string | null }[];
    expect(retried.map((p) => p.payoutStatus)).toEqual(['paid', 'paid']);
    expect(retried[0]!.txid).toBe(firstTxid);
    const toKnown = (await treasuryPayments()).filter((tx) => tx.txid === firstTxid);
    expect(toKnown).toHaveLength(1);
  });

  it('lists programs for staff in ra-data-simple-rest shape, and none for users', async () => {
    const list = await alice.http.get(`${BASE}?range=[0,0]&sort=["name","ASC"]`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.headers.get('content-range')).toMatch(/^programs 0-0\/\d+$/);
    const user = await signUpConfirmed();
    expect((await (await signIn(user.email)).http.get(BASE)).status).toBe(403);
    const dashboard = await root.get('/api/admin/axel-accounts/dashboard/');
    expect(dashboard.body.accounts).toBeGreaterThan(0);
    expect(dashboard.body.programsByStatus.find((s: { status: string }) => s.status === 'paid').count).toBeGreaterThanOrEqual(2);
  });
  it('a name is reserved in the event store: of parallel creates or renames to one name exactly one passes', async () => {
    const name = `Race ${Date.now()}`;
    const variants = [name, name.toUpperCase(), ` ${name} `, name.toLowerCase()];
    const creates = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? bob : alice).http.post(BASE, { name: variants[i % variants.length], description: 'race' })),
    );
    expect(creates.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of creates.filter((c) => c.status === 409)) expect(r.body.code).toBe('AUTOPAY_DUPLICATE_NAME');
    const named = await t().app.ctx.pool.query('select id from autopay_programs where name_key = lower($1)', [name]);
    expect(named.rowCount).toBe(1);

    // two programs renamed to one new name at once
    const { body: a } = await alice.http.post(BASE, { name: `${name} A`, description: 'a' });
    const { body: b } = await bob.http.post(BASE, { name: `${name} B`, description: 'b' });
    const target = `${name} renamed`;
    const renames = await Promise.all([
      alice.http.put(`${BASE}${a.id}`, { name: target, description: 'a' }),
      bob.http.put(`${BASE}${b.id}`, { name: target, description: 'b' }),
    ]);
    expect(renames.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(renames.find((r) => r.status === 409)!.body.code).toBe('AUTOPAY_DUPLICATE_NAME');
    // the renamed program's old name is free again; the other one keeps its own
    const winner = renames[0]!.status === 200 ? a : b;
    const loser = winner === a ? b : a;
    expect((await alice.http.post(BASE, { name: winner.name, description: 'reused' })).status).toBe(201);
    expect((await alice.http.post(BASE, { name: loser.name, description: 'taken' })).body.code).toBe('AUTOPAY_DUPLICATE_NAME');
    // renaming a program to its own name in another case is no conflict with itself
    expect((await alice.http.put(`${BASE}${loser.id}`, { name: loser.name.toUpperCase(), description: 'same' })).status).toBe(200);
  });

  it('while a submission waits, its reminders are mailed to the staff who may approve it, never to the submitter, once each', async () => {
    const carol = await staffMember(root, 'financial_admin');
    const carolEmail = carol.email;
    const aliceEmail = alice.email;
    const auditorEmail = (await staffMember(root, 'auditor')).email;
    const name = `Reminded ${Date.now()}`;
    const { body: program } = await carol.http.post(BASE, { name, description: 'waits' });
    expect((await carol.http.post(`${BASE}${program.id}/import`, { csv: 'email,amount\nsomeone@example.com,1\n' })).body.imported).toBe(1);
    expect((await carol.http.post(`${BASE}${program.id}/submit`, {})).status).toBe(200);
    await advance(0);
    expect(await reminders(aliceEmail)).toHaveLength(0);

    await advance(25 * HOUR);
    const first = await until(
      () => reminders(aliceEmail),
      (m) => m.length >= 1,
      'the reminder to another approver',
    );
    const mail = first.find((m) => m.text.includes(name))!;
    expect(mail.text).toContain(`submitted by ${carolEmail}`);
    expect(mail.text).toContain(`/admin/auto-pay/${program.id}/show`);
    expect(mail.text).toMatch(/expires on \d{4}-\d{2}-\d{2}/);
    expect((await reminders('root@axel.test')).some((m) => m.text.includes(name))).toBe(true);
    // four eyes: the submitter is not asked; an auditor cannot approve and is not asked either
    expect((await reminders(carolEmail)).filter((m) => m.text.includes(name))).toHaveLength(0);
    expect(await reminders(auditorEmail)).toHaveLength(0);

    // timers run again with nothing due: no second mail; the next day: the second reminder
    await advance(0);
    expect((await reminders(aliceEmail)).filter((m) => m.text.includes(name))).toHaveLength(1);
    await advance(24 * HOUR);
    await until(
      async () => (await reminders(aliceEmail)).filter((m) => m.text.includes(name)),
      (m) => m.length === 2,
      'the second reminder',
    );
    expect((await reminders(carolEmail)).filter((m) => m.text.includes(name))).toHaveLength(0);
  });
});
