/**
 * How much memory reading a file takes and keeps: a file of BENCH_FILE_MIB (default 384) MiB stored as
 * encrypted chunks on 4 local shards (R=2) is streamed 3 times through an HTTP reply to a client that
 * discards it, as the download route does; RSS is printed at start, the peak during each round and
 * after each round (MAPS=1: then the largest mappings, where it lies: [heap] and 64 MiB malloc arenas of
 * threads are glibc's). Run with the product's Node flags:
 *   npx tsx --max-semi-space-size=4 --external-memory-accounted-in-global-limit scripts/download-memory.ts
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHUNK_PLAIN_SIZE, encryptChunkParts, localShards, readPlaintext, ReplicatedBlobStore, type FileKeys } from '../platform/src/blobs/index';

const MiB = 1024 * 1024;
const size = Number(process.env.BENCH_FILE_MIB ?? 384) * MiB;
const dir = mkdtempSync(path.join(os.tmpdir(), 'axel-download-memory-'));
const store = new ReplicatedBlobStore(localShards(dir, 4), 2);
const key = randomBytes(32);
const keyId = 'k1';
const keys = { get: async () => key } as unknown as FileKeys;
const rss = () => Math.round(process.memoryUsage.rss() / MiB);

const chunks: { cid: string; size: number }[] = [];
const plain = randomBytes(CHUNK_PLAIN_SIZE);
for (let at = 0, i = 0; at < size; at += CHUNK_PLAIN_SIZE, i++) {
  const part = plain.subarray(0, Math.min(CHUNK_PLAIN_SIZE, size - at));
  const parts = encryptChunkParts(key, keyId, i, part, at + part.length >= size);
  chunks.push({ cid: await store.put(parts), size: parts.reduce((n, p) => n + p.length, 0) });
}
const manifest = { keyId, chunkPlainSize: CHUNK_PLAIN_SIZE, chunks, size };

const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-length': String(size) });
  const stream = readPlaintext(store, keys, manifest, { start: 0, end: size - 1 }, { unsent: () => res.writableLength });
  stream.pipe(res);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as { port: number }).port;

const download = () =>
  new Promise<number>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/' }, (res) => {
      let n = 0;
      res.on('data', (d: Buffer) => (n += d.length));
      res.on('end', () => resolve(n));
      res.on('error', reject);
    });
  });

console.log(`file ${size / MiB} MiB; RSS at start ${rss()} MiB`);
for (let round = 1; round <= 3; round++) {
  let peak = rss();
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20);
  const got = await download();
  clearInterval(sampler);
  if (got !== size) throw new Error(`got ${got} of ${size}`);
  await new Promise((r) => setTimeout(r, 1000));
  const m = process.memoryUsage();
  console.log(
    `round ${round}: peak ${peak} MiB, after ${rss()} MiB (heap ${Math.round(m.heapUsed / MiB)}, external ${Math.round(m.external / MiB)}, arrayBuffers ${Math.round(m.arrayBuffers / MiB)})`,
  );
}
if (process.env.MAPS) {
  const { readFileSync } = await import('node:fs');
  const maps: { head: string; rss: number }[] = [];
  let cur: { head: string; rss: number } | undefined;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) maps.push((cur = { head: line, rss: 0 }));
    else if (line.startsWith('Rss:') && cur) cur.rss = Number(line.split(/\s+/)[1]) / 1024;
  }
  maps.sort((a, b) => b.rss - a.rss);
  for (const m of maps.slice(0, 25)) console.log(m.rss.toFixed(1), m.head);
}
server.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
