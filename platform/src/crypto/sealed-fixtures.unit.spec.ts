import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchShared, openShared, sharedReadBuffer } from '../blobs/chunk-pool';
import { CHUNK_PLAIN_SIZE, chunkAad, decryptChunk, encryptChunk, encryptChunkParts, openTail, sealTail } from '../blobs/chunks';
import { cidOf } from '../blobs/cid';
import { noncesLeft, useNonces } from './fixtures/fixed-nonces';
import { chunkFixture as f, fullChunkByte } from './fixtures/sealed';

vi.mock('node:crypto', async (importOriginal) =>
  (await import('./fixtures/fixed-nonces')).withFixedNonces(await importOriginal<typeof import('node:crypto')>()),
);

const hex = (s: string) => Buffer.from(s, 'hex');
const key = hex(f.key);
const fullPlaintext = () => {
  const plain = Buffer.alloc(CHUNK_PLAIN_SIZE);
  for (let i = 0; i < plain.length; i++) plain[i] = fullChunkByte(i);
  return plain;
};
const shared = (bytes: Uint8Array) => {
  const buffer = sharedReadBuffer(bytes.byteLength);
  buffer.set(bytes);
  return buffer;
};

afterEach(() => expect(noncesLeft()).toBe(0));

describe('chunks and upload tails written before read unchanged, and seal to the same bytes', () => {
  it('a full chunk', () => {
    useNonces(f.full.nonce);
    const sealed = encryptChunk(key, f.keyId, f.full.index, fullPlaintext(), false);
    expect(sealed.length).toBe(f.full.length);
    expect(createHash('sha256').update(sealed).digest('hex')).toBe(f.full.sha256);
    expect(decryptChunk(key, f.keyId, f.full.index, sealed, CHUNK_PLAIN_SIZE).equals(fullPlaintext())).toBe(true);
    useNonces(f.full.nonce);
    const parts = encryptChunkParts(key, f.keyId, f.full.index, fullPlaintext(), false);
    expect(Buffer.concat(parts).equals(sealed)).toBe(true);
  });

  it('a padded last chunk', () => {
    const plain = Buffer.from(f.last.plaintext);
    expect(decryptChunk(key, f.keyId, f.last.index, hex(f.last.sealed), plain.length).toString()).toBe(f.last.plaintext);
    useNonces(f.last.nonce);
    expect(encryptChunk(key, f.keyId, f.last.index, plain, true).toString('hex')).toBe(f.last.sealed);
  });

  it('an upload tail', () => {
    expect(openTail(key, f.keyId, f.tail.index, hex(f.tail.sealed)).toString()).toBe(f.tail.plaintext);
    useNonces(f.tail.nonce);
    expect(sealTail(key, f.keyId, f.tail.index, Buffer.from(f.tail.plaintext)).toString('hex')).toBe(f.tail.sealed);
  });

  it('a chunk worker opens the chunks written before, in a buffer of its own and in place', async () => {
    const aad = chunkAad(f.keyId, f.last.index);
    const length = Buffer.byteLength(f.last.plaintext);
    expect((await openShared(key, aad, shared(hex(f.last.sealed)), length)).toString()).toBe(f.last.plaintext);
    expect((await openShared(key, aad, shared(hex(f.last.sealed)), length, true)).toString()).toBe(f.last.plaintext);
    useNonces(f.full.nonce);
    const full = encryptChunk(key, f.keyId, f.full.index, fullPlaintext(), false);
    const opened = await openShared(key, chunkAad(f.keyId, f.full.index), shared(full), CHUNK_PLAIN_SIZE, true);
    expect(opened.equals(fullPlaintext())).toBe(true);
  });

  it('a chunk worker reads a replica written before from its file, verifies and opens it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'axel-sealed-'));
    const file = path.join(dir, 'replica');
    writeFileSync(file, hex(f.last.sealed));
    const target = sharedReadBuffer(hex(f.last.sealed).length + 1);
    const length = Buffer.byteLength(f.last.plaintext);
    const { passedOver, found } = await fetchShared([file], cidOf(hex(f.last.sealed)), false, key, chunkAad(f.keyId, f.last.index), target, length);
    expect(passedOver).toEqual([]);
    expect(found?.toString()).toBe(f.last.plaintext);
  });
});
