import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Stored size of every chunk but the last: 1 MiB of ciphertext, within IPFS's block limit. */
export const CHUNK_SIZE = 1024 * 1024;
const NONCE = 12;
const TAG = 16;
export const CHUNK_OVERHEAD = NONCE + TAG;
/** Plaintext bytes per chunk. */
export const CHUNK_PLAIN_SIZE = CHUNK_SIZE - CHUNK_OVERHEAD;
/** The last chunk is padded so its stored size is a multiple of this: stored sizes do not give away exact file sizes. */
export const PAD_TO = 4096;

/** Binds a chunk to its file key and its place in the file: swapped or reordered chunks fail to decrypt. */
export const chunkAad = (keyId: string, index: number) => Buffer.from(`axel-chunk\0${keyId}\0${index}`);
const tailAad = (keyId: string, index: number) => Buffer.from(`axel-upload-tail\0${keyId}\0${index}`);

/** Nonce, ciphertext and tag as three buffers: stored one after the other, they are the sealed bytes. */
const sealParts = (key: Buffer, aad: Buffer, plaintext: Uint8Array): [Buffer, Buffer, Buffer] => {
  // a random 96-bit nonce per chunk under a per-file key: far below the 2^32 messages GCM allows per key
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(aad);
  const body = cipher.update(plaintext);
  cipher.final();
  return [nonce, body, cipher.getAuthTag()];
};

const seal = (key: Buffer, aad: Buffer, plaintext: Uint8Array): Buffer => Buffer.concat(sealParts(key, aad, plaintext));

const open = (key: Buffer, aad: Buffer, sealed: Uint8Array): Buffer => {
  if (sealed.byteLength < CHUNK_OVERHEAD) throw new Error('sealed data too short');
  const buf = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  const decipher = createDecipheriv('aes-256-gcm', key, buf.subarray(0, NONCE));
  decipher.setAAD(aad);
  decipher.setAuthTag(buf.subarray(buf.length - TAG));
  const plain = decipher.update(buf.subarray(NONCE, buf.length - TAG));
  decipher.final();
  return plain;
};

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
  return sealParts(key, chunkAad(keyId, index), body);
};

/** Encrypts one chunk; a last chunk is zero-padded up to a multiple of 4 KiB of stored size. */
export const encryptChunk = (key: Buffer, keyId: string, index: number, plaintext: Uint8Array, last: boolean): Buffer =>
  Buffer.concat(encryptChunkParts(key, keyId, index, plaintext, last));

/** Decrypts and authenticates one chunk; `plainLength` drops the padding of a last chunk. */
export const decryptChunk = (key: Buffer, keyId: string, index: number, stored: Uint8Array, plainLength: number): Buffer =>
  open(key, chunkAad(keyId, index), stored).subarray(0, plainLength);

/** The bytes of an upload that do not fill a chunk yet, kept between requests: encrypted too. */
export const sealTail = (key: Buffer, keyId: string, index: number, plaintext: Uint8Array) => seal(key, tailAad(keyId, index), plaintext);
export const openTail = (key: Buffer, keyId: string, index: number, sealed: Uint8Array) => open(key, tailAad(keyId, index), sealed);

/** Plaintext length of chunk `index` of a file of `size` bytes. */
export const plainLengthOf = (size: number, index: number, chunkPlainSize = CHUNK_PLAIN_SIZE) =>
  Math.max(0, Math.min(chunkPlainSize, size - index * chunkPlainSize));
