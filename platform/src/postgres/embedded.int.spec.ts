import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedPostgresError, startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded';

const isRoot = process.getuid?.() === 0;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** `mktemp -d`: mode 0700, so as root the postgres user cannot enter anything below it. */
const privateFolder = () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'axel-embedded-'));
  expect(statSync(folder).mode & 0o777).toBe(0o700);
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
};

const track = (server: EmbeddedPostgresHandle) => {
  const dir = server.clusterDir;
  cleanups.push(async () => {
    await server.stop();
    if (!dir.startsWith(os.tmpdir())) {
      rmSync(dir, { recursive: true, force: true });
      rmSync(`${dir}.source`, { force: true });
    }
  });
  return server;
};

const query = async (url: string, sql: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
};

const mode = (p: string) => statSync(p).mode & 0o777;

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Process group of a process, from the kernel's own record of it. */
const processGroup = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[2]);

describe('embedded PostgreSQL', () => {
  it('starts from a 0700 folder, keeps its data folder 0700 and its data across restarts', async () => {
    const dir = path.join(privateFolder(), 'data', 'postgres');
    // a data folder left world-writable by an earlier version is closed again
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);

    const first = track(await startEmbeddedPostgres({ dir, durable: false }));
    expect(await query(first.url, 'select 1 as one')).toEqual([{ one: 1 }]);
    await query(first.url, 'create table kept (id int); insert into kept values (42)');
    expect(mode(dir)).toBe(0o700);
    expect(mode(first.clusterDir)).toBe(0o700);
    expect(statSync(path.join(dir, 'credentials.json')).mode & 0o077).toBe(0);
    if (isRoot) {
      // the postgres user cannot enter the 0700 folder: the cluster lives where it can, linked from dir
      const postgresUid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      expect(statSync(first.clusterDir).uid).toBe(postgresUid);
      expect(first.clusterDir.startsWith(dir)).toBe(false);
      expect(lstatSync(path.join(dir, 'cluster')).isSymbolicLink()).toBe(true);
      expect(realpathSync(path.join(dir, 'cluster'))).toBe(first.clusterDir);
    } else {
      expect(first.clusterDir).toBe(path.join(dir, 'cluster'));
    }
    await first.stop();

    const second = track(await startEmbeddedPostgres({ dir, durable: false }));
    expect(second.clusterDir).toBe(first.clusterDir);
    expect(await query(second.url, 'select id from kept')).toEqual([{ id: 42 }]);
    await second.stop();
  });

  it('runs the server in a process group of its own, so a Ctrl-C meant for the app does not reach it', async () => {
    const dir = path.join(privateFolder(), 'postgres');
    const server = track(await startEmbeddedPostgres({ dir, persistent: false, durable: false }));
    expect(isAlive(server.pid)).toBe(true);
    expect(processGroup(server.pid)).not.toBe(processGroup(process.pid));
    const clusterDir = server.clusterDir;
    await server.stop();
    expect(isAlive(server.pid)).toBe(false);
    expect(existsSync(clusterDir)).toBe(false);
  });

  it('stops the server when the process that started it is killed without a chance to stop it', async () => {
    const dir = path.join(privateFolder(), 'postgres');
    const script = path.join(path.dirname(dir), 'owner.mts');
    writeFileSync(
      script,
      `import { startEmbeddedPostgres } from ${JSON.stringify(path.resolve(__dirname, 'embedded.ts'))};
const server = await startEmbeddedPostgres({ dir: ${JSON.stringify(dir)}, durable: false });
process.stdout.write(JSON.stringify({ pid: server.pid, clusterDir: server.clusterDir }) + '\\n');
setInterval(() => undefined, 60_000);
`,
    );
    const owner = spawn(process.execPath, ['--import', 'tsx', script], { cwd: path.resolve(__dirname, '../../..'), stdio: ['ignore', 'pipe', 'inherit'] });
    const started = await new Promise<{ pid: number; clusterDir: string }>((resolve, reject) => {
      let out = '';
      owner.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
      });
      owner.once('exit', (code) => reject(new Error(`the owner exited (${code}) before its server started`)));
    });
    cleanups.push(() => {
      if (isAlive(started.pid)) process.kill(started.pid, 'SIGKILL');
      if (!started.clusterDir.startsWith(os.tmpdir())) {
        rmSync(started.clusterDir, { recursive: true, force: true });
        rmSync(`${started.clusterDir}.source`, { force: true });
      }
    });
    expect(isAlive(started.pid)).toBe(true);

    owner.kill('SIGKILL');
    const deadline = Date.now() + 15_000;
    while (isAlive(started.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(isAlive(started.pid)).toBe(false);
    // a fast shutdown, not a crash: the next start needs no recovery
    expect(existsSync(path.join(started.clusterDir, 'postmaster.pid'))).toBe(false);
  });

  it('removes a moved-out cluster once its data folder is deleted', async () => {
    const first = path.join(privateFolder(), 'postgres');
    const abandoned = track(await startEmbeddedPostgres({ dir: first, durable: false }));
    await abandoned.stop();
    rmSync(path.dirname(first), { recursive: true, force: true });

    const other = track(await startEmbeddedPostgres({ dir: path.join(privateFolder(), 'postgres'), durable: false }));
    if (isRoot) {
      // both lived outside their 0700 folders; the one nobody can open any more is gone
      expect(other.clusterDir).not.toBe(abandoned.clusterDir);
      expect(existsSync(abandoned.clusterDir)).toBe(false);
      expect(existsSync(other.clusterDir)).toBe(true);
    } else {
      expect(existsSync(abandoned.clusterDir)).toBe(false);
    }
    await other.stop();
  });

  it('says what to do when no folder the server can reach is available', async () => {
    const dir = path.join(privateFolder(), 'postgres');
    // a place the postgres user cannot enter either
    const unreachable = path.join(privateFolder(), 'clusters');
    const starting = startEmbeddedPostgres({ dir, persistent: false, durable: false, reachableRoot: unreachable });
    if (isRoot) {
      await expect(starting).rejects.toThrow(EmbeddedPostgresError);
      await expect(starting).rejects.toThrow(/Set DATA_DIR to a folder that user can enter/);
    } else {
      // not root: the server runs as this user, who can always use its own folder
      const server = track(await starting);
      expect(server.clusterDir).toBe(path.join(dir, 'cluster'));
    }
  });
});
