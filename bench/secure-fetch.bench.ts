/**
 * Secure Fetch: one large anonymous upload through a fetch link with its certificate hashes (MD5
 * and SHA-1 on the request thread, SHA3-512 on the worker pool, states saved with every chunk) next
 * to SHA3-512 alone over the same bytes in the same run (hash-wasm, the implementation the upload
 * must use to save its state, and node:crypto), and the same upload without hashes (a storage upload).
 *
 *   BENCH_FETCH_MIB=1024        size of the upload (default 1 GiB)
 *   BENCH_FETCH_PATCH_MIB=0     bytes per PATCH request (default 0: the whole file in one PATCH)
 */
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSHA3 } from 'hash-wasm';
import { MultiHash } from '../platform/src/hashing/index';
import { freePort } from '../platform/src/postgres/embedded';
import { databaseUrlWithName, dropDatabase, ensureDatabase } from '../platform/src/postgres/pool';
import { benchSignIn, spawnProduct, stopProduct, untilHealthy } from './product';
import { fmt, type BenchSection } from './harness';
import { cpuPerMiB, rssOf, threadCpu, type ThreadGroups } from './process-stats';

const MiB = 1024 * 1024;
const TUS = { 'tus-resumable': '1.0.0', 'x-requested-with': 'XMLHttpRequest' };
/** MB/s (10^6 bytes), as the issue states its target. */
const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);

/** The bytes of the run: `size` bytes cycling over a 64 MiB random pool, in 1 MiB pieces (generating is not measured). */
const pool = randomBytes(64 * MiB);
function* piecesOf(size: number): Generator<Buffer> {
  for (let sent = 0; sent < size; ) {
    const n = Math.min(MiB, size - sent);
    const at = sent % pool.length;
    yield pool.subarray(at, at + n);
    sent += n;
  }
}
const bodyOf = (from: number, to: number) => {
  let sent = from;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= to) return controller.close();
      const at = sent % pool.length;
      const n = Math.min(MiB - (at % MiB), to - sent);
      controller.enqueue(pool.subarray(at, at + n));
      sent += n;
    },
  });
};

const GROUPS: ThreadGroups = { MainThread: 'request thread', 'axel-sha3': 'SHA3 worker', V8Worker: 'V8 helpers (GC)', 'libuv-worker': 'libuv pool (disk)' };
const cpuSince = (before: Map<string, number>, after: Map<string, number>, size: number) => cpuPerMiB(before, after, size / MiB, GROUPS).byGroup;

/**
 * A request whose body is no stream, tried again once when the connection it reused was closed by
 * the server meanwhile (keep-alive timeout during a long hashing pass of this process).
 */
const call = async (url: string, init?: RequestInit): Promise<Response> => {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
};

/** Time of one pass of `f` over the run's bytes. */
const timed = async (size: number, f: (piece: Buffer) => void | Promise<void>) => {
  const t = performance.now();
  for (const piece of piecesOf(size)) await f(piece);
  return performance.now() - t;
};

const secureFetchSection: BenchSection = {
  name: 'secure-fetch',
  description: 'a Secure Fetch upload with MD5, SHA-1 and SHA3-512 through HTTP against SHA3-512 alone over the same bytes',
  async run(ctx) {
    const size = Number(process.env.BENCH_FETCH_MIB ?? 1024) * MiB;
    const patchBytes = Number(process.env.BENCH_FETCH_PATCH_MIB ?? 0) * MiB || size;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'axel-bench-fetch-'));
    const database = `bench_fetch_${randomBytes(4).toString('hex')}`;
    await ensureDatabase(ctx.serverUrl, database);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let child: ChildProcess | undefined;
    try {
      // ---- the product, in its own process ------------------------------------------------------
      child = spawnProduct({ databaseUrl: databaseUrlWithName(ctx.serverUrl, database), dataDir, port });
      await untilHealthy(base);
      const json = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
      const { cookie, userId, storageId } = await benchSignIn(base);
      const post = async (url: string, body: unknown) => {
        const res = await call(base + url, { method: 'POST', headers: { ...json, cookie }, body: JSON.stringify(body) });
        const answer = (await res.json().catch(() => null)) as Record<string, unknown> | null;
        if (res.status >= 300) throw new Error(`${url}: ${res.status} ${JSON.stringify(answer)}`);
        return answer!;
      };

      const newLink = async () => {
        const link = await post(`/api/users/${userId}/secure-fetches/`, { note: 'Bench upload', includeMetadata: false, certificate: true });
        return link.linkId as string;
      };
      let linkId = await newLink();
      const limits = (await (await fetch(`${base}/api/secure-fetch-links/${linkId}`)).json()) as { maxSize: number | null };
      if (limits.maxSize !== null && limits.maxSize < size) {
        // a file this large needs a plan with unlimited-shared-file-size: Professional, through the test payments
        const bought = await post(`/api/users/${userId}/products/`, { productId: 200 });
        const sessionId = decodeURIComponent(new URL(bought.checkoutLink as string).pathname.slice('/dev/checkout/'.length));
        await post(`/api/dev/checkout/${encodeURIComponent(sessionId)}/pay`, {});
        linkId = await newLink();
      }

      // ---- SHA3-512 alone over the same bytes, and the reference digests ------------------------
      const sha3Alone = async () => {
        const h = await createSHA3(512);
        h.init();
        const ms = await timed(size, (p) => void h.update(p));
        return { ms, hex: h.digest('hex') };
      };
      const nodeSha3 = createHash('sha3-512');
      const nodeMs = await timed(size, (p) => void nodeSha3.update(p));
      const reference = { sha3_512: nodeSha3.digest('hex'), md5: '', sha1: '' };
      const md5 = createHash('md5');
      const sha1 = createHash('sha1');
      for (const p of piecesOf(size)) {
        md5.update(p);
        sha1.update(p);
      }
      reference.md5 = md5.digest('hex');
      reference.sha1 = sha1.digest('hex');
      // the three in this process as the upload runs them (MD5, SHA-1 here, SHA3-512 on a worker), no HTTP
      const multi = await MultiHash.open();
      const multiMs = await timed(size, (p) => multi.update(p));
      const multiDigest = await multi.digest();
      if (multiDigest.sha3_512 !== reference.sha3_512 || multiDigest.md5 !== reference.md5) throw new Error('MultiHash disagrees with node:crypto');

      // ---- the upload through HTTP --------------------------------------------------------------
      const upload = async (metadata: string, headers: Record<string, string> = {}) => {
        const created = await call(`${base}/api/uploads/`, {
          method: 'POST',
          headers: { ...TUS, ...headers, 'upload-length': String(size), 'upload-metadata': metadata },
        });
        if (created.status !== 201) throw new Error(`upload refused: ${created.status} ${await created.text()}`);
        const location = created.headers.get('location')!;
        for (let offset = 0; offset < size; ) {
          const to = Math.min(size, offset + patchBytes);
          const sent = await fetch(base + location, {
            method: 'PATCH',
            headers: { ...TUS, ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
            body: bodyOf(offset, to),
            duplex: 'half',
          } as RequestInit);
          if (sent.status !== 204) throw new Error(`upload failed: ${sent.status} ${await sent.text()}`);
          offset = Number(sent.headers.get('upload-offset'));
        }
        return location.split('/').at(-1)!;
      };

      let peak = rssOf(child.pid!);
      const baseline = peak;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child!.pid!))), 50);
      // hash-wasm's SHA3-512 alone right before and right after the upload: on a busy machine the
      // rate moves, and the mean of the two brackets the upload
      const wasmBefore = await sha3Alone();
      if (reference.sha3_512 !== wasmBefore.hex) throw new Error('hash-wasm and node:crypto disagree on SHA3-512');
      const cpu0 = threadCpu(child.pid!, GROUPS);
      let t = performance.now();
      // anonymous: no cookie, only the link
      const uploadId = await upload(`secureFetchId ${Buffer.from(linkId).toString('base64')},filename ${Buffer.from('bench.bin').toString('base64')}`);
      const fetchMs = performance.now() - t;
      clearInterval(sampler);
      const fetchPeak = peak;
      const cpu1 = threadCpu(child.pid!, GROUPS);
      const wasmAfter = await sha3Alone();

      const receipt = await call(`${base}/api/shares/${linkId}/`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ files: [{ uploadId, name: 'bench.bin', size, mime: 'application/octet-stream' }] }),
      });
      const answer = (await receipt.json()) as { items?: { md5: string; sha1: string; sha3_512: string }[] };
      const item = answer.items?.[0];
      const equal = !!item && item.md5 === reference.md5 && item.sha1 === reference.sha1 && item.sha3_512 === reference.sha3_512;
      if (receipt.status !== 201 || !equal) throw new Error(`the receipt's hashes differ from node:crypto's: ${receipt.status} ${JSON.stringify(answer)}`);

      // the same bytes as a storage upload (SHA-256 only): what the certificate hashes cost
      const cpuStorage = threadCpu(child.pid!, GROUPS);
      t = performance.now();
      await upload(`storageId ${Buffer.from(storageId).toString('base64')}`, { cookie });
      const storageMs = performance.now() - t;
      const cpu2 = threadCpu(child.pid!, GROUPS);

      const wasmMs = (wasmBefore.ms + wasmAfter.ms) / 2;
      const wasm = mbps(size, wasmMs);
      const fetchRate = mbps(size, fetchMs);
      ctx.table(
        `Secure Fetch: ${size / MiB} MiB uploaded anonymously through HTTP with MD5, SHA-1 and SHA3-512 (${patchBytes === size ? 'one PATCH' : `PATCHes of ${patchBytes / MiB} MiB`})`,
        [
          { measure: 'SHA3-512 alone, hash-wasm, one thread (mean of before and after)', 'MB/s': fmt(wasm), 'upload / this': '' },
          { measure: 'SHA3-512 alone, node:crypto (OpenSSL), one thread', 'MB/s': fmt(mbps(size, nodeMs)), 'upload / this': '' },
          { measure: 'MD5 + SHA-1 here, SHA3-512 on a worker (MultiHash, no HTTP)', 'MB/s': fmt(mbps(size, multiMs)), 'upload / this': '' },
          { measure: 'storage upload through HTTP (SHA-256 only)', 'MB/s': fmt(mbps(size, storageMs)), 'upload / this': '' },
          { measure: 'Secure Fetch upload through HTTP, certificate hashes', 'MB/s': fmt(fetchRate), 'upload / this': '' },
          { measure: '  ratio to SHA3-512 alone (hash-wasm), target >= 0.8', 'MB/s': '', 'upload / this': `${fmt(fetchRate / wasm, 2)}x` },
          { measure: '  ratio to SHA3-512 alone (node:crypto)', 'MB/s': '', 'upload / this': `${fmt(fetchRate / mbps(size, nodeMs), 2)}x` },
        ],
        `The receipt's MD5, SHA-1 and SHA3-512 equal node:crypto's over the same bytes. SHA3-512 alone (hash-wasm): ${fmt(mbps(size, wasmBefore.ms))} MB/s before, ${fmt(mbps(size, wasmAfter.ms))} MB/s after the Secure Fetch upload. Server CPU ms per MiB by thread (the server's background work during the upload included, so a slower upload shows more of it): Secure Fetch upload: ${cpuSince(cpu0, cpu1, size)}; storage upload: ${cpuSince(cpuStorage, cpu2, size)}. Server peak RSS during the Secure Fetch upload: ${fmt(fetchPeak / MiB)} MiB (at start ${fmt(baseline / MiB)} MiB). ${os.cpus().length} cpu(s), load average ${os
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

export const secureFetchSections: BenchSection[] = [secureFetchSection];
