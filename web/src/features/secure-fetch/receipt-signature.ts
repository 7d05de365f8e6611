import { canonicalJson } from './canonical';
import type { Receipt } from './receipt';

/** Where the server publishes the Ed25519 public key that signs receipts (PEM, SPKI). */
export const SIGNING_KEY_URL = '/.well-known/audit-key';

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

/**
 * Whether the receipt's Ed25519 signature is the server's over what it says (WebCrypto, in the
 * browser): a receipt altered after it was signed, or signed by another key, is refused.
 */
export const receiptSignatureValid = async (receipt: Receipt, publicKeyPem: string, subtle: SubtleCrypto = globalThis.crypto.subtle): Promise<boolean> => {
  if (typeof receipt.signature !== 'string' || !receipt.signature) return false;
  const key = await subtle.importKey('spki', base64Bytes(pemBody(publicKeyPem)), { name: 'Ed25519' }, false, ['verify']);
  let signature: Uint8Array<ArrayBuffer>;
  try {
    signature = base64Bytes(receipt.signature);
  } catch {
    return false;
  }
  return subtle.verify({ name: 'Ed25519' }, key, signature, new TextEncoder().encode(receiptMessage(receipt)));
};
