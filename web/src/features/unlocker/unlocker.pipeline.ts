import { fromCallback, fromPromise } from 'xstate';
import { ApiError, toApiError } from '../../api/errors';
import type { UnlockerEvent, Unpacked } from './unlocker.machine';
import { looksLikeZip, openZipEntry, readZipEntries } from './zip';

/** One thing to write out: a `.pgp` message to decrypt, or another zip entry kept as it is. */
export interface UnlockSource {
  /** The name it is saved under (`.pgp` removed, folders joined with `_`). */
  name: string;
  size: number;
  encrypted: boolean;
  open: () => Promise<ReadableStream<Uint8Array>>;
}

export interface PipelineDeps {
  /** A whole message in, its plaintext out (the crypto worker, with the key already unlocked). */
  decrypt: (message: ReadableStream<Uint8Array>) => Promise<ReadableStream<Uint8Array>>;
  /** Saves one result (a download, or a file in a folder the user picked). */
  save: (name: string, data: Blob) => Promise<void>;
  /** How often progress is reported at most, in ms. */
  progressEveryMs?: number;
  now?: () => number;
}

const PGP = /\.pgp$/i;
const outputName = (path: string) =>
  path
    .split('/')
    .filter((part) => part.length > 0)
    .join('_')
    .replace(PGP, '');

/** The messages in what the user handed over: each `.zip` opened through its directory, other files as they are. */
export const listSources = async (files: readonly File[]): Promise<UnlockSource[]> => {
  const sources: UnlockSource[] = [];
  for (const file of files) {
    if (/\.zip$/i.test(file.name) || (!PGP.test(file.name) && (await looksLikeZip(file)))) {
      for (const entry of await readZipEntries(file)) {
        sources.push({ name: outputName(entry.name), size: entry.size, encrypted: PGP.test(entry.name), open: () => openZipEntry(file, entry) });
      }
    } else {
      sources.push({ name: outputName(file.name), size: file.size, encrypted: true, open: async () => file.stream() });
    }
  }
  return sources;
};

/** Counts what passes, reporting the running total. */
const counting = (onCount: (total: number) => void) => {
  let total = 0;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      total += chunk.byteLength;
      onCount(total);
      controller.enqueue(chunk);
    },
  });
};

/**
 * The unpack and decrypt steps of the machine over the same list: unpacking reads the directories,
 * decrypting streams each entry (bytes read) through the worker (bytes decrypted) and saves it. A
 * message that does not open is marked failed and the others go on; a save that fails stops all.
 */
export const unlockerPipeline = (deps: PipelineDeps) => {
  let sources: UnlockSource[] = [];
  const every = deps.progressEveryMs ?? 100;
  const now = deps.now ?? (() => Date.now());

  const unpack = fromPromise<Unpacked, { files: File[] }>(async ({ input }) => {
    sources = await listSources(input.files);
    if (sources.length === 0) throw new ApiError('UNLOCKER_NOTHING_TO_UNLOCK', 'There is no file to unlock in this selection');
    return sources.map(({ name, size }) => ({ name, size }));
  });

  const decrypt = fromCallback<UnlockerEvent, { files: File[] }>(({ sendBack }) => {
    const abort = new AbortController();
    const run = async () => {
      for (const [index, source] of sources.entries()) {
        if (abort.signal.aborted) return;
        let read = 0;
        let decrypted = 0;
        let last = 0;
        const report = (force = false) => {
          if (!force && now() - last < every) return;
          last = now();
          sendBack({ type: 'PROGRESS', index, read, decrypted });
        };
        sendBack({ type: 'PROGRESS', index, state: 'working' });
        let plaintext: Blob;
        try {
          const input = (await source.open()).pipeThrough(
            counting((n) => {
              read = n;
              report();
            }),
            { signal: abort.signal },
          );
          const output = source.encrypted ? await deps.decrypt(input) : input;
          const chunks: Uint8Array[] = [];
          const reader = output.getReader();
          abort.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            chunks.push(value);
            decrypted += value.byteLength;
            report();
          }
          plaintext = new Blob(chunks as BlobPart[]);
        } catch (error) {
          if (abort.signal.aborted) return;
          sendBack({ type: 'PROGRESS', index, read, decrypted, state: 'failed', error: toApiError(error).toJSON() });
          continue;
        }
        if (abort.signal.aborted) return;
        try {
          await deps.save(source.name, plaintext);
        } catch (error) {
          sendBack({ type: 'FAILED', error: toApiError(error).toJSON() });
          return;
        }
        sendBack({ type: 'PROGRESS', index, read, decrypted, state: 'saved' });
      }
      if (!abort.signal.aborted) sendBack({ type: 'DECRYPTED' });
    };
    void run();
    return () => abort.abort();
  });

  return { unpack, decrypt };
};
