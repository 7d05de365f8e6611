import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The server key: from SECRET_KEY, else generated once and kept in the data directory. */
export const loadSecretKey = (given: string | undefined, dataDir: string): Buffer => {
  if (given) return Buffer.from(given, 'hex');
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex'), { mode: 0o600 });
  return key;
};

export interface Secrets {
  /** AES-256-GCM; output is `v1.<iv>.<tag>.<ciphertext>` in base64url. */
  encrypt(plaintext: string): string;
  decrypt(sealed: string): string;
  /** HMAC-SHA256 under a key derived from the server key, base64url: signs values the server hands out. */
  mac(value: string): string;
}

export const createSecrets = (key: Buffer): Secrets => ({
  encrypt(plaintext) {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ct].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  },
  decrypt(sealed) {
    const [v, iv, tag, ct] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || !ct) throw new Error('Unknown sealed format');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  },
  mac(value) {
    // a key of its own, so no MAC can ever be mistaken for material of the encryption key
    const macKey = createHmac('sha256', key).update('axel-mac-v1').digest();
    return createHmac('sha256', macKey).update(value).digest('base64url');
  },
});

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export const safeEqual = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Six digits, uniformly drawn. */
export const randomCode = (): string => String(randomBytes(4).readUInt32BE() % 1_000_000).padStart(6, '0');
