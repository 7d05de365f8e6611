import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

/** A running product: its process, and everything it wrote to stdout and stderr so far. */
export type ProductProcess = ChildProcess & { output: () => string };

/**
 * The whole product (`api/src/main.ts`) in its own Node process on `port`, killed (SIGKILL) at
 * `failpoint` when given; resolves once `/api/health` answers, and fails with what the product
 * wrote if it stops or does not answer within 90 s (then it is killed). Without `databaseUrl` the product runs its own
 * embedded PostgreSQL under `dataDir` (this process's DATABASE_URL, EVENTSTORE_URL and
 * TEMPORAL_ADDRESS are not passed on). `detached` starts it in a process group of its own, so a
 * signal to `-pid` reaches it as a terminal's Ctrl-C does.
 */
export const startProductProcess = async (o: {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  failpoint?: string;
  env?: Record<string, string>;
  detached?: boolean;
}): Promise<ProductProcess> => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    AXEL_FAILPOINT: o.failpoint ?? '',
    PORT: String(o.port),
    HOST: '127.0.0.1',
    DATA_DIR: o.dataDir,
    LOG_LEVEL: 'warn',
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
    ...o.env,
  };
  if (!o.databaseUrl) {
    delete env.DATABASE_URL;
    delete env.EVENTSTORE_URL;
    delete env.TEMPORAL_ADDRESS;
  }
  const proc = spawn(process.execPath, ['--import', 'tsx', 'api/src/main.ts'], {
    cwd: ROOT,
    env,
    detached: o.detached ?? false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  proc.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const product = Object.assign(proc, { output: () => output });
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${o.port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return product;
    if (proc.exitCode !== null || proc.signalCode) throw new Error(`the product stopped while starting:\n${output}`);
    if (Date.now() > deadline) {
      if (o.detached && proc.pid) process.kill(-proc.pid, 'SIGKILL');
      else proc.kill('SIGKILL');
      throw new Error(`the product did not answer:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** Resolves when the process has exited (at once if it already has), with its exit code or signal. */
export const exited = (proc: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.exitCode !== null || proc.signalCode
      ? resolve({ code: proc.exitCode, signal: proc.signalCode })
      : proc.once('exit', (code, signal) => resolve({ code, signal })),
  );

/**
 * One of the product's command-line tools (`entry`, e.g. `api/src/cli/audit.ts`) run to its end
 * from the repository's root, with this process's environment and `env` on top; answers its exit
 * code and what it wrote.
 */
export const runProductCli = (entry: string, args: string[], env: Record<string, string> = {}) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', entry, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    proc.on('close', (code) => resolve({ code, stdout, stderr }));
  });
