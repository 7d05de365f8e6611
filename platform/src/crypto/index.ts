/*
 * The product's cryptography, one facade: no other product code calls node:crypto's ciphers.
 *
 * - Encryption at rest (this side, the server's): AES-256-GCM in three byte layouts (aead.ts), key
 *   wrapping for envelope encryption (wrap.ts), keys and key ids made from other keys (kdf.ts).
 * - End-to-end encryption (openpgp) is a layer of its own: files are encrypted in the browser's workers
 *   before the server adds its layer, and the server holds only public keys, passphrase-protected
 *   private keys and per-file key packets. Its facade goes beside this one (`crypto/e2ee/`, exported
 *   here as its own namespace); the two share no keys and no layouts.
 */
export * from './aead';
export * from './kdf';
export * from './wrap';
