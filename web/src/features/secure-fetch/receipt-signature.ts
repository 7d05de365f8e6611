import { canonicalJson } from './canonical';
import type { Receipt } from './receipt';

/**
 * Where the server publishes the Ed25519 public keys that sign receipts: with `keys=all` and
 * `Accept: application/json`, every key a receipt may be signed by (the current one and the ones it
 * replaced), as `{ current, keys: [{ keyId, publicKey (PEM, SPKI) }] }`.
 */
export const SIGNING_KEY_URL = '/.well-known/audit-key';
export const SIGNING_KEYS_URL = `${SIGNING_KEY_URL}?keys=all`;

/** A key of the server's keyring as published. */
export interface PublishedKey {
  keyId: string;
  publicKey: string;
}

/** The keys of a `SIGNING_KEYS_URL` answer (an unusable answer lists none). */
export const publishedKeys = (answer: unknown): PublishedKey[] => {
  const keys = (answer as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) return [];
  return keys.filter((k): k is PublishedKey => typeof k?.keyId === 'string' && typeof k?.publicKey === 'string');
};

/** The text the receipt's signature covers: the canonical JSON of its fetch id, items and arrival time. */
export const receiptMessage = (receipt: Pick<Receipt, 'items' | 'receivedAt'> & { fetchId?: unknown }) =>
  canonicalJson({ fetchId: receipt.fetchId, items: receipt.items, receivedAt: receipt.receivedAt });

const base64Bytes = (text: string): Uint8Array<ArrayBuffer> => {
  const binary = atob(text.replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
};

const pemBody = (pem: string) => pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '');

const verifiesWith = async (receipt: Receipt, publicKeyPem: string, subtle: SubtleCrypto): Promise<boolean> => {
  let key: CryptoKey;
  let signature: Uint8Array<ArrayBuffer>;
  try {
    key = await subtle.importKey('spki', base64Bytes(pemBody(publicKeyPem)), { name: 'Ed25519' }, false, ['verify']);
    signature = base64Bytes(receipt.signature);
  } catch {
    return false;
  }
  return subtle.verify({ name: 'Ed25519' }, key, signature, new TextEncoder().encode(receiptMessage(receipt)));
};

/**
 * Whether the receipt's Ed25519 signature is the server's over what it says (WebCrypto, in the
 * browser): a receipt altered after it was signed, or signed by a key the server does not list, is
 * refused. `keys` is one PEM key, or the server's keyring: a receipt signed before the server's key
 * was rotated still verifies with the key it names (`keyId`), which the keyring keeps listing.
 */
export const receiptSignatureValid = async (
  receipt: Receipt,
  keys: string | readonly PublishedKey[],
  subtle: SubtleCrypto = globalThis.crypto.subtle,
): Promise<boolean> => {
  if (typeof receipt.signature !== 'string' || !receipt.signature) return false;
  if (typeof keys === 'string') return verifiesWith(receipt, keys, subtle);
  const named = typeof receipt.keyId === 'string' ? keys.filter((k) => k.keyId === receipt.keyId) : [];
  for (const key of named.length ? named : keys) {
    if (await verifiesWith(receipt, key.publicKey, subtle)) return true;
  }
  return false;
};
