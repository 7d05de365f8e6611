import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@axel/platform';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, startProductProcess } from '../product-process';

/*
 * `npm start` in a terminal, then Ctrl-C: the terminal sends SIGINT to its whole foreground
 * process group. The product runs here with its own embedded PostgreSQL (no DATABASE_URL), in a
 * process group of its own, and the signal goes to that group as a terminal would send it.
 */
const workDir = mkdtempSync(path.join(os.tmpdir(), 'axel-stop-'));
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child?.pid && child.exitCode === null && !child.signalCode) {
    process.kill(-child.pid, 'SIGKILL');
    await exited(child);
  }
  // run as root, the cluster lives outside the 0700 folder, behind DATA_DIR/postgres/cluster
  const cluster = path.join(workDir, 'data', 'postgres', 'cluster');
  if (existsSync(cluster)) {
    const moved = realpathSync(cluster);
    rmSync(moved, { recursive: true, force: true });
    rmSync(`${moved}.source`, { force: true });
  }
  rmSync(workDir, { recursive: true, force: true });
});

describe('Ctrl-C on the running product', () => {
  it('stops the app, then its PostgreSQL, and logs nothing alarming', async () => {
    const port = await freePort();
    // no databaseUrl: the product starts its own embedded PostgreSQL under DATA_DIR
    const proc = await startProductProcess({
      port,
      dataDir: path.join(workDir, 'data'),
      detached: true,
      env: { LOG_LEVEL: 'debug', ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123' },
    });
    child = proc;
    // a sign-in keeps pooled connections open, as a real session would
    const signIn = await fetch(`http://127.0.0.1:${port}/api/sessions/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify({ email: 'root@axel.test', password: 'Root-pass-123' }),
    });
    expect(signIn.status).toBeLessThan(500);

    process.kill(-proc.pid!, 'SIGINT');
    const { code, signal } = await exited(proc);
    const output = proc.output();

    const shorten = (l: string) => l.slice(0, 300);
    expect(
      output
        .split('\n')
        .filter((l) => /terminated unexpectedly/i.test(l))
        .map(shorten),
    ).toEqual([]);
    const lines = output.split('\n').filter((l) => l.startsWith('{'));
    const levels = lines.map((l) => JSON.parse(l) as { level: number; msg?: string });
    expect(levels.some((l) => l.msg === 'stopped cleanly')).toBe(true);
    expect(lines.filter((_, i) => levels[i]!.level >= 40).map(shorten)).toEqual([]);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  }, 120_000);
});
