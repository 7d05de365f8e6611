import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { checkpointMessage } from './chain';

/** PKCS#8 prefix of an Ed25519 private key; the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface AuditVerifyingKey {
  readonly publicKey: KeyObject;
  /** First 16 hex digits of the SHA-256 of the public key's SPKI DER: names the key in checkpoints. */
  readonly keyId: string;
  readonly publicKeyPem: string;
}

export interface AuditSigningKey extends AuditVerifyingKey {
  sign(uptoPosition: number, link: Buffer): Buffer;
  /** Ed25519 over any message (Secure Fetch receipts are signed by the same key). */
  signMessage(message: Buffer): Buffer;
}

export const verifyingKey = (publicKey: KeyObject): AuditVerifyingKey => {
  if (publicKey.asymmetricKeyType !== 'ed25519') throw new Error('the audit key must be an Ed25519 key');
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return {
    publicKey,
    keyId: createHash('sha256').update(der).digest('hex').slice(0, 16),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
};

/** A public key from PEM text (SPKI), or from an Ed25519 private key in PEM. */
export const parsePublicKey = (pem: string): AuditVerifyingKey => {
  const text = pem.trim();
  const key = text.includes('PRIVATE KEY') ? createPublicKey(createPrivateKey(text)) : createPublicKey(text);
  return verifyingKey(key);
};

const signingKey = (privateKey: KeyObject): AuditSigningKey => {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('AUDIT_SIGNING_KEY must be an Ed25519 key');
  const base = verifyingKey(createPublicKey(privateKey));
  return {
    ...base,
    sign: (upto, link) => sign(null, checkpointMessage(upto, link), privateKey),
    signMessage: (message) => sign(null, message, privateKey),
  };
};

/** `AUDIT_SIGNING_KEY`: a PEM Ed25519 private key, or its 32-byte seed as 64 hex digits. */
export const parseSigningKey = (value: string): AuditSigningKey => {
  const text = value.trim();
  if (/^[0-9a-f]{64}$/i.test(text)) {
    return signingKey(createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(text, 'hex')]), format: 'der', type: 'pkcs8' }));
  }
  return signingKey(createPrivateKey(text.replace(/\\n/g, '\n')));
};

export const AUDIT_KEY_FILE = 'audit-signing.key';

/** The configured key, else the one kept in `dataDir`, generated there (mode 0600) on first use. */
export const loadSigningKey = (configured: string | undefined, dataDir: string): AuditSigningKey => {
  if (configured) return parseSigningKey(configured);
  const file = path.join(dataDir, AUDIT_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    try {
      fs.writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // another process of this installation wrote it first: use theirs
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return parseSigningKey(fs.readFileSync(file, 'utf8'));
};

export const verifyCheckpoint = (key: AuditVerifyingKey, uptoPosition: number, link: Buffer, signature: Buffer): boolean => {
  try {
    return verify(null, checkpointMessage(uptoPosition, link), key.publicKey, signature);
  } catch {
    return false;
  }
};
