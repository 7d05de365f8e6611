// Chunk verification (SHA-256 against the CID) and AES-256-GCM decryption off the request thread.
// The stored bytes are read by the caller into buffers shared with this thread, so none is copied to get here;
// the plaintext is handed back by transfer. Plain JavaScript so it runs the same under tsx, vitest and a build.
import { createDecipheriv, createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';

const NONCE = 12;
const TAG = 16;

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
    const plain = decipher.update(bytes.subarray(NONCE, Math.min(bytes.byteLength - TAG, NONCE + msg.plainLength)));
    // the padding of a last chunk is authenticated too, but never handed back
    if (bytes.byteLength - TAG > NONCE + msg.plainLength) decipher.update(bytes.subarray(NONCE + msg.plainLength, bytes.byteLength - TAG));
    decipher.final();
    if (msg.inPlace) {
      // the sealed bytes are no longer needed: the plaintext takes their place in the shared buffer
      new Uint8Array(msg.buffer, msg.offset, plain.byteLength).set(plain);
      parentPort.postMessage({ t: 'done', req: msg.req, value: null, length: plain.byteLength });
      return;
    }
    const owned = plain.byteOffset === 0 && plain.byteLength === plain.buffer.byteLength ? plain : new Uint8Array(plain);
    parentPort.postMessage({ t: 'done', req: msg.req, value: owned.buffer, length: owned.byteLength }, [owned.buffer]);
  } catch (error) {
    parentPort.postMessage({ t: 'error', req: msg.req, message: String(error?.message ?? error) });
  }
});
