// The opening of the sealed layout (nonce | ciphertext | tag, see aead.ts) into a buffer given by the
// caller, a piece at a time. Plain JavaScript so that the chunk workers import it as it is: they run
// without a TypeScript loader (see request-worker.ts), and Node's own type stripping costs a thread
// ~16 MiB and startup time. aead.ts gives it to the rest of the product with its types (open-into.d.mts).
import { createDecipheriv } from 'node:crypto';

export const NONCE_LENGTH = 12;
export const TAG_LENGTH = 16;
/** Deciphered at a time: small cache-warm pieces and no buffer per chunk. */
const PIECE = 64 * 1024;

/**
 * Opens `sealed` into `out` (which may be `sealed` itself: each piece is written 12 bytes behind where
 * it was read) and answers the plaintext's length once the tag is checked; on a failed check it throws
 * and the caller must not give out `out`'s bytes. Only the first `plainLength` bytes of plaintext are
 * written (the padding of a last chunk is authenticated too, but never handed back).
 */
export const openInto = (key, sealed, aad, out, plainLength) => {
  if (sealed.byteLength < NONCE_LENGTH + TAG_LENGTH) throw new Error('sealed data too short');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, NONCE_LENGTH));
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.byteLength - TAG_LENGTH));
  const bodyEnd = Math.min(sealed.byteLength - TAG_LENGTH, NONCE_LENGTH + plainLength);
  if (bodyEnd - NONCE_LENGTH > out.byteLength) throw new Error('plaintext longer than its buffer');
  let length = 0;
  for (let at = NONCE_LENGTH; at < bodyEnd; at += PIECE) {
    const piece = decipher.update(sealed.subarray(at, Math.min(bodyEnd, at + PIECE)));
    out.set(piece, length);
    length += piece.byteLength;
  }
  if (sealed.byteLength - TAG_LENGTH > bodyEnd) decipher.update(sealed.subarray(bodyEnd, sealed.byteLength - TAG_LENGTH));
  decipher.final();
  return length;
};
