// Chunk verification (SHA-256 against the CID) and AES-256-GCM decryption off the request thread.
// Either the caller has read the stored bytes into a buffer shared with this thread ('sha256', then
// 'decrypt'), or this thread reads a local replica itself ('fetch'): a whole chunk answered in one
// request, read where it can with O_DIRECT into page-aligned memory of its own, verified, and
// decrypted into the caller's shared buffer. Plain JavaScript so it runs the same under tsx, vitest
// and a build.
import { createHash } from 'node:crypto';
import fs, { constants } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { NONCE_LENGTH, openInto, TAG_LENGTH } from '../crypto/open-into.mjs';

/** A replica read whole fits here: a stored chunk (1 MiB at most) and one block more, to see a longer one. */
const SLOT = 1024 * 1024 + 4096;
/** Replicas being read at once by this thread into aligned memory; more wait for a slot. */
const SLOTS = 12;

// ---- garbage of decryption ----------------------------------------------------------------------
// Each decipher.update answers a new buffer, malloc'd by this thread: 1 MiB of them per chunk. The
// engine collects them only once about 64 MiB are outside its heap, so every thread decrypting held
// a 64 MiB malloc arena, and the allocator keeps what it grew to. A young-generation collection (a
// fraction of a millisecond here: this thread's heap is tiny) every few MiB decrypted keeps that to a
// few MiB. The collector is taken from a fresh context once the flag exposing it is set.
const COLLECT_EVERY = 4 * 1024 * 1024;
let collect;
try {
  v8.setFlagsFromString('--expose-gc');
  collect = vm.runInNewContext('gc');
} catch {
  collect = undefined;
}
let sinceCollect = 0;
const decrypted = (bytes) => {
  sinceCollect += bytes;
  if (sinceCollect < COLLECT_EVERY || !collect) return;
  sinceCollect = 0;
  collect({ type: 'minor' });
};

/**
 * Opens a sealed chunk (nonce | ciphertext | tag) into `out`, which may be `sealed` itself, with the
 * crypto module's `openInto`: answers the plaintext's length once the tag is checked; on a failed check
 * it throws and the caller never gives out `out`'s bytes.
 */
const openChunkInto = (sealed, out, key, aad, plainLength) => {
  const length = openInto(key, sealed, aad, out, plainLength);
  decrypted(sealed.byteLength);
  return length;
};

// ---- aligned read slots -------------------------------------------------------------------------
// Memory of a WebAssembly instance starts on a page boundary (the engine maps it), which O_DIRECT
// needs and Node's Buffers do not promise. Taken on the first direct read; without it (a process
// limit on address space can refuse it) replicas are read through the page cache into plain buffers.
let slots;
const waiting = [];
let direct = true;

const takeSlot = async () => {
  if (slots === undefined) {
    try {
      const pages = Math.ceil((SLOT * SLOTS) / 65536);
      const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
      slots = Array.from({ length: SLOTS }, (_, i) => new Uint8Array(memory.buffer, i * SLOT, SLOT));
    } catch {
      slots = null;
    }
  }
  if (slots === null) return new Uint8Array(SLOT);
  return slots.pop() ?? new Promise((resolve) => waiting.push(resolve));
};

const giveSlot = (slot) => {
  if (slots === null) return;
  const next = waiting.shift();
  if (next) next(slot);
  else slots.push(slot);
};

/**
 * Reads a whole replica into `slot` with the callback file calls (lighter than file handles: no
 * handle object or promise per call): calls back with its length (a full slot: longer than any
 * chunk) or null when it cannot be read.
 */
const readReplicaInto = (file, slot, wantDirect, done) => {
  // slots of the aligned memory start on whole blocks (SLOT is a whole number of them)
  const tryDirect = wantDirect && direct && slots !== null && constants.O_DIRECT !== undefined;
  // a file system that refuses O_DIRECT: this thread reads through the page cache from now on
  const refused = (error) => {
    if (!tryDirect || error?.code !== 'EINVAL') return false;
    direct = false;
    readReplicaInto(file, slot, false, done);
    return true;
  };
  fs.open(file, constants.O_RDONLY | (tryDirect ? constants.O_DIRECT : 0), (openError, fd) => {
    if (openError) return refused(openError) || done(null);
    let filled = 0;
    const finish = (length, error) => fs.close(fd, () => (error && refused(error)) || done(length));
    const next = () => {
      const asked = slot.byteLength - filled;
      fs.read(fd, slot, filled, asked, filled, (readError, bytesRead) => {
        if (readError) return finish(null, readError);
        filled += bytesRead;
        // direct reads go in whole blocks: a short one is the end of the file
        if (bytesRead === 0 || filled === slot.byteLength || (tryDirect && bytesRead < asked)) return finish(filled);
        next();
      });
    };
    next();
  });
};

const readReplica = (file, slot, wantDirect) => new Promise((resolve) => readReplicaInto(file, slot, wantDirect, resolve));

/**
 * 'fetch': the replicas' files in order; the first whose bytes hash to the chunk's digest is decrypted
 * into the shared buffer. Answers each replica passed over ('missing' or 'damaged') and the
 * plaintext's length, or -1 when none of them was intact.
 */
const fetchChunk = async (msg) => {
  const states = [];
  const out = new Uint8Array(msg.buffer, msg.offset, msg.length);
  for (const file of msg.files) {
    const slot = await takeSlot();
    try {
      const read = await readReplica(file, slot, msg.direct);
      if (read === null) {
        states.push('missing');
        continue;
      }
      const bytes = slot.subarray(0, read);
      if (read === slot.byteLength || !createHash('sha256').update(bytes).digest().equals(msg.digest)) {
        states.push('damaged');
        continue;
      }
      return { states, length: openChunkInto(bytes, out, msg.key, msg.aad, msg.plainLength) };
    } finally {
      giveSlot(slot);
    }
  }
  return { states, length: -1 };
};

parentPort.on('message', (msg) => {
  const fail = (error) => parentPort.postMessage({ t: 'error', req: msg.req, message: String(error?.message ?? error) });
  try {
    if (msg.t === 'fetch') {
      fetchChunk(msg).then(({ states, length }) => parentPort.postMessage({ t: 'done', req: msg.req, value: states, length }), fail);
      return;
    }
    const bytes = new Uint8Array(msg.buffer, msg.offset, msg.length);
    if (msg.t === 'sha256') {
      parentPort.postMessage({ t: 'done', req: msg.req, value: createHash('sha256').update(bytes).digest() });
      return;
    }
    // 'decrypt': nonce | ciphertext | tag; the tag is checked (final) before any plaintext leaves this thread
    if (msg.inPlace) {
      // written over the sealed bytes, a piece at a time, 12 bytes behind the reading point
      parentPort.postMessage({ t: 'done', req: msg.req, value: null, length: openChunkInto(bytes, bytes, msg.key, msg.aad, msg.plainLength) });
      return;
    }
    const plain = new Uint8Array(Math.max(0, Math.min(bytes.byteLength - TAG_LENGTH, NONCE_LENGTH + msg.plainLength) - NONCE_LENGTH));
    const length = openChunkInto(bytes, plain, msg.key, msg.aad, msg.plainLength);
    parentPort.postMessage({ t: 'done', req: msg.req, value: plain.buffer, length }, [plain.buffer]);
  } catch (error) {
    fail(error);
  }
});
