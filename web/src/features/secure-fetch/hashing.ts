import { hashBlob, type FileHashes, type HashReply, type HashRequest } from './hashing.core';

export type { FileHashes } from './hashing.core';

interface Waiting {
  file: Blob;
  resolve: (h: FileHashes) => void;
  reject: (e: Error) => void;
  onProgress?: (bytes: number) => void;
}

let worker: Worker | null = null;
/** Set when the worker cannot run here (not loaded, no module workers): files are hashed on the page instead. */
let workerBroken = false;
let sequence = 0;
const pending = new Map<number, Waiting>();

const onPage = (waiting: Waiting) => hashBlob(waiting.file, waiting.onProgress).then(waiting.resolve, waiting.reject);

/** One module worker for the page, started on the first file: hashing never blocks the page. */
const hashingWorker = (): Worker | null => {
  if (worker || workerBroken) return worker;
  try {
    worker = new Worker(new URL('./hashing.worker.ts', import.meta.url), { type: 'module', name: 'file-hashing' });
  } catch {
    workerBroken = true;
    return null;
  }
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
  // A worker that fails to load or crashes hands its files back to the page, which hashes them itself.
  worker.onerror = () => {
    worker?.terminate();
    worker = null;
    workerBroken = true;
    const orphans = [...pending.values()];
    pending.clear();
    for (const waiting of orphans) void onPage(waiting);
  };
  return worker;
};

/** MD5, SHA-1 and SHA3-512 of a file, computed in the browser's hashing worker (or on the page where no worker runs). */
export const hashFile = (file: Blob, onProgress?: (bytesHashed: number) => void): Promise<FileHashes> =>
  new Promise((resolve, reject) => {
    const waiting: Waiting = { file, resolve, reject, onProgress };
    const hashing = hashingWorker();
    if (!hashing) {
      void onPage(waiting);
      return;
    }
    const id = ++sequence;
    pending.set(id, waiting);
    const request: HashRequest = { id, file };
    hashing.postMessage(request);
  });
