import { randomBytes } from 'node:crypto';
import { ERASED } from '@axel/domain';
import { rebuildProjection } from '@axel/projections';
import { EmbeddedProcessRuntime } from '@axel/workflows';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, useTestApp } from '../../testing/harness';
import { readModelRows as readModelRowsOf } from '../../testing/read-models';

const t = useTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', ACCOUNT_RETENTION_DAYS: '30', TRUST_PROXY: 'true' } });
const { uniqueEmail, lastMail, linkIn, PASSWORD } = accountHelpers(t);

const runtime = () => {
  const rt = t().app.ctx.processes();
  if (!(rt instanceof EmbeddedProcessRuntime)) throw new Error('expected the embedded runtime');
  return rt;
};

/** A browser with its own address and user agent, as a person would be. */
class Browser extends HttpClient {
  constructor(
    url: string,
    userAgent: string,
    private readonly ip: string,
  ) {
    super(url, userAgent);
  }
  override request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    return super.request<T>(method, path, body, { 'x-forwarded-for': this.ip, ...headers });
  }
}

/** Every row of every table of the database, as text. */
const dumpDatabase = async () => {
  const { rows: tables } = await t().app.ctx.pool.query<{ s: string; n: string }>(
    `select table_schema as s, table_name as n from information_schema.tables
     where table_schema not in ('pg_catalog', 'information_schema') and table_type = 'BASE TABLE' order by 1, 2`,
  );
  const dump = new Map<string, string>();
  for (const { s, n } of tables) {
    const { rows } = await t().app.ctx.pool.query<{ r: string }>(`select t::text as r from "${s}"."${n}" t`);
    dump.set(`${s}.${n}`, rows.map((r) => r.r).join('\n'));
  }
  return dump;
};

const readModelRows = () => readModelRowsOf(t());

describe('an account purge forgets the person', () => {
  it('leaves no personal value of theirs readable anywhere in the database, and every read model rebuilds to the same rows', async () => {
    const tag = randomBytes(4).toString('hex');
    const email = uniqueEmail(`erase${tag}`);
    const newEmail = uniqueEmail(`moved${tag}`);
    const ip = `203.0.113.${(parseInt(tag.slice(0, 2), 16) % 200) + 20}`;
    const userAgent = `EraseMeBrowser/${tag} (X11; Linux x86_64)`;
    const personal = {
      firstName: `Zelda${tag}`,
      lastName: `Quixote${tag}`,
      phone: `+1555${parseInt(tag, 16) % 10_000_000}`.slice(0, 12),
      city: `Gotham${tag}`,
      company: `Acme${tag}`,
    };
    const username = `u${tag}`;

    // a life of an account: sign-up, confirmation, profile, username, sign-ins, a failed one, a
    // password reset, an e-mail change, and finally its deletion
    const browser = new Browser(t().url, userAgent, ip);
    const signUp = await browser.post('/api/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, termsAccepted: true });
    expect(signUp.status).toBe(201);
    const id = signUp.body.id as string;
    expect((await browser.post('/api/email-confirmations/', { token: linkIn((await lastMail(email)).text, '/email-confirmation/') })).status).toBe(200);
    expect((await browser.post('/api/sessions/', { email, password: 'Wrong-pass-9' })).status).toBe(401);
    expect((await browser.post('/api/sessions/', { email, password: PASSWORD })).status).toBe(200);
    expect((await browser.put(`/api/users/${id}/profile`, personal)).status).toBe(200);
    expect((await browser.put(`/api/users/${id}/account`, { username })).status).toBe(200);
    expect((await browser.put(`/api/users/${id}/email`, { newEmail, newEmailConfirmation: newEmail, password: PASSWORD })).status).toBe(202);
    const change = linkIn((await lastMail(newEmail)).text, '/change-email-confirmations/');
    expect((await browser.post(`/api/change-email-confirmations/${change}`)).status).toBe(200);
    expect((await browser.delete(`/api/users/${id}/`, { confirmation: 'YES', password: PASSWORD })).status).toBe(204);

    const values = [email, newEmail, ip, userAgent, tag, ...Object.values(personal), username];
    const before = await dumpDatabase();
    // while the account is retained its data is still there (in read models), but never in clear in the log
    expect([...before.values()].join('\n')).toContain(newEmail);
    const log = before.get('public.es_events')!;
    for (const v of values) expect(log, `event log holds ${v}`).not.toContain(v);

    // the retention period passes; the process purges the account
    t().clock.advance(31 * 86_400_000);
    await runtime().fireDueTimers();
    await runtime().whenIdle();
    const head = await t().app.ctx.store.headPosition();
    expect(await t().app.ctx.runner.waitFor(head, { timeoutMs: 10_000 })).toBe(true);
    const { rows: purged } = await t().app.ctx.pool.query('select purged_at from users where id = $1', [id]);
    expect(purged[0]?.purged_at).not.toBeNull();
    // the confirmation reached the address before it was forgotten
    expect((await lastMail(newEmail, 'Your data was erased')).text).toBeTruthy();
    await deliveredAll();

    const after = await dumpDatabase();
    // the development mailbox stands for the person's own inbox, outside the product
    after.delete('public.dev_mailbox');
    for (const [table, text] of after) {
      for (const v of values) expect(text, `${table} still holds ${v}`).not.toContain(v);
    }

    // the log keeps every event; its personal fields read as erased
    const { events } = await t().app.ctx.store.readStream(`user-${id}`);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['UserRegistered', 'ProfileUpdated', 'EmailChanged', 'AccountDeleted', 'AccountPurged']));
    expect(events.find((e) => e.type === 'UserRegistered')!.data).toMatchObject({ userId: id, email: ERASED, ip: ERASED });
    expect(events.find((e) => e.type === 'SignInSucceeded')!.metadata).toMatchObject({ ip: ERASED, userAgent: ERASED });

    // every read model rebuilds from the log to the very same rows
    const rowsBefore = await readModelRows();
    for (const projection of t().app.ctx.runner.projections) {
      await rebuildProjection({ pool: t().app.ctx.pool, store: t().app.ctx.store, registry: t().app.ctx.registry, projection });
    }
    expect(await readModelRows()).toEqual(rowsBefore);
  });
});

/** Waits until the mail deliverer has sent everything queued. */
const deliveredAll = async () => {
  for (let i = 0; i < 200; i++) {
    const { rows } = await t().app.ctx.pool.query("select count(*)::int as n from mail_outbox where status = 'pending'");
    if (rows[0]!.n === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('mail still pending');
};
