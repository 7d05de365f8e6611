import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { context, deriveKey, generateKey, hmac, open, openToken, seal, sealToken } from '@axel/platform/crypto/index';

/** The server key: from SECRET_KEY, else generated once and kept in the data directory. */
export const loadSecretKey = (given: string | undefined, dataDir: string): Buffer => {
  if (given) return Buffer.from(given, 'hex');
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  mkdirSync(dataDir, { recursive: true });
  const key = generateKey();
  writeFileSync(file, key.toString('hex'), { mode: 0o600 });
  return key;
};

export interface Secrets {
  /** AES-256-GCM, the token layout of crypto/aead.ts: `v1.<iv>.<tag>.<ciphertext>` in base64url. */
  encrypt(plaintext: string): string;
  decrypt(sealed: string): string;
  /** HMAC-SHA256 under a key derived from the server key, base64url: signs values the server hands out. */
  mac(value: string): string;
  /** AES-256-GCM over bytes (nonce, ciphertext, tag), bound to `label`: a sealed value opens only under the same label. */
  sealBytes(plaintext: Uint8Array, label: string): Buffer;
  openBytes(sealed: Uint8Array, label: string): Buffer;
}

export const createSecrets = (key: Buffer): Secrets => {
  // a key of its own, so no MAC can ever be mistaken for material of the encryption key
  const macKey = deriveKey(key, 'axel-mac-v1');
  return {
    encrypt: (plaintext) => sealToken(key, plaintext),
    decrypt: (sealed) => openToken(key, sealed),
    mac: (value) => hmac(macKey, value).toString('base64url'),
    sealBytes: (plaintext, label) => seal(key, plaintext, context('axel-bytes-v1', label)),
    openBytes: (sealed, label) => open(key, sealed, context('axel-bytes-v1', label)),
  };
};

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export const safeEqual = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Six digits, uniformly drawn. */
export const randomCode = (): string => String(randomBytes(4).readUInt32BE() % 1_000_000).padStart(6, '0');
