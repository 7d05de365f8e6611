// SHA3-512 and MD5 off the request thread: hash-wasm hashers per upload session, states saved on request.
// Plain JavaScript so it runs the same under tsx, vitest and a compiled build.
import { parentPort } from 'node:worker_threads';
import { createMD5, createSHA3 } from 'hash-wasm';

/** @type {Map<number, { hasher: Promise<{ sha3: import('hash-wasm').IHasher, md5: import('hash-wasm').IHasher }>, slots: Uint8Array[] }>} */
const sessions = new Map();

const sessionOf = (id) => {
  const s = sessions.get(id);
  if (!s) throw new Error(`no hash session ${id}`);
  return s;
};
const hasherFor = (id) => sessionOf(id).hasher;

// messages are handled strictly in order, so a save or digest sees every update sent before it
let queue = Promise.resolve();
parentPort.on('message', (msg) => {
  queue = queue
    .then(() => handle(msg))
    .catch((error) => {
      parentPort.postMessage({ t: 'error', id: msg.id, req: msg.req, message: String(error?.message ?? error) });
    });
});

const handle = async (msg) => {
  switch (msg.t) {
    case 'open': {
      const hasher = Promise.all([createSHA3(512), createMD5()]).then(([sha3, md5]) => {
        sha3.init();
        md5.init();
        if (msg.state) {
          sha3.load(msg.state.sha3);
          md5.load(msg.state.md5);
        }
        return { sha3, md5 };
      });
      sessions.set(msg.id, { hasher, slots: [] });
      await hasher.catch((error) => {
        sessions.delete(msg.id);
        throw error;
      });
      parentPort.postMessage({ t: 'done', req: msg.req, value: null });
      return;
    }
    case 'slot': {
      // a batch buffer shared with the session's sender, named by its slot from now on
      sessionOf(msg.id).slots[msg.slot] = new Uint8Array(msg.buf);
      return;
    }
    case 'update': {
      const s = sessionOf(msg.id);
      const h = await s.hasher;
      const bytes = s.slots[msg.slot].subarray(0, msg.len);
      h.sha3.update(bytes);
      h.md5.update(bytes);
      // the slot is free again for the sender
      parentPort.postMessage({ t: 'ack', id: msg.id, slot: msg.slot });
      return;
    }
    case 'save': {
      const h = await hasherFor(msg.id);
      parentPort.postMessage({ t: 'done', req: msg.req, value: { sha3: h.sha3.save(), md5: h.md5.save() } });
      return;
    }
    case 'digest': {
      const h = await hasherFor(msg.id);
      sessions.delete(msg.id);
      parentPort.postMessage({ t: 'done', req: msg.req, value: { sha3_512: h.sha3.digest('hex'), md5: h.md5.digest('hex') } });
      return;
    }
    case 'close':
      sessions.delete(msg.id);
      return;
    default:
      throw new Error(`unknown message ${msg.t}`);
  }
};
