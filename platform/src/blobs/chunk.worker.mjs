// Chunk verification (SHA-256 against the CID) and AES-256-GCM decryption off the request thread.
// The stored bytes are read by the caller into buffers shared with this thread, so none is copied to get here;
// the plaintext is written over the sealed bytes there, or handed back by transfer. Plain JavaScript so it
// runs the same under tsx, vitest and a build.
import { createDecipheriv, createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';

const NONCE = 12;
const TAG = 16;
const PIECE = 64 * 1024;

parentPort.on('message', (msg) => {
  try {
    const bytes = new Uint8Array(msg.buffer, msg.offset, msg.length);
    if (msg.t === 'sha256') {
      parentPort.postMessage({ t: 'done', req: msg.req, value: createHash('sha256').update(bytes).digest() });
      return;
    }
    // 'decrypt': nonce | ciphertext | tag; the tag is checked (final) before any plaintext leaves this thread
    if (bytes.byteLength < NONCE + TAG) throw new Error('sealed data too short');
    const decipher = createDecipheriv('aes-256-gcm', msg.key, bytes.subarray(0, NONCE));
    decipher.setAAD(msg.aad);
    decipher.setAuthTag(bytes.subarray(bytes.byteLength - TAG));
    const bodyEnd = Math.min(bytes.byteLength - TAG, NONCE + msg.plainLength);
    if (msg.inPlace) {
      // decrypted a piece at a time, each piece written over the sealed bytes it came from (12 bytes
      // earlier, behind the reading point): small cache-warm pieces instead of a fresh 1 MiB buffer
      // per chunk, whose pages the kernel would map and zero each time. The caller is told the
      // buffer holds plaintext only once final() has checked the tag; on a failed check it gets an
      // error and never gives out this buffer's bytes
      let out = 0;
      for (let at = NONCE; at < bodyEnd; at += PIECE) {
        const piece = decipher.update(bytes.subarray(at, Math.min(bodyEnd, at + PIECE)));
        bytes.set(piece, out);
        out += piece.byteLength;
      }
      if (bytes.byteLength - TAG > bodyEnd) decipher.update(bytes.subarray(bodyEnd, bytes.byteLength - TAG));
      decipher.final();
      parentPort.postMessage({ t: 'done', req: msg.req, value: null, length: out });
      return;
    }
    const plain = decipher.update(bytes.subarray(NONCE, bodyEnd));
    // the padding of a last chunk is authenticated too, but never handed back
    if (bytes.byteLength - TAG > bodyEnd) decipher.update(bytes.subarray(bodyEnd, bytes.byteLength - TAG));
    decipher.final();
    const owned = plain.byteOffset === 0 && plain.byteLength === plain.buffer.byteLength ? plain : new Uint8Array(plain);
    parentPort.postMessage({ t: 'done', req: msg.req, value: owned.buffer, length: owned.byteLength }, [owned.buffer]);
  } catch (error) {
    parentPort.postMessage({ t: 'error', req: msg.req, message: String(error?.message ?? error) });
  }
});
