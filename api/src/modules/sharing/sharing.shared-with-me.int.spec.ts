import { migrate } from '@axel/platform';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient } from '../../testing/harness';
import { storageTestApp } from '../files/storage.testing';
import { sharingMigrations } from './sharing.migrations';

const { t, bytes } = storageTestApp();
const { signedInUser, signUpConfirmed, signIn, uniqueEmail, linkIn, PASSWORD } = accountHelpers(t);

const DAY = 86_400_000;
const inDays = (days: number) => new Date(t().clock.now().getTime() + days * DAY).toISOString();

/** A signed-in owner with one file, sharing it privately. */
const owner = async () => {
  const { http, email, id, storageId } = await signedInUser();
  const uploadId = bytes.upload(id, storageId, 'hello');
  const file = await http.post(`/api/users/${id}/storages/${storageId}/items/`, { label: 'file', name: 'notes.txt', uploadId });
  expect(file.status, JSON.stringify(file.body)).toBe(201);
  const share = async (title: string, recipients: string[], extra: Record<string, unknown> = {}) => {
    const res = await http.post('/api/shares/', {
      itemIds: [file.body.id],
      title,
      downloadable: true,
      recipients,
      message: 'For you',
      password: 'open-sesame',
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; shareLinkId: string };
  };
  return { http, email, id, share };
};

describe('GET /api/shares/shared-with-me', () => {
  it("lists the live private shares sent to the user's verified e-mail, newest first, paged, without their contents", async () => {
    const me = await signUpConfirmed();
    const { http } = await signIn(me.email);
    const a = await owner();
    const b = await owner();
    const other = uniqueEmail('other');

    const first = await a.share('First', [me.email.toUpperCase(), other]);
    const expiring = await a.share('Expiring', [me.email], { expiresAt: inDays(1) });
    const revoked = await a.share('Revoked', [me.email]);
    expect((await a.http.post(`/api/shares/${revoked.id}/revoke`)).status).toBe(200);
    const blocked = await b.share('Blocked', [me.email, other]);
    expect((await b.http.post(`/api/shares/${blocked.id}/recipients/${encodeURIComponent(me.email)}/block`)).status).toBe(200);
    await b.share('Not mine', [other]);
    const pub = await b.http.post('/api/shares/', {
      itemIds: (await b.http.get(`/api/shares/${blocked.id}/`)).body.items.map((i: { id: string }) => i.id),
      title: 'Public',
      downloadable: true,
    });
    expect(pub.status).toBe(201);
    t().clock.advance(10);
    const last = await b.share('Last', [me.email]);

    const all = await http.get('/api/shares/shared-with-me');
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.totalCount).toBe(3);
    expect(all.body.data.map((s: { title: string }) => s.title)).toEqual(['Last', 'Expiring', 'First']);
    const row = all.body.data[2];
    expect(row).toMatchObject({
      id: first.id,
      shareLinkId: first.shareLinkId,
      kind: 'private',
      hasPassword: true,
      itemsCount: 1,
      totalSize: 5,
      expired: false,
    });
    // who sent each: the address its mail came from, and the name once the sender's profile has one
    expect(all.body.data.map((s: { ownerName: string | null; ownerEmail: string }) => [s.ownerName, s.ownerEmail])).toEqual([
      [null, b.email],
      [null, a.email],
      [null, a.email],
    ]);
    expect((await b.http.put(`/api/users/${b.id}/profile`, { firstName: 'Bea', lastName: 'Berg' })).status).toBe(200);
    expect(await t().app.ctx.runner.waitFor(await t().app.ctx.store.headPosition(), { timeoutMs: 20_000 })).toBe(true);
    expect((await http.get('/api/shares/shared-with-me')).body.data[0]).toMatchObject({ ownerName: 'Bea Berg', ownerEmail: b.email });
    expect(row.url).toMatch(new RegExp(`/private-share/${first.shareLinkId}$`));
    expect(row).not.toHaveProperty('items');
    expect(row).not.toHaveProperty('recipients');
    expect(JSON.stringify(all.body)).not.toContain(other);
    expect(last.id).toBe(all.body.data[0].id);

    const paged = await http.get('/api/shares/shared-with-me?perPage=2&page=2&sortOrder=asc');
    expect(paged.status).toBe(200);
    expect(paged.body).toMatchObject({ totalCount: 3, page: 2, perPage: 2 });
    expect(paged.body.data.map((s: { title: string }) => s.title)).toEqual(['Last']);

    // a day and more later the expiring one is gone
    t().clock.advance(2 * DAY);
    const later = await (await signIn(me.email)).http.get('/api/shares/shared-with-me');
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    expect(later.body.data.map((s: { id: string }) => s.id)).toEqual([last.id, first.id]);
    expect(later.body.data.some((s: { id: string }) => s.id === expiring.id)).toBe(false);
  });

  it('refuses anonymous callers and bad paging; a share sent before the account existed is listed once the address is confirmed', async () => {
    const anonymous = await new HttpClient(t().url).get('/api/shares/shared-with-me');
    expect(anonymous.status).toBe(401);
    const me = await signUpConfirmed();
    const { http } = await signIn(me.email);
    const bad = await http.get('/api/shares/shared-with-me?perPage=0');
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);

    const email = uniqueEmail('unverified');
    const a = await owner();
    await a.share('Waiting', [email]);
    const visitor = new HttpClient(t().url);
    expect((await visitor.post('/api/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, termsAccepted: true })).status).toBe(201);
    // an address not confirmed cannot sign in at all (the route would list nothing for it either)
    const refusedSignIn = await signIn(email);
    expect([refusedSignIn.res.status, refusedSignIn.res.body.code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);
    // once confirmed, the share sent to the address before the account existed is listed
    const mails = (await (await fetch(`${t().url}/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as { text: string }[];
    const confirmation = mails.find((m) => m.text.includes('/email-confirmation/'));
    expect(confirmation).toBeDefined();
    const token = linkIn(confirmation!.text, '/email-confirmation/');
    expect((await visitor.post('/api/email-confirmations/', { token })).status).toBe(200);
    const confirmed = await (await signIn(email)).http.get('/api/shares/shared-with-me');
    expect(confirmed.body.data.map((s: { title: string }) => s.title)).toEqual(['Waiting']);
  });
});

describe('the recipient index on a database made before it', () => {
  it('is created and the lost addresses filled in by the migration, and the lookup by e-mail reads it', async () => {
    const me = await signUpConfirmed();
    const a = await owner();
    const sent = await a.share('Before the index', [me.email], { expiresAt: inDays(5) });
    const { pool } = t().app.ctx;
    const indexes = async () =>
      (await pool.query<{ indexdef: string }>(`select indexdef from pg_indexes where tablename = 'shares' and indexdef like '%recipient_emails%'`)).rows.map(
        (r) => r.indexdef,
      );
    // the shares table as it was before: no recipient index, the addresses not filled in
    for (const index of await pool
      .query<{ indexname: string }>(`select indexname from pg_indexes where tablename = 'shares' and indexdef like '%recipient_emails%'`)
      .then((r) => r.rows)) {
      await pool.query(`drop index "${index.indexname}"`);
    }
    await pool.query(`update shares set recipient_emails = '{}' where id = $1`, [sent.id]);
    await pool.query(`delete from schema_migrations where id = any($1)`, [sharingMigrations.map((m) => m.id)]);
    expect(await indexes()).toEqual([]);

    expect(await migrate(pool, sharingMigrations)).toEqual([
      'api-sharing-001-shares-recipient-index',
      'api-sharing-002-shares-recipient-index-once',
      'api-sharing-003-share-resend-mails',
    ]);
    expect(await indexes()).toEqual([expect.stringMatching(/USING gin \(recipient_emails\)/)]);
    // a table rebuilt since holds the index under the rebuild's name: the migrations leave one index
    await pool.query('alter index shares_recipient_emails_idx rename to shares__next_recipient_emails_idx');
    await pool.query(`delete from schema_migrations where id = any($1)`, [sharingMigrations.map((m) => m.id)]);
    await migrate(pool, sharingMigrations);
    expect(await indexes()).toEqual([expect.stringMatching(/^CREATE INDEX shares__next_recipient_emails_idx .*USING gin \(recipient_emails\)/)]);
    const mine = await (await signIn(me.email)).http.get('/api/shares/shared-with-me');
    expect(mine.body.data.map((s: { id: string }) => s.id)).toEqual([sent.id]);
    const byEmail = await a.http.get(`/api/shares/?email=${encodeURIComponent(me.email)}&expiresFrom=2000-01-01T00:00:00Z&expiresAt=2999-01-01T00:00:00Z`);
    expect(byEmail.status, JSON.stringify(byEmail.body)).toBe(200);
    expect(byEmail.body.data.map((s: { id: string }) => s.id)).toEqual([sent.id]);

    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('set local enable_seqscan = off');
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `explain select id from shares where kind = 'private' and recipient_emails @> array[$1::text]`,
        [me.email],
      );
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Bitmap Index Scan on shares__next_recipient_emails_idx/);
      await client.query('rollback');
    } finally {
      client.release();
    }
  });
});
