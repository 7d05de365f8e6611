import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { shareAccessDecider, shareAccessStreamName, type ShareAccessCommand } from '../domain/src';
import { createApp } from '../api/src/app';
import { createLogger } from '../api/src/logger';
import { runShareAccessCommand } from '../api/src/modules/sharing/share-access.stream';
import { esEventColumns, handleCommand } from '../platform/src';
import { dropDatabase } from '../platform/src/postgres/pool';
import { inProcessConfig } from './product';
import { fmt, median, type BenchContext, type BenchSection } from './harness';

/** Stream lengths the open is measured at (BENCH_SHARE_OPENS, comma separated). */
const LENGTHS = (process.env.BENCH_SHARE_OPENS ?? '0,1000,10000,50000').split(',').map(Number);

/** Opens already on a share's access stream, written as the store writes them (no sealed fields: public, anonymous). */
const seed = async (pool: import('pg').Pool, shareId: string, from: number, to: number) => {
  if (to <= from) return;
  await pool.query(
    `insert into es_events (${esEventColumns(undefined, { written: true })})
     select (select coalesce(max(position), 0) from es_events) + i - $3 + 1, $1, i, gen_random_uuid(), 'ShareOpened', 1,
            jsonb_build_object('shareId', $2::text, 'ownerId', 'bench-owner', 'visitId', 'v' || i, 'kind', 'public', 'recipientEmail', null,
                               'firstOpen', i = 0, 'at', '2026-11-23T10:00:00.000Z'),
            jsonb_build_object('actorId', null, 'actorKind', 'system', 'ip', null, 'userAgent', null, 'client', null,
                               'correlationId', 'bench', 'causationId', null, 'time', '2026-11-23T10:00:00.000Z')
     from generate_series($3::bigint, $4::bigint - 1) as i`,
    [shareAccessStreamName(shareId), shareId, from, to],
  );
};

export const shareAccessSections: BenchSection[] = [
  {
    name: 'share-access',
    description: `recording a share open as its access stream grows (${LENGTHS.map((n) => fmt(n)).join(', ')} events): the whole stream folded per open beside the state kept folded between opens`,
    async run(ctx: BenchContext) {
      const { database, dataDir, config } = await inProcessConfig(ctx, 'share-access');
      const app = await createApp({ config, log: createLogger('silent'), roles: ['api'], serveUi: false });
      try {
        const shareId = randomUUID();
        const stream = shareAccessStreamName(shareId);
        const open = (): Omit<ShareAccessCommand, 'metadata'> => ({
          type: 'RecordShareOpen',
          data: { shareId, ownerId: 'bench-owner', kind: 'public', visitId: randomUUID(), recipientEmail: null, access: { ok: true } },
        });
        const actor = { actorId: null, actorKind: 'system' as const };
        const time = async (work: () => Promise<unknown>) => {
          const t = performance.now();
          await work();
          return performance.now() - t;
        };
        const rows: Record<string, string | number>[] = [];
        let seeded = 0;
        for (const length of LENGTHS) {
          const current = (await app.ctx.store.readStream(stream)).revision + 1;
          await seed(app.ctx.pool, shareId, current, Math.max(current, length));
          seeded = Math.max(current, length);
          const whole: number[] = [];
          for (let i = 0; i < 5; i++) {
            whole.push(
              await time(() =>
                handleCommand(app.ctx.commands, shareAccessDecider, stream, { ...open(), metadata: { now: app.ctx.now() } } as ShareAccessCommand, actor),
              ),
            );
          }
          // another process wrote: the cached state catches up on what it has not seen, once
          const catchUp = await time(() => runShareAccessCommand(app.ctx, shareId, open(), actor));
          const warm: number[] = [];
          for (let i = 0; i < 20; i++) warm.push(await time(() => runShareAccessCommand(app.ctx, shareId, open(), actor)));
          rows.push({
            'events in the stream': fmt(seeded),
            'whole fold, median ms': fmt(median(whole), 2),
            'kept folded: catch-up ms': fmt(catchUp, 2),
            'kept folded: median ms': fmt(median(warm), 2),
          });
        }
        ctx.table(
          'Recording a share open (one append with its expected revision)',
          rows,
          'Whole fold: the generic command path reads and folds the stream per open. Kept folded: the access stream path keeps the small state at its revision and reads only newer events; its first call after the generic opens catches up on them.',
        );
      } finally {
        await app.stop();
        await dropDatabase(ctx.serverUrl, database);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  },
];
