import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BlobStore } from './blobstore';
import { cidOf } from './cid';

/** What every blob-store adapter promises; run against each adapter that can start here. */
export const blobStoreContract = (name: string, open: () => BlobStore) => {
  describe(`blob store contract: ${name}`, () => {
    const blob = (size = 4096) => {
      const bytes = randomBytes(size);
      return { bytes, cid: cidOf(bytes) };
    };

    it('gives back exactly the bytes it was given, under their CID', async () => {
      const store = open();
      const { bytes, cid } = blob(1024 * 1024);
      await store.put(cid, bytes);
      expect(await store.has(cid)).toBe(true);
      const back = await store.get(cid);
      expect(back && Buffer.compare(back, bytes)).toBe(0);
    });

    it('stores a blob given in parts (a sealed chunk: nonce, body, tag) as the parts joined, under the CID of the whole', async () => {
      const store = open();
      const parts = [randomBytes(12), randomBytes(300_000), new Uint8Array(0), randomBytes(16)];
      const whole = Buffer.concat(parts);
      const cid = cidOf(parts);
      expect(cid).toBe(cidOf(whole));
      await store.put(cid, parts);
      const back = await store.get(cid);
      expect(back && Buffer.compare(back, whole)).toBe(0);
    });

    it('stores full and padded sealed chunks given in parts, many at once, each as its parts joined', async () => {
      const store = open();
      // 1 MiB (a full chunk) and whole 4 KiB blocks (a padded last chunk), ten puts at once: more
      // than a store writes in one way at a time, so every way a store has is used
      const sizes = [1024 * 1024, 8192, 1024 * 1024, 4096, 1024 * 1024, 65536, 1024 * 1024, 1024 * 1024, 12288, 1024 * 1024];
      const chunks = sizes.map((size) => {
        const parts = [randomBytes(12), randomBytes(size - 28), randomBytes(16)];
        return { parts, whole: Buffer.concat(parts), cid: cidOf(parts) };
      });
      await Promise.all(chunks.map((c) => store.put(c.cid, c.parts)));
      for (const c of chunks) {
        const back = await store.get(c.cid);
        expect(back && Buffer.compare(back, c.whole)).toBe(0);
      }
    });

    // only adapters that can read into a caller's buffer (local folders); the others are read whole
    it.skipIf(!open().readInto)('reads a blob into a given buffer, a larger buffer showing its exact length; null for a blob it does not hold', async () => {
      const store = open();
      const { bytes, cid } = blob(70_000);
      await store.put(cid, bytes);
      const target = Buffer.alloc(100_000);
      const read = await store.readInto!(cid, target);
      expect(read).toBe(70_000);
      expect(Buffer.compare(target.subarray(0, read!), bytes)).toBe(0);
      expect(await store.readInto!(blob().cid, target)).toBeNull();
      // a buffer too small is filled, no more
      expect(await store.readInto!(cid, Buffer.alloc(1000))).toBe(1000);
    });

    it('answers null and false for a blob it does not hold', async () => {
      const store = open();
      const { cid } = blob();
      expect(await store.get(cid)).toBeNull();
      expect(await store.has(cid)).toBe(false);
    });

    it('stores the same CID twice as once', async () => {
      const store = open();
      const { bytes, cid } = blob();
      await store.put(cid, bytes);
      await store.put(cid, bytes);
      const listed = [];
      for await (const c of store.list()) if (c === cid) listed.push(c);
      expect(listed).toEqual([cid]);
      expect(Buffer.compare((await store.get(cid))!, bytes)).toBe(0);
    });

    it('deletes, and deleting a missing blob is a no-op', async () => {
      const store = open();
      const { bytes, cid } = blob();
      await store.put(cid, bytes);
      await store.delete(cid);
      expect(await store.get(cid)).toBeNull();
      await expect(store.delete(cid)).resolves.toBeUndefined();
    });

    it('lists every blob it holds and counts them in its usage', async () => {
      const store = open();
      const before = await store.usage();
      const blobs = [blob(100), blob(5000), blob(4096)];
      for (const b of blobs) await store.put(b.cid, b.bytes);
      const listed = new Set<string>();
      for await (const c of store.list()) listed.add(c);
      for (const b of blobs) expect(listed.has(b.cid)).toBe(true);
      const after = await store.usage();
      expect(after.chunks - before.chunks).toBe(3);
      expect(after.bytes - before.bytes).toBe(100 + 5000 + 4096);
    });

    it('refuses ids that are not chunk CIDs (no path or key tricks)', async () => {
      const store = open();
      await expect(store.put('../../etc/passwd', Buffer.from('x'))).rejects.toThrow();
      await expect(store.get('bafkrei/../x')).rejects.toThrow();
    });
  });
};
