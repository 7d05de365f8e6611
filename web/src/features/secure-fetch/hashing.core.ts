import { createMD5, createSHA1, createSHA3 } from 'hash-wasm';

/** The three hashes of a Secure Fetch certificate, lowercase hex, as the server names them. */
export interface FileHashes {
  md5: string;
  sha1: string;
  sha3_512: string;
}

export const HASH_NAMES = ['md5', 'sha1', 'sha3_512'] as const;
export type HashName = (typeof HASH_NAMES)[number];

/** Bytes read from the file at a time: the three hashers see each slice once. */
export const HASH_SLICE_BYTES = 4 * 1024 * 1024;

/**
 * MD5, SHA-1 and SHA3-512 of a file in one pass over its bytes, a slice at a time, so a large file
 * is never held in memory whole. `onProgress` hears the bytes hashed so far.
 */
export const hashBlob = async (blob: Blob, onProgress?: (bytesHashed: number) => void): Promise<FileHashes> => {
  const [md5, sha1, sha3] = await Promise.all([createMD5(), createSHA1(), createSHA3(512)]);
  md5.init();
  sha1.init();
  sha3.init();
  for (let offset = 0; offset < blob.size; offset += HASH_SLICE_BYTES) {
    const bytes = new Uint8Array(await blob.slice(offset, offset + HASH_SLICE_BYTES).arrayBuffer());
    md5.update(bytes);
    sha1.update(bytes);
    sha3.update(bytes);
    onProgress?.(Math.min(blob.size, offset + bytes.byteLength));
  }
  return { md5: md5.digest('hex'), sha1: sha1.digest('hex'), sha3_512: sha3.digest('hex') };
};

/** The messages between the page and the hashing worker. */
export type HashRequest = { id: number; file: Blob };
export type HashReply =
  | { id: number; type: 'progress'; bytesHashed: number }
  | { id: number; type: 'done'; hashes: FileHashes }
  | { id: number; type: 'failed'; message: string };
