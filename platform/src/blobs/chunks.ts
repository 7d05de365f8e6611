import { context, open, SEAL_OVERHEAD, seal, sealParts } from '../crypto';

/** Stored size of every chunk but the last: 1 MiB of ciphertext, within IPFS's block limit. */
export const CHUNK_SIZE = 1024 * 1024;
/** A chunk is the sealed layout (nonce | ciphertext | tag) of crypto/aead.ts. */
export const CHUNK_OVERHEAD = SEAL_OVERHEAD;
/** Plaintext bytes per chunk. */
export const CHUNK_PLAIN_SIZE = CHUNK_SIZE - CHUNK_OVERHEAD;
/** The last chunk is padded so its stored size is a multiple of this: stored sizes do not give away exact file sizes. */
export const PAD_TO = 4096;

/** Binds a chunk to its file key and its place in the file: swapped or reordered chunks fail to decrypt. */
export const chunkAad = (keyId: string, index: number) => context('axel-chunk', keyId, index);
const tailAad = (keyId: string, index: number) => context('axel-upload-tail', keyId, index);

/** Stored size of a last chunk holding `plainLength` bytes. */
export const paddedChunkSize = (plainLength: number) => Math.ceil((plainLength + CHUNK_OVERHEAD) / PAD_TO) * PAD_TO;

/**
 * Encrypts one chunk into its stored parts (nonce, ciphertext, tag), the ciphertext never copied
 * again to join them; a last chunk is zero-padded up to a multiple of 4 KiB of stored size.
 */
export const encryptChunkParts = (key: Buffer, keyId: string, index: number, plaintext: Uint8Array, last: boolean): [Buffer, Buffer, Buffer] => {
  if (plaintext.byteLength > CHUNK_PLAIN_SIZE) throw new Error('chunk too large');
  let body = plaintext;
  if (last) {
    const padded = Buffer.alloc(paddedChunkSize(plaintext.byteLength) - CHUNK_OVERHEAD);
    padded.set(plaintext);
    body = padded;
  } else if (plaintext.byteLength !== CHUNK_PLAIN_SIZE) {
    throw new Error('only the last chunk may be short');
  }
  // a random 96-bit nonce per chunk under a per-file key: far below the 2^32 messages GCM allows per key
  return sealParts(key, body, chunkAad(keyId, index));
};

/** Encrypts one chunk; a last chunk is zero-padded up to a multiple of 4 KiB of stored size. */
export const encryptChunk = (key: Buffer, keyId: string, index: number, plaintext: Uint8Array, last: boolean): Buffer =>
  Buffer.concat(encryptChunkParts(key, keyId, index, plaintext, last));

/** Decrypts and authenticates one chunk; `plainLength` drops the padding of a last chunk. */
export const decryptChunk = (key: Buffer, keyId: string, index: number, stored: Uint8Array, plainLength: number): Buffer =>
  open(key, stored, chunkAad(keyId, index)).subarray(0, plainLength);

/** The bytes of an upload that do not fill a chunk yet, kept between requests: encrypted too. */
export const sealTail = (key: Buffer, keyId: string, index: number, plaintext: Uint8Array) => seal(key, plaintext, tailAad(keyId, index));
export const openTail = (key: Buffer, keyId: string, index: number, sealed: Uint8Array) => open(key, sealed, tailAad(keyId, index));

/** Plaintext length of chunk `index` of a file of `size` bytes. */
export const plainLengthOf = (size: number, index: number, chunkPlainSize = CHUNK_PLAIN_SIZE) =>
  Math.max(0, Math.min(chunkPlainSize, size - index * chunkPlainSize));
