import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** Polls `check` until it holds, or fails naming what it waited for. */
export const until = async (check: () => Promise<boolean>, timeoutMs: number, what: string | (() => string)) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

export const exited = (proc: ChildProcess) =>
  new Promise<void>((resolve) => (proc.exitCode !== null || proc.signalCode ? resolve() : proc.once('exit', () => resolve())));

export interface ProductOptions {
  readonly databaseUrl: string;
  readonly port: number;
  readonly dataDir: string;
  /** Variables every start gets (each start may add its own). */
  readonly env?: Record<string, string>;
}

/**
 * The whole product (`api/src/main.ts`, every role) in its own Node process, so a SIGKILL really
 * ends it wherever it is. Starts wait until it answers on /api/health.
 */
export class ProductProcess {
  child: ChildProcess | undefined;
  /** The variables of the latest start (secret ones included): what the secrets scan looks for in its events. */
  environment: Record<string, string> = {};

  constructor(private readonly options: ProductOptions) {}

  get url() {
    return `http://127.0.0.1:${this.options.port}`;
  }

  async start(env: Record<string, string> = {}): Promise<ChildProcess> {
    this.environment = {
      DATABASE_URL: this.options.databaseUrl,
      PORT: String(this.options.port),
      HOST: '127.0.0.1',
      DATA_DIR: this.options.dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'root@axel.test',
      ADMIN_PASSWORD: 'Root-pass-123',
      ...this.options.env,
      ...env,
    };
    const proc = spawn(process.execPath, ['--import', 'tsx', 'api/src/main.ts'], {
      cwd: path.resolve(__dirname, '../..'),
      env: { ...process.env, ...this.environment },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-4000));
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
    this.child = proc;
    await until(
      async () => {
        if (proc.exitCode !== null || proc.signalCode) throw new Error(`the product stopped at start: ${output}`);
        return (await fetch(`${this.url}/api/health`).catch(() => null))?.ok === true;
      },
      60_000,
      () => `the product to answer (${output})`,
    );
    return proc;
  }

  /** A clean stop, as Ctrl-C gives. */
  async stop(proc = this.child) {
    if (!proc || proc.exitCode !== null || proc.signalCode) return;
    proc.kill('SIGINT');
    await exited(proc);
  }

  async kill(proc = this.child) {
    if (!proc || proc.exitCode !== null || proc.signalCode) return;
    proc.kill('SIGKILL');
    await exited(proc);
  }
}
