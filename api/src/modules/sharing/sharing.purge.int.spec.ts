import { randomBytes } from 'node:crypto';
import { ERASED } from '@axel/domain';
import { EmbeddedProcessRuntime } from '@axel/workflows';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { useTestApp } from '../../testing/harness';
import { MemoryBytes } from '../files/storage.testing';

const bytes = new MemoryBytes();
const t = useTestApp({ env: { ACCOUNT_RETENTION_DAYS: '30' }, bytes: { uploads: bytes, content: bytes } });
const { signUpConfirmed, signIn, uniqueEmail, PASSWORD } = accountHelpers(t);

const runtime = () => {
  const rt = t().app.ctx.processes();
  if (!(rt instanceof EmbeddedProcessRuntime)) throw new Error('expected the embedded runtime');
  return rt;
};

/** Runs every process timer due now, and those the runs set due now in turn (the purge starts others). */
const settle = async () => {
  for (let round = 0; ; round++) {
    await runtime().fireDueTimers();
    try {
      await runtime().whenIdle({ timeoutMs: 5_000 });
      return;
    } catch (error) {
      const { rows } = await t().app.ctx.pool.query("select process_type, timers from wf_processes where status = 'running' and next_timer_at <= $1", [
        t().clock.now(),
      ]);
      if (round >= 5) throw new Error(`${(error as Error).message}: ${JSON.stringify(rows)}`);
    }
  }
};

/** Every row of every table but the development mailbox (the person's own inbox), as text. */
const dumpDatabase = async () => {
  const { rows: tables } = await t().app.ctx.pool.query<{ s: string; n: string }>(
    `select table_schema as s, table_name as n from information_schema.tables
     where table_schema not in ('pg_catalog', 'information_schema') and table_type = 'BASE TABLE' and table_name <> 'dev_mailbox'`,
  );
  let dump = '';
  for (const { s, n } of tables)
    dump += (await t().app.ctx.pool.query<{ r: string }>(`select t::text as r from "${s}"."${n}" t`)).rows.map((r) => r.r).join('\n');
  return dump;
};

describe("a purged owner's shares", () => {
  it('are forgotten, deleted ones included: no title, message, recipient or item name is left readable', async () => {
    const tag = randomBytes(4).toString('hex');
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const storageId = (await http.get(`/api/users/${id}/storages/`)).body.data[0].id as string;
    const uploadId = bytes.upload(id, storageId, 'secret plans');
    const fileId = (await http.post(`/api/users/${id}/storages/${storageId}/items/`, { label: 'file', name: `plans${tag}.txt`, uploadId })).body.id as string;
    const recipient = uniqueEmail(`friend${tag}`);
    const kept = await http.post('/api/shares/', {
      itemIds: [fileId],
      title: `Title${tag}`,
      message: `Message${tag}`,
      password: 'open-sesame',
      recipients: [recipient],
      downloadable: true,
      expiresAt: new Date(t().clock.now().getTime() + 60 * 86_400_000).toISOString(),
    });
    expect(kept.status).toBe(201);
    const gone = await http.post('/api/shares/', { itemIds: [fileId], title: `Deleted${tag}`, description: `Note${tag}`, downloadable: false });
    expect((await http.delete(`/api/shares/${gone.body.id}/`)).status).toBe(204);
    expect((await http.delete(`/api/users/${id}/`, { confirmation: 'YES', password: PASSWORD })).status).toBe(204);

    t().clock.advance(31 * 86_400_000);
    await settle();
    expect(await t().app.ctx.runner.waitFor(await t().app.ctx.store.headPosition(), { timeoutMs: 10_000 })).toBe(true);

    const dump = await dumpDatabase();
    for (const value of [`Title${tag}`, `Message${tag}`, `Deleted${tag}`, `Note${tag}`, `friend${tag}`, `plans${tag}`])
      expect(dump, value).not.toContain(value);
    for (const shareId of [kept.body.id, gone.body.id]) {
      const { events } = await t().app.ctx.store.readStream(`share-${shareId}`);
      expect(events.at(-1)!.type).toBe('ShareForgotten');
      expect(events[0]!.data).toMatchObject({ title: ERASED, items: [], recipients: [] });
    }
    const { rows } = await t().app.ctx.pool.query('select count(*)::int as n from shares where owner_id = $1', [id]);
    expect(rows[0].n).toBe(0);
    expect((await t().app.ctx.pool.query('select count(*)::int as n from share_counts where user_id = $1', [id])).rows[0].n).toBe(0);
  });
});
