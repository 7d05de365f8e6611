import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

/**
 * The whole product in its own Node process on `port`, killed (SIGKILL) at `failpoint` when given;
 * resolves once `/api/health` answers.
 */
export const startProductProcess = async (o: {
  port: number;
  databaseUrl: string;
  dataDir: string;
  failpoint?: string;
  env?: Record<string, string>;
}): Promise<ChildProcess> => {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'api/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      AXEL_FAILPOINT: o.failpoint ?? '',
      DATABASE_URL: o.databaseUrl,
      PORT: String(o.port),
      HOST: '127.0.0.1',
      DATA_DIR: o.dataDir,
      LOG_LEVEL: 'warn',
      ...o.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  proc.stderr?.on('data', () => undefined);
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${o.port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return proc;
    if (Date.now() > deadline) throw new Error('the product did not answer');
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** Resolves when the process has exited (at once if it already has). */
export const exited = (proc: ChildProcess) =>
  new Promise<void>((resolve) => (proc.exitCode !== null || proc.signalCode ? resolve() : proc.once('exit', () => resolve())));
