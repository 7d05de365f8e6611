import { createHash } from 'node:crypto';

/**
 * CIDv1, raw codec (0x55), sha2-256 multihash (0x12, 32 bytes), multibase base32 lower ('b'):
 * the very identifier IPFS gives the same bytes, so stored chunks can be handed to IPFS as they are.
 */
const CID_PREFIX = Buffer.from([0x01, 0x55, 0x12, 0x20]);
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32, lower case, without padding. */
export const base32 = (bytes: Uint8Array): string => {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
};

export const cidOfDigest = (sha256: Uint8Array): string => `b${base32(Buffer.concat([CID_PREFIX, sha256]))}`;

/** The SHA-256 digest a CID of this store names (the inverse of `cidOfDigest`). */
export const digestOfCid = (cid: string): Buffer => {
  if (!isChunkCid(cid)) throw new Error('not a chunk CID');
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of cid.slice(1)) {
    value = (value << 5) | ALPHABET.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  const decoded = Buffer.from(bytes);
  if (!decoded.subarray(0, CID_PREFIX.length).equals(CID_PREFIX) || decoded.length !== CID_PREFIX.length + 32) throw new Error('not a chunk CID');
  return decoded.subarray(CID_PREFIX.length);
};

/** The CID of a blob's bytes, given whole or as parts (hashed in place, never joined). */
export const cidOf = (bytes: Uint8Array | readonly Uint8Array[]): string => {
  const hash = createHash('sha256');
  if (bytes instanceof Uint8Array) hash.update(bytes);
  else for (const part of bytes) hash.update(part);
  return cidOfDigest(hash.digest());
};

/** A CID this store can have produced (shape only): keeps foreign strings out of file paths and keys. */
export const isChunkCid = (cid: string): boolean => /^bafkrei[a-z2-7]{52}$/.test(cid);
