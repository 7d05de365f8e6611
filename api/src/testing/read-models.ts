import { liveTables } from '@axel/projections';
import type { TestApp } from './harness';

/** Every row of every read-model table of the app, in key order: to compare a rebuild with the live tables. */
export const readModelRows = async (t: TestApp): Promise<Record<string, unknown[]>> => {
  const out: Record<string, unknown[]> = {};
  for (const p of t.app.ctx.runner.projections) {
    for (const table of Object.values(liveTables(p)) as string[]) {
      const { rows } = await t.app.ctx.pool.query(`select * from "${table}" order by 1`);
      out[table] = rows;
    }
  }
  return out;
};

/**
 * Waits until the app is at rest: no mail waiting for delivery (delivering one writes an event)
 * and every read model caught up with the log. Then a snapshot of the read models stays true.
 */
export const settled = async (t: TestApp): Promise<void> => {
  for (let i = 0; ; i++) {
    const { rows } = await t.app.ctx.pool.query<{ n: number }>("select count(*)::int as n from mail_outbox where status = 'pending'");
    const head = await t.app.ctx.store.headPosition();
    if (rows[0]!.n === 0 && (await t.app.ctx.runner.waitFor(head, { timeoutMs: 20_000 }))) {
      const { rows: again } = await t.app.ctx.pool.query<{ n: number }>("select count(*)::int as n from mail_outbox where status = 'pending'");
      if (again[0]!.n === 0 && (await t.app.ctx.store.headPosition()) === head) return;
    }
    if (i >= 400) throw new Error('the app did not come to rest');
    await new Promise((r) => setTimeout(r, 50));
  }
};
