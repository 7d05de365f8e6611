/**
 * Files: one large upload through HTTP (tus, encryption, hashing, R=2 placement) and its download,
 * next to this machine's own limits measured in the same run (sequential disk write / R, AES-256-GCM
 * in 1 MiB chunks, sequential disk read, before the upload and after the downloads), 8 concurrent
 * uploads, and the server's peak RSS. The download is measured first after the server started, and
 * again once its threads and heaps are warm.
 *
 *   BENCH_FILE_MIB=1024   size of the large upload and download (default 1 GiB)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, promises as fs, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../platform/src/postgres/embedded';
import { databaseUrlWithName, dropDatabase, ensureDatabase } from '../platform/src/postgres/pool';
import { benchSignIn, spawnProduct, stopProduct, untilHealthy } from './product';
import { fmt, type BenchSection } from './harness';
import { childrenCpuMs, cpuPerMiB, rssOf, threadCpu, type ThreadGroups } from './process-stats';

const MiB = 1024 * 1024;
const TUS = { 'tus-resumable': '1.0.0', 'x-requested-with': 'XMLHttpRequest' };
const mbps = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);

/** A pseudo-random stream of `size` bytes cycling over a 64 MiB random pool (generating is not what is measured). */
const pool = randomBytes(64 * MiB);
const bodyOf = (size: number) => {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      const n = Math.min(MiB, size - sent);
      const at = sent % pool.length;
      controller.enqueue(pool.subarray(at, at + n));
      sent += n;
    },
  });
};

/** Drops the page cache where allowed (root on Linux), so reads come from the disk. */
const dropCaches = async () => {
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '3\n');
    return true;
  } catch {
    return false;
  }
};

const GROUPS: ThreadGroups = { MainThread: 'request thread', 'axel-chunks': 'chunk workers', V8Worker: 'V8 helpers (GC)', 'libuv-worker': 'libuv pool (disk)' };

/**
 * Downloads `url` with curl, a native client that costs the machine next to nothing (as a download
 * manager on another machine would): bytes received. The cookie goes in on stdin, not in the
 * command line (its CPU: `childrenCpuMs` around the call).
 */
const curlDownload = (url: string, cookie: string) =>
  new Promise<number>((resolve, reject) => {
    const c = spawn('curl', ['--silent', '--show-error', '--fail', '--output', '/dev/null', '--write-out', '%{size_download}', '--header', '@-', url], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (err += d));
    c.on('error', reject);
    c.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`curl exited with ${code}: ${err}`));
      resolve(Number(out));
    });
    c.stdin.end(`cookie: ${cookie}\n`);
  });

/** Downloads `url` with Node's own http client (no web streams): bytes received. */
const nodeDownload = (url: string, cookie: string) =>
  new Promise<number>((resolve, reject) => {
    http
      .get(url, { headers: { cookie } }, (res) => {
        let received = 0;
        res.on('data', (part: Buffer) => (received += part.length));
        res.on('end', () => resolve(received));
        res.on('error', reject);
      })
      .on('error', reject);
  });

const filesSection: BenchSection = {
  name: 'files',
  description: 'upload and download through HTTP against disk and AES-GCM rates, concurrent uploads, peak RSS',
  async run(ctx) {
    const size = Number(process.env.BENCH_FILE_MIB ?? 1024) * MiB;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'axel-bench-files-'));
    const database = `bench_files_${randomBytes(4).toString('hex')}`;
    await ensureDatabase(ctx.serverUrl, database);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let child: ChildProcess | undefined;
    try {
      // ---- this machine's limits ----------------------------------------------------------------
      const probe = path.join(dataDir, 'disk-probe');
      let t = performance.now();
      const handle = await fs.open(probe, 'w');
      for (let written = 0; written < size; written += MiB) await handle.write(pool, written % pool.length, Math.min(MiB, size - written));
      await handle.sync();
      await handle.close();
      const diskWrite = mbps(size, performance.now() - t);
      // the read probe is taken twice, before the upload and right after the downloads, as this
      // virtual disk's read rate moves between runs (the host caches it): the ratio is taken on their mean
      const readProbe = async () => {
        const dropped = await dropCaches();
        const started = performance.now();
        const reader = await fs.open(probe, 'r');
        const buffer = Buffer.allocUnsafe(MiB);
        for (let read = 0; read < size; ) {
          const { bytesRead } = await reader.read(buffer, 0, MiB, read);
          if (!bytesRead) break;
          read += bytesRead;
        }
        await reader.close();
        return { rate: mbps(size, performance.now() - started), dropped };
      };
      const readBefore = await readProbe();
      const cachesDropped = readBefore.dropped;
      const key = randomBytes(32);
      t = performance.now();
      for (let done = 0; done < size; done += MiB) {
        const cipher = createCipheriv('aes-256-gcm', key, randomBytes(12));
        cipher.update(pool.subarray(done % pool.length, (done % pool.length) + MiB - 28));
        cipher.final();
        cipher.getAuthTag();
      }
      const aes = mbps(size, performance.now() - t);

      // ---- the product, in its own process ------------------------------------------------------
      child = spawnProduct({ databaseUrl: databaseUrlWithName(ctx.serverUrl, database), dataDir, port });
      await untilHealthy(base);
      const { cookie, userId, storageId } = await benchSignIn(base);

      const upload = async (bytes: number) => {
        const created = await fetch(`${base}/api/uploads/`, {
          method: 'POST',
          headers: { ...TUS, cookie, 'upload-length': String(bytes), 'upload-metadata': `storageId ${Buffer.from(storageId).toString('base64')}` },
        });
        if (created.status !== 201) throw new Error(`upload refused: ${created.status} ${await created.text()}`);
        const location = created.headers.get('location')!;
        const sent = await fetch(base + location, {
          method: 'PATCH',
          headers: { ...TUS, cookie, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
          body: bodyOf(bytes),
          duplex: 'half',
        } as RequestInit);
        if (sent.status !== 204) throw new Error(`upload failed: ${sent.status} ${await sent.text()}`);
        return location.split('/').at(-1)!;
      };

      let peak = rssOf(child.pid!);
      const baseline = peak;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child!.pid!))), 50);
      t = performance.now();
      const uploadId = await upload(size);
      const uploadMs = performance.now() - t;
      const uploadPeak = peak;

      const made = await fetch(`${base}/api/users/${userId}/storages/${storageId}/items/`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        body: JSON.stringify({ label: 'file', name: 'bench.bin', uploadId }),
      });
      const file = (await made.json()) as { id: string };
      const sourceUrl = `${base}/api/users/${userId}/storages/${storageId}/files/${file.id}/sources/`;
      // the download, page cache dropped before each: with curl (what the ratio is taken on; the
      // client on this machine takes next to no CPU from the server) where the machine has it, then
      // with Node's own http client beside it (a client that takes ~1.5 ms of CPU per MiB here)
      const hasCurl = existsSync('/usr/bin/curl') || existsSync('/bin/curl');
      const download = () => (hasCurl ? curlDownload(sourceUrl, cookie) : nodeDownload(sourceUrl, cookie));
      await dropCaches();
      const cpu0 = threadCpu(child.pid!, GROUPS);
      const curlCpu0 = childrenCpuMs();
      t = performance.now();
      const received = await download();
      const downloadMs = performance.now() - t;
      const curlCpu = (childrenCpuMs() - curlCpu0) / (size / MiB);
      const downloadCpu = cpuPerMiB(cpu0, threadCpu(child.pid!, GROUPS), size / MiB, GROUPS);
      if (received !== size) throw new Error(`download gave ${received} of ${size} bytes`);
      await dropCaches();
      const nodeCpu0 = process.cpuUsage();
      t = performance.now();
      const receivedByNode = await nodeDownload(sourceUrl, cookie);
      const nodeDownloadMs = performance.now() - t;
      const nodeCpu = process.cpuUsage(nodeCpu0);
      if (receivedByNode !== size) throw new Error(`download gave ${receivedByNode} of ${size} bytes`);
      // the same download once more: the server's threads and heaps no longer start cold
      await dropCaches();
      t = performance.now();
      const receivedAgain = await download();
      const againMs = performance.now() - t;
      if (receivedAgain !== size) throw new Error(`download gave ${receivedAgain} of ${size} bytes`);
      const downloadsPeak = peak;
      // what the server holds once the downloads are over (a second to settle)
      await new Promise((r) => setTimeout(r, 1000));
      const afterDownloads = rssOf(child.pid!);
      const readAfter = await readProbe();
      await fs.rm(probe);
      const diskRead = (readBefore.rate + readAfter.rate) / 2;

      const eight = 64 * MiB;
      t = performance.now();
      await Promise.all(Array.from({ length: 8 }, () => upload(eight)));
      const concurrentMs = performance.now() - t;
      clearInterval(sampler);

      const replicas = 2;
      const up = mbps(size, uploadMs);
      const down = mbps(size, downloadMs);
      const downNode = mbps(size, nodeDownloadMs);
      const downAgain = mbps(size, againMs);
      ctx.table(
        `Files: ${size / MiB} MiB through HTTP (tus, AES-256-GCM, SHA-256, R=${replicas} of 4 shards)`,
        [
          { measure: 'disk sequential write (fsync at end)', 'MiB/s': fmt(diskWrite), 'vs limit': '' },
          { measure: `disk write / R (the upload's limit)`, 'MiB/s': fmt(diskWrite / replicas), 'vs limit': '' },
          { measure: 'AES-256-GCM, 1 MiB chunks, one core', 'MiB/s': fmt(aes), 'vs limit': '' },
          { measure: 'upload through HTTP', 'MiB/s': fmt(up), 'vs limit': `${fmt(up / Math.min(diskWrite / replicas, aes), 2)}x` },
          {
            measure: `disk sequential read${cachesDropped ? ' (page cache dropped)' : ' (page cache NOT dropped)'}, mean of the two below`,
            'MiB/s': fmt(diskRead),
            'vs limit': '',
          },
          { measure: '  before the upload', 'MiB/s': fmt(readBefore.rate), 'vs limit': '' },
          { measure: '  after the downloads', 'MiB/s': fmt(readAfter.rate), 'vs limit': '' },
          {
            measure: `download through HTTP (verified, decrypted), ${hasCurl ? 'curl' : 'Node http client'}, first after start`,
            'MiB/s': fmt(down),
            'vs limit': `${fmt(down / diskRead, 2)}x`,
          },
          { measure: '  the same, Node http client', 'MiB/s': fmt(downNode), 'vs limit': `${fmt(downNode / diskRead, 2)}x` },
          {
            measure: `  the same again, ${hasCurl ? 'curl' : 'Node http client'} (server warm)`,
            'MiB/s': fmt(downAgain),
            'vs limit': `${fmt(downAgain / diskRead, 2)}x`,
          },
          {
            measure: '8 concurrent uploads of 64 MiB (total)',
            'MiB/s': fmt(mbps(8 * eight, concurrentMs)),
            'vs limit': `${fmt(mbps(8 * eight, concurrentMs) / Math.min(diskWrite / replicas, aes), 2)}x`,
          },
        ],
        `Server peak RSS during the large upload: ${fmt(uploadPeak / MiB)} MiB (at start ${fmt(baseline / MiB)} MiB; target under 300 MB); peak until the three downloads ended ${fmt(downloadsPeak / MiB)} MiB, ${fmt(afterDownloads / MiB)} MiB after them; during the whole section ${fmt(peak / MiB)} MiB. Targets: upload at least 0.5 of disk/R, download at least 0.5 of disk read. Server CPU ms per MiB downloaded: ${fmt(downloadCpu.total, 1)} (${downloadCpu.byGroup}); client CPU ms per MiB: ${hasCurl ? `curl ${fmt(curlCpu, 2)}, ` : ''}Node http client ${fmt((nodeCpu.user + nodeCpu.system) / 1000 / (size / MiB), 2)}. ${os.cpus().length} cpu(s), load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}.`,
      );
    } finally {
      await stopProduct(child);
      await dropDatabase(ctx.serverUrl, database).catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

export const filesSections: BenchSection[] = [filesSection];
