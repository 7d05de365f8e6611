import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresEventStore, eventStoreMigrations } from '@axel/platform';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { workflowMigrations } from '../embedded/migrations';
import { createProbeKit, type ProbeKit } from '../testing/probe';
import { recordsOf, waitFor } from './runtime.contract';

const childScript = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const repoRoot = path.resolve(path.dirname(childScript), '../../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Child {
  readonly process: ChildProcess;
  readonly stderr: string[];
  readonly exited: Promise<void>;
}

/** The runtime in its own Node process (node --import tsx: SIGKILL hits the runtime itself). */
const startChild = async (databaseUrl: string): Promise<Child> => {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript], {
    cwd: repoRoot,
    env: { ...process.env, CRASH_DATABASE_URL: databaseUrl, CRASH_STALE_MS: '1000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child not ready: ${stderr.join('')}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited with ${code}: ${stderr.join('')}`));
    });
  });
  return { process: child, stderr, exited };
};

const kill = async (child: Child) => {
  child.process.kill('SIGKILL');
  await child.exited;
};

describe('crash test: the embedded runtime killed with SIGKILL', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let kit: ProbeKit;
  const children: Child[] = [];
  const run = randomBytes(3).toString('hex');

  beforeAll(async () => {
    db = await createTestDatabase([...eventStoreMigrations, ...workflowMigrations]);
    store = new PostgresEventStore({ pool: db.pool, connectionString: db.url });
    kit = createProbeKit(store);
  });

  afterAll(async () => {
    for (const child of children) if (child.process.exitCode === null && child.process.signalCode === null) await kill(child);
    await store?.close();
    await db?.drop();
  });

  const start = async () => {
    const child = await startChild(db.url);
    children.push(child);
    return child;
  };

  const startProbes = async (ids: string[], delayMs: number) => {
    const queue = [...ids];
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let id = queue.shift(); id; id = queue.shift()) await kit.start(id, 'timer', delayMs);
      }),
    );
  };

  const waiting = async (ids: string[]) => {
    const { rows } = await db.pool.query<{ n: number; last: Date | null }>(
      `select count(*)::int as n, max(next_timer_at) as last from wf_processes
       where process_type = 'probe-timer' and process_id = any($1) and next_timer_at is not null`,
      [ids],
    );
    return rows[0]!;
  };

  const completed = async (ids: string[]) => {
    const { rows } = await db.pool.query<{ n: number }>(
      `select count(*)::int as n from wf_processes where process_type = 'probe-timer' and process_id = any($1) and status = 'completed'`,
      [ids],
    );
    return rows[0]!.n;
  };

  const total = async (ids: string[]) => [...(await recordsOf(db.pool, ids)).values()].reduce((n, whats) => n + whats.length, 0);

  const expectEachOnce = async (ids: string[]) => {
    const records = await recordsOf(db.pool, ids);
    expect(records.size).toBe(ids.length);
    expect([...records].filter(([, whats]) => whats.length !== 1)).toEqual([]);
    const { rows } = await db.pool.query<{ n: number; dispatched: number }>(
      `select count(*)::int as n, count(dispatched_at)::int as dispatched from wf_commands where process_id = any($1)`,
      [ids],
    );
    expect(rows[0]).toEqual({ n: ids.length, dispatched: ids.length });
  };

  it('200 timers that came due while it was dead fire exactly once after the restart', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `${run}-down-${i}`);
    const first = await start();
    await startProbes(ids, 4_000);
    const pending = await waitFor(
      '200 pending timers',
      () => waiting(ids),
      (w) => w.n === 200,
    );
    expect(await total(ids)).toBe(0);

    await kill(first);
    // their due time passes while nothing runs
    await sleep(Math.max(0, pending.last!.getTime() - Date.now()) + 1_000);
    expect(await total(ids)).toBe(0);

    await start();
    await waitFor(
      '200 completions',
      () => completed(ids),
      (n) => n === 200,
      60_000,
    );
    await sleep(1_500);
    await expectEachOnce(ids);
  }, 120_000);

  it('killed while 200 timers are firing, the restarted runtime finishes them, each command applied once', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `${run}-firing-${i}`);
    await startProbes(ids, 2_000);
    await waitFor(
      '200 pending timers',
      () => waiting(ids),
      (w) => w.n === 200,
    );
    // SIGKILL in the middle of the burst: some commands dispatched, some jobs locked mid-run
    await waitFor(
      'the burst to begin',
      () => total(ids),
      (n) => n > 0,
      30_000,
    );
    await kill(children.at(-1)!);
    const firedBeforeKill = await total(ids);

    await start();
    await waitFor(
      '200 completions',
      () => completed(ids),
      (n) => n === 200,
      60_000,
    );
    await sleep(1_500);
    await expectEachOnce(ids);
    expect(firedBeforeKill).toBeGreaterThan(0);
  }, 120_000);
});
