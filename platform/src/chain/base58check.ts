import { createHash } from 'node:crypto';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();

export const base58Encode = (bytes: Buffer): string => {
  let value = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (value > 0n) {
    out = ALPHABET[Number(value % 58n)]! + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
};

export const base58Decode = (text: string): Buffer | null => {
  let value = 0n;
  for (const ch of text) {
    const digit = ALPHABET.indexOf(ch);
    if (digit < 0) return null;
    value = value * 58n + BigInt(digit);
  }
  let hex = value === 0n ? '' : value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const leading = /^1*/.exec(text)![0].length;
  return Buffer.concat([Buffer.alloc(leading), Buffer.from(hex, 'hex')]);
};

/** Payload plus the first 4 bytes of its double SHA-256, in base58. */
export const base58CheckEncode = (payload: Buffer): string => base58Encode(Buffer.concat([payload, sha256(sha256(payload)).subarray(0, 4)]));

export const base58CheckDecode = (text: string): Buffer | null => {
  const bytes = base58Decode(text);
  if (!bytes || bytes.length < 5) return null;
  const payload = bytes.subarray(0, -4);
  return sha256(sha256(payload)).subarray(0, 4).equals(bytes.subarray(-4)) ? payload : null;
};

/**
 * The development chain's version byte: 140, Dash's testnet prefix, so every address starts with
 * `y` and is exactly 34 characters (a 25-byte payload starting with 140 always encodes to 34).
 */
export const DEV_ADDRESS_VERSION = 140;

/** A deterministic address for a label: version byte and the RIPEMD-160 of its SHA-256, as P2PKH does. */
export const developmentAddress = (label: string): string => {
  const hash160 = createHash('ripemd160')
    .update(sha256(Buffer.from(`axel-dev-address\0${label}`)))
    .digest();
  return base58CheckEncode(Buffer.concat([Buffer.from([DEV_ADDRESS_VERSION]), hash160]));
};

export const isDevelopmentAddress = (text: string): boolean => {
  const payload = base58CheckDecode(text);
  return payload !== null && payload.length === 21 && payload[0] === DEV_ADDRESS_VERSION;
};
