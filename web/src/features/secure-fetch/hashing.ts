import type { FileHashes, HashReply, HashRequest } from './hashing.core';

export type { FileHashes } from './hashing.core';

let worker: Worker | null = null;
let sequence = 0;
const pending = new Map<number, { resolve: (h: FileHashes) => void; reject: (e: Error) => void; onProgress?: (bytes: number) => void }>();

/** One module worker for the page, started on the first file: hashing never blocks the page. */
const hashingWorker = (): Worker => {
  if (worker) return worker;
  worker = new Worker(new URL('./hashing.worker.ts', import.meta.url), { type: 'module', name: 'file-hashing' });
  worker.onmessage = (event: MessageEvent<HashReply>) => {
    const message = event.data;
    const waiting = pending.get(message.id);
    if (!waiting) return;
    if (message.type === 'progress') waiting.onProgress?.(message.bytesHashed);
    else {
      pending.delete(message.id);
      if (message.type === 'done') waiting.resolve(message.hashes);
      else waiting.reject(new Error(message.message));
    }
  };
  worker.onerror = (event) => {
    for (const [id, waiting] of pending) {
      pending.delete(id);
      waiting.reject(new Error(event.message || 'The hashing worker failed'));
    }
  };
  return worker;
};

/** MD5, SHA-1 and SHA3-512 of a file, computed in the browser's hashing worker. */
export const hashFile = (file: Blob, onProgress?: (bytesHashed: number) => void): Promise<FileHashes> =>
  new Promise((resolve, reject) => {
    const id = ++sequence;
    pending.set(id, { resolve, reject, onProgress });
    const request: HashRequest = { id, file };
    hashingWorker().postMessage(request);
  });
