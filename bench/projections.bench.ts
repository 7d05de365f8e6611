import { performance } from 'node:perf_hooks';
import { accountEventDefinitions, EventRegistry, type EventMetadata } from '@axel/domain';
import { mailEvents } from '@axel/domain/mail/mail.events';
import { expected, newId, PostgresEventStore, type EventToAppend } from '@axel/platform';
import { projectionMigrations, ProjectionRunner, usersProjection } from '@axel/projections';
import { migrate } from '../platform/src/postgres/migrations';
import { fmt, sleep, type BenchContext, type BenchSection } from './harness';

const registry = new EventRegistry().register(...accountEventDefinitions, ...mailEvents);

const metadata = (actorId: string): EventMetadata => ({
  actorId,
  actorKind: 'user',
  ip: '203.0.113.9',
  userAgent: 'Mozilla/5.0 bench',
  client: 'web',
  correlationId: newId(),
  causationId: null,
  time: new Date().toISOString(),
});

const event = (userId: string, type: string, data: unknown): EventToAppend => ({
  id: newId(),
  ...registry.encode({ type, data }),
  metadata: metadata(userId),
});

/** One user's life as the users read model sees it: 10 events. */
const userLife = (userId: string, n: number): EventToAppend[] => {
  const at = new Date().toISOString();
  return [
    event(userId, 'UserRegistered', {
      userId,
      email: `bench.${n}@example.com`,
      passwordHash: '$argon2id$v=19$m=65536,t=3,p=4$bench',
      authMethods: ['password'],
      role: 'user',
      locale: 'en_us',
      termsAccepted: true,
      emailVerified: false,
      registrationApp: 'web',
      userAgent: 'bench',
      ip: '203.0.113.9',
      createdByStaffId: null,
      registeredAt: at,
    }),
    event(userId, 'EmailConfirmed', { email: `bench.${n}@example.com`, at }),
    ...Array.from({ length: 6 }, () => event(userId, 'SignInSucceeded', { sessionId: newId(), ip: '203.0.113.9', userAgent: 'bench', at })),
    event(userId, 'ProfileUpdated', { changes: { firstName: `Ann ${n}`, city: 'Recife' } }),
    event(userId, 'AccountSettingsChanged', { locale: 'pt_br', sessionTimeout: 3600 }),
  ];
};

const seedUsers = async (store: PostgresEventStore, users: number, writers = 8) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (;;) {
        const n = next++;
        if (n >= users) return;
        const userId = newId();
        await store.append(`user-${userId}`, userLife(userId, n), expected.noStream);
      }
    }),
  );
};

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

const catchUp: BenchSection = {
  name: 'projection-catchup',
  description: 'users projection catching up from position 0 over 200,000 events',
  async run(ctx: BenchContext) {
    await migrate(ctx.pool, projectionMigrations);
    const store = new PostgresEventStore({ pool: ctx.pool, connectionString: ctx.databaseUrl });
    const users = Number(process.env.BENCH_CATCHUP_USERS ?? 20_000);
    const t0 = performance.now();
    await seedUsers(store, users);
    const seeded = users * 10;
    ctx.log(`seeded ${fmt(seeded)} events in ${fmt((performance.now() - t0) / 1000, 1)} s`);
    const head = await store.headPosition();
    const runner = new ProjectionRunner({ pool: ctx.pool, store, registry, projections: [usersProjection] });
    await runner.prepare();
    await ctx.pool.query("update projection_checkpoints set position = 0 where name = 'users'");
    await ctx.pool.query('truncate users');
    const start = performance.now();
    await runner.start();
    const reached = await runner.waitFor(head, { timeoutMs: 600_000 });
    const seconds = (performance.now() - start) / 1000;
    await runner.stop();
    await store.close();
    const { rows } = await ctx.pool.query<{ n: number }>('select count(*)::int as n from users');
    const rate = seeded / seconds;
    ctx.table(
      'Projection catch-up (users read model, from position 0)',
      [
        {
          events: fmt(seeded),
          'rows written': fmt(rows[0]!.n),
          seconds: fmt(seconds, 2),
          'events/s': fmt(rate),
          target: '20,000',
          verdict: reached && rate >= 20_000 ? 'met' : 'NOT met',
        },
      ],
      'One transaction per page of 1,000 events, checkpoint in the same transaction.',
    );
  },
};

const liveLag: BenchSection = {
  name: 'projection-lag',
  description: 'live projection lag while 1,000 events/s are appended',
  async run(ctx: BenchContext) {
    await migrate(ctx.pool, projectionMigrations);
    const store = new PostgresEventStore({ pool: ctx.pool, connectionString: ctx.databaseUrl });
    const appendedAt = new Map<number, number>();
    const lags: number[] = [];
    let pending: number[] = [];
    const runner = new ProjectionRunner({
      pool: ctx.pool,
      store,
      registry,
      projections: [usersProjection],
      onApplied: (_name, position) => {
        const now = performance.now();
        const still: number[] = [];
        for (const p of pending) {
          if (p <= position) {
            lags.push(now - appendedAt.get(p)!);
            appendedAt.delete(p);
          } else still.push(p);
        }
        pending = still;
      },
    });
    await runner.start();
    await runner.waitFor(await store.headPosition(), { timeoutMs: 600_000 });
    const userIds: string[] = [];
    for (let i = 0; i < 200; i++) {
      const id = newId();
      userIds.push(id);
      await store.append(`user-${id}`, userLife(id, 1_000_000 + i).slice(0, 2), expected.noStream);
    }
    await sleep(500);
    lags.length = 0;
    const rate = 1000;
    const seconds = Math.max(5, ctx.seconds * 2);
    const total = rate * seconds;
    const started = performance.now();
    let sent = 0;
    // 4 writers, each paced to its share of the rate
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let i = w; i < total; i += 4) {
          const due = started + (i * 1000) / rate;
          const wait = due - performance.now();
          if (wait > 0) await sleep(wait);
          const userId = userIds[i % userIds.length]!;
          const t = performance.now();
          const result = await store.append(
            `user-${userId}`,
            [event(userId, 'SignInSucceeded', { sessionId: newId(), ip: '203.0.113.9', userAgent: 'bench', at: new Date().toISOString() })],
            expected.any,
          );
          appendedAt.set(result.position, t);
          pending.push(result.position);
          sent++;
        }
      }),
    );
    const achieved = sent / ((performance.now() - started) / 1000);
    await runner.waitFor(await store.headPosition(), { timeoutMs: 30_000 });
    await runner.stop();
    await store.close();
    const p50 = percentile(lags, 50);
    const p99 = percentile(lags, 99);
    ctx.table(
      'Live projection lag (append call start -> page with the event committed)',
      [
        {
          'appended/s': fmt(achieved),
          events: fmt(lags.length),
          'p50 ms': fmt(p50, 2),
          'p99 ms': fmt(p99, 2),
          'max ms': fmt(Math.max(...lags), 2),
          'target p99': '20 ms',
          verdict: p99 < 20 ? 'met' : 'NOT met',
        },
      ],
      'The subscriber is woken by NOTIFY after each commit (coalesced), reads below the oldest open transaction, and writes the page and its checkpoint in one transaction.',
    );
  },
};

export const projectionSections: BenchSection[] = [catchUp, liveLag];
