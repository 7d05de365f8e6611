import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../api/src/config';
import { deterministicId } from '../platform/src/ids';
import { freePort } from '../platform/src/postgres/embedded';
import { databaseUrlWithName, ensureDatabase } from '../platform/src/postgres/pool';
import type { BenchContext } from './harness';

/** The administrator the benches sign in as (the product creates them at start). */
export const BENCH_ADMIN = { email: 'bench@axel.test', password: 'Bench-pass-123' };

/** Node flags the product runs with in production (Dockerfile's NODE_OPTIONS and CMD, docker-compose, `npm start`). */
export const PRODUCT_NODE_FLAGS = ['--max-semi-space-size=4', '--external-memory-accounted-in-global-limit'];

/** The product (api/src/main.ts) in its own process, as it runs in production, with rate limits x1000. */
export const spawnProduct = (options: { databaseUrl: string; dataDir: string; port: number }): ChildProcess =>
  spawn(process.execPath, [...PRODUCT_NODE_FLAGS, '--import', 'tsx', 'api/src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'warn',
      // as `npm start` and the image run it: two malloc arenas, not one per thread that allocates
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      RATE_LIMIT_FACTOR: '1000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });

/** Waits (up to a minute) until the product at `base` answers its health check. */
export const untilHealthy = async (base: string) => {
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 600) throw new Error('the product did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** Signs the bench administrator in: their session cookie, id and online storage. */
export const benchSignIn = async (base: string) => {
  const signIn = await fetch(`${base}/api/sessions/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify(BENCH_ADMIN),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const me = (await (await fetch(`${base}/api/sessions/this/`, { headers: { cookie } })).json()) as { user: { id: string } };
  const userId = me.user.id;
  return { cookie, userId, storageId: deterministicId('online-storage', userId) };
};

/** Stops the product (SIGINT, as an operator would) and waits for it to exit. */
export const stopProduct = async (child: ChildProcess | undefined) => {
  if (!child) return;
  child.kill('SIGINT');
  await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
};

/**
 * For an app run inside the bench process: a fresh database (`bench_<name>_…`) and data directory
 * (both for the caller to remove), and a test config on a free port with silent logs.
 */
export const inProcessConfig = async (ctx: BenchContext, name: string, env: Record<string, string> = {}) => {
  const database = `bench_${name.replaceAll('-', '_')}_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(ctx.serverUrl, database);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `axel-bench-${name}-`));
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrlWithName(ctx.serverUrl, database),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...env,
  });
  return { database, dataDir, config };
};
