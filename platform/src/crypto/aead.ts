import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { NONCE_LENGTH, openInto, TAG_LENGTH } from './open-into.mjs';

/*
 * AES-256-GCM, the one cipher of encryption at rest. A random 96-bit nonce per message (never a
 * counter: keys are shared by processes), the 128-bit tag checked before any plaintext is trusted.
 * Three byte layouts exist, each used by data already stored, so none of them may ever change:
 *
 * - sealed (`seal`, `sealParts`, `open`, `openInto`): nonce(12) | ciphertext | tag(16), raw bytes.
 *   Chunks of files and upload tails (blobs/chunks.ts), file data keys wrapped by a master key
 *   (wrap.ts, `file_keys.wrapped_key`), upload hash states (`uploads.hash_state`).
 * - tag first (`sealTagFirst`, `openTagFirst`): nonce(12) | tag(16) | ciphertext, raw bytes (the
 *   event log keeps them in base64url). Personal fields of events (eventstore/personal-data.ts).
 * - token (`sealToken`, `openToken`): the text `v1.<nonce>.<tag>.<ciphertext>`, each part base64url,
 *   the plaintext UTF-8, no additional data. Server secrets (api/src/secrets.ts): TOTP secrets, mail
 *   parameters, and the data keys of personal fields (`pii_keys.wrapped_key`, the key in base64).
 *
 * Additional data binds a sealed value to where it belongs (its file key and chunk index, its event
 * and field), so one moved elsewhere does not open. Binary contexts are made with `context`.
 */

export { NONCE_LENGTH, TAG_LENGTH, openInto };
/** Bytes a seal adds to its plaintext, in every layout's raw bytes. */
export const SEAL_OVERHEAD = NONCE_LENGTH + TAG_LENGTH;
export const KEY_LENGTH = 32;

/** A new random AES-256 key. */
export const generateKey = (): Buffer => randomBytes(KEY_LENGTH);

/** Additional data naming what a value is and where it belongs: `label \0 part \0 part ...`. */
export const context = (label: string, ...parts: readonly (string | number)[]): Buffer => Buffer.from([label, ...parts].join('\0'));

const cipher = (key: Uint8Array, nonce: Uint8Array, aad: Uint8Array | undefined) => {
  const c = createCipheriv('aes-256-gcm', key, nonce);
  if (aad) c.setAAD(aad);
  return c;
};

const decipher = (key: Uint8Array, nonce: Uint8Array, tag: Uint8Array, aad: Uint8Array | undefined) => {
  const d = createDecipheriv('aes-256-gcm', key, nonce);
  if (aad) d.setAAD(aad);
  d.setAuthTag(tag);
  return d;
};

const view = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The sealed layout as its three parts (nonce, ciphertext, tag): stored one after the other they are
 * the sealed bytes, so a caller that writes them out as they are never copies the ciphertext again.
 */
export const sealParts = (key: Uint8Array, plaintext: Uint8Array, aad?: Uint8Array): [nonce: Buffer, ciphertext: Buffer, tag: Buffer] => {
  const nonce = randomBytes(NONCE_LENGTH);
  const c = cipher(key, nonce, aad);
  const ciphertext = c.update(plaintext);
  // GCM holds nothing back: final() only computes the tag
  c.final();
  return [nonce, ciphertext, c.getAuthTag()];
};

/** nonce | ciphertext | tag. */
export const seal = (key: Uint8Array, plaintext: Uint8Array, aad?: Uint8Array): Buffer => Buffer.concat(sealParts(key, plaintext, aad));

/** Opens nonce | ciphertext | tag; throws when the tag does not match (another key, other additional data, a changed byte). */
export const open = (key: Uint8Array, sealed: Uint8Array, aad?: Uint8Array): Buffer => {
  if (sealed.byteLength < SEAL_OVERHEAD) throw new Error('sealed data too short');
  const bytes = view(sealed);
  const d = decipher(key, bytes.subarray(0, NONCE_LENGTH), bytes.subarray(bytes.length - TAG_LENGTH), aad);
  const plaintext = d.update(bytes.subarray(NONCE_LENGTH, bytes.length - TAG_LENGTH));
  d.final();
  return plaintext;
};

/** nonce | tag | ciphertext. */
export const sealTagFirst = (key: Uint8Array, plaintext: Uint8Array, aad?: Uint8Array): Buffer => {
  const [nonce, ciphertext, tag] = sealParts(key, plaintext, aad);
  return Buffer.concat([nonce, tag, ciphertext]);
};

/** Opens nonce | tag | ciphertext. */
export const openTagFirst = (key: Uint8Array, sealed: Uint8Array, aad?: Uint8Array): Buffer => {
  if (sealed.byteLength < SEAL_OVERHEAD) throw new Error('sealed data too short');
  const bytes = view(sealed);
  const d = decipher(key, bytes.subarray(0, NONCE_LENGTH), bytes.subarray(NONCE_LENGTH, SEAL_OVERHEAD), aad);
  return Buffer.concat([d.update(bytes.subarray(SEAL_OVERHEAD)), d.final()]);
};

const TOKEN_VERSION = 'v1';

/** `v1.<nonce>.<tag>.<ciphertext>`, base64url. (An empty text seals to a token `openToken` refuses, as it always has.) */
export const sealToken = (key: Uint8Array, text: string): string => {
  const [nonce, ciphertext, tag] = sealParts(key, Buffer.from(text, 'utf8'));
  return [TOKEN_VERSION, nonce, tag, ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
};

/** Opens a `v1.` token; throws on any other format or a tag that does not match. */
export const openToken = (key: Uint8Array, token: string): string => {
  const [version, nonce, tag, ciphertext] = token.split('.');
  if (version !== TOKEN_VERSION || !nonce || !tag || !ciphertext) throw new Error('Unknown sealed format');
  const d = decipher(key, Buffer.from(nonce, 'base64url'), Buffer.from(tag, 'base64url'), undefined);
  return Buffer.concat([d.update(Buffer.from(ciphertext, 'base64url')), d.final()]).toString('utf8');
};
