import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { checkpointMessage, type ChainVersion } from './chain';

/** PKCS#8 prefix of an Ed25519 private key; the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface AuditVerifyingKey {
  readonly publicKey: KeyObject;
  /** First 16 hex digits of the SHA-256 of the public key's SPKI DER: names the key in checkpoints. */
  readonly keyId: string;
  readonly publicKeyPem: string;
}

export interface AuditSigningKey extends AuditVerifyingKey {
  /** Signs a checkpoint of the given chain version (1 unless named). */
  sign(uptoPosition: number, link: Buffer, chain?: ChainVersion): Buffer;
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
    sign: (upto, link, chain) => sign(null, checkpointMessage(upto, link, chain), privateKey),
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

export const verifyCheckpoint = (key: AuditVerifyingKey, uptoPosition: number, link: Buffer, signature: Buffer, chain: ChainVersion = 1): boolean => {
  try {
    return verify(null, checkpointMessage(uptoPosition, link, chain), key.publicKey, signature);
  } catch {
    return false;
  }
};

/** The public keys a verifier accepts: the current one first, then the keys it replaced. */
export type AuditKeys = AuditVerifyingKey | readonly AuditVerifyingKey[];
export const keyList = (keys: AuditKeys): readonly AuditVerifyingKey[] => (Array.isArray(keys) ? keys : [keys as AuditVerifyingKey]);
export const keyById = (keys: AuditKeys, keyId: string): AuditVerifyingKey | undefined => keyList(keys).find((k) => k.keyId === keyId);

const PEM_BLOCK = /-----BEGIN ((?:ED25519 )?(?:PUBLIC|PRIVATE) KEY)-----[\s\S]*?-----END \1-----/g;

/**
 * Every key in a text of PEM blocks (public keys, or Ed25519 private keys whose public half is
 * taken), in order, each key once; text outside the blocks (key id lines) is ignored. Also reads
 * the JSON form of `/.well-known/audit-key` (`{ keys: [{ keyId, publicKey }] }`).
 */
export const parsePublicKeys = (text: string): AuditVerifyingKey[] => {
  const trimmed = text.trim();
  let blocks: string[];
  if (trimmed.startsWith('{')) {
    const parsed = JSON.parse(trimmed) as { keys?: { publicKey?: unknown }[] };
    blocks = (parsed.keys ?? []).map((k) => (typeof k.publicKey === 'string' ? k.publicKey : ''));
  } else {
    blocks = trimmed.replace(/\\n/g, '\n').match(PEM_BLOCK) ?? [];
  }
  if (blocks.length === 0) throw new Error('no PEM key in it');
  const keys: AuditVerifyingKey[] = [];
  for (const block of blocks) {
    const key = parsePublicKey(block);
    if (!keys.some((k) => k.keyId === key.keyId)) keys.push(key);
  }
  return keys;
};

/** Where the embedded default keeps the public keys of the signing keys it retired, newest first. */
export const AUDIT_PREVIOUS_KEYS_FILE = 'audit-previous-keys.pem';

export interface AuditKeyring {
  /** Signs new checkpoints. */
  readonly signing: AuditSigningKey;
  /** Every key a checkpoint may be signed by: the signing key first, then the retired ones. */
  readonly keys: readonly AuditVerifyingKey[];
}

/** A text of public keys, each block after a line naming its id, as `/.well-known/audit-key?keys=all` serves it. */
export const keyringPem = (keys: readonly AuditVerifyingKey[], currentKeyId?: string): string =>
  keys.map((k) => `Key id: ${k.keyId} (${k.keyId === currentKeyId ? 'current' : 'previous'})\n${k.publicKeyPem.trim()}\n`).join('');

/**
 * The signing key (as `loadSigningKey`) and the keys it replaced: `previousConfigured` (PEM public
 * keys, `AUDIT_PREVIOUS_KEYS`) and, on the embedded default, those `rotateSigningKey` retired into
 * `DATA_DIR/audit-previous-keys.pem`.
 */
export const loadKeyring = (configured: string | undefined, previousConfigured: string | undefined, dataDir: string): AuditKeyring => {
  const signing = loadSigningKey(configured, dataDir);
  const keys: AuditVerifyingKey[] = [signing];
  const texts = [previousConfigured];
  const file = path.join(dataDir, AUDIT_PREVIOUS_KEYS_FILE);
  if (!configured && fs.existsSync(file)) texts.push(fs.readFileSync(file, 'utf8'));
  for (const text of texts) {
    if (!text?.trim()) continue;
    for (const key of parsePublicKeys(text)) if (!keys.some((k) => k.keyId === key.keyId)) keys.push(key);
  }
  return { signing, keys };
};

/**
 * Rotation on the embedded default: a new signing key replaces `DATA_DIR/audit-signing.key` (written
 * beside it and renamed over it, so a crash leaves one or the other) after the old key's public half
 * is put first in `DATA_DIR/audit-previous-keys.pem`, so checkpoints it signed still verify. The old
 * private key is not kept: nothing can sign as it any more.
 */
export const rotateSigningKey = (dataDir: string): { retired: AuditVerifyingKey; current: AuditSigningKey } => {
  const retired = loadSigningKey(undefined, dataDir);
  const previousFile = path.join(dataDir, AUDIT_PREVIOUS_KEYS_FILE);
  const before = fs.existsSync(previousFile) ? parsePublicKeys(fs.readFileSync(previousFile, 'utf8')) : [];
  const previous = [retired, ...before.filter((k) => k.keyId !== retired.keyId)];
  const tmpPrevious = `${previousFile}.tmp`;
  fs.writeFileSync(tmpPrevious, keyringPem(previous), { mode: 0o644 });
  fs.renameSync(tmpPrevious, previousFile);
  const keyFile = path.join(dataDir, AUDIT_KEY_FILE);
  const tmpKey = `${keyFile}.tmp`;
  const { privateKey } = generateKeyPairSync('ed25519');
  fs.writeFileSync(tmpKey, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  fs.renameSync(tmpKey, keyFile);
  return { retired, current: loadSigningKey(undefined, dataDir) };
};
