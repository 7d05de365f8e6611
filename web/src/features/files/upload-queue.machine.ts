import { assign, emit, enqueueActions, fromCallback, setup } from 'xstate';
import type { NormalisedError } from '../../api/errors';

/** How many files upload at the same time. */
export const UPLOAD_CONCURRENCY = 3;

/**
 * The spec's upload item states as the panel shows them: waiting (`pending`), bytes moving
 * (`progress`), the file being made from the finished upload (`saving`), `done` (the spec's OK),
 * `failed` (retry offered when it can help), the two the user chooses: `paused`, `cancelled`, and
 * `interrupted`: an upload the page was left during, known again from the browser's storage but
 * without its file until the user picks the same file again (or the browser hands it back).
 */
export type UploadStatus = 'pending' | 'progress' | 'paused' | 'saving' | 'done' | 'failed' | 'cancelled' | 'interrupted';

/** Where a file goes: a storage, a folder in it (null: its root), and the user who owns it. */
export interface UploadTarget {
  userId: string;
  storageId: string;
  folderId: string | null;
}

/**
 * The parts of a File System Access file handle the queue keeps (Chromium hands one out for a
 * dropped file): kept across a reload, it gives the file back without the user picking it again.
 */
export interface FileHandleLike {
  readonly kind: 'file';
  readonly name: string;
  getFile(): Promise<File>;
  queryPermission?(options: { mode: 'read' }): Promise<'granted' | 'denied' | 'prompt'>;
  requestPermission?(options: { mode: 'read' }): Promise<'granted' | 'denied' | 'prompt'>;
}

export interface UploadItem {
  id: string;
  /** Items dropped together share a batch: their folders are created once. */
  batchId: string;
  /** The bytes to send; null for an interrupted upload until its file is picked again. */
  file: Blob | null;
  name: string;
  /** Folder path below the target, `''` for a file dropped on its own ("Photos/2024"). */
  relativeDir: string;
  size: number;
  /** The file's own modification time (ms), 0 when unknown. */
  lastModified: number;
  /** What the same file picked again is recognised by (see fingerprint.ts); null until computed. */
  fingerprint: string | null;
  /** The file's handle where the browser gave one: an interrupted upload resumes from it by itself. */
  handle: FileHandleLike | null;
  target: UploadTarget;
  status: UploadStatus;
  bytesSent: number;
  /** The tus upload's URL once created: a resumed or retried item continues from the server's offset. */
  uploadUrl: string | null;
  error: NormalisedError | null;
  /** False for failures a retry cannot fix (a refused name). */
  retryable: boolean;
  /** Counts the workers started for this item; a worker's events carry it so late ones are ignored. */
  attempt: number;
  /** The name the file was saved under (the server picks the next free one for a taken name). */
  savedName: string | null;
  /** Bytes per second, smoothed; null until two progress reports of one run were seen. */
  rate: number | null;
  /** The last progress report of the running worker that the rate was measured from. */
  sample: { at: number; bytes: number } | null;
}

export interface NewUpload {
  file: Blob;
  name: string;
  relativeDir?: string;
  fingerprint?: string | null;
  handle?: FileHandleLike | null;
  /** A client-side refusal (a forbidden name): the item is listed as failed and never sent. */
  rejection?: NormalisedError | null;
}

/** What the browser keeps of an unfinished upload across leaving the page (upload-store.ts). */
export interface StoredUpload {
  id: string;
  batchId: string;
  name: string;
  relativeDir: string;
  size: number;
  lastModified: number;
  fingerprint: string | null;
  target: UploadTarget;
  uploadUrl: string | null;
  bytesSent: number;
  handle?: FileHandleLike | null;
}

/** What a worker is given: enough to upload one file and make it an item of the storage. */
export interface UploadWorkerInput {
  id: string;
  attempt: number;
  batchId: string;
  file: Blob;
  name: string;
  relativeDir: string;
  target: UploadTarget;
  uploadUrl: string | null;
}

/** What a worker reports back. */
export type UploadWorkerEvent =
  | { type: 'UPLOAD.URL'; id: string; attempt: number; url: string }
  /** `at`: when the bytes were reported (ms), which the speed and time left are measured from. */
  | { type: 'UPLOAD.PROGRESS'; id: string; attempt: number; bytesSent: number; at?: number }
  | { type: 'UPLOAD.SAVING'; id: string; attempt: number }
  | { type: 'UPLOAD.DONE'; id: string; attempt: number; entryId?: string; savedName?: string }
  | { type: 'UPLOAD.FAILED'; id: string; attempt: number; error: NormalisedError; retryable?: boolean };

/** Sent to a running worker right before it is stopped by a cancel: drop the upload on the server too. */
export type UploadWorkerCommand = { type: 'TERMINATE' };

export type UploadQueueEvent =
  | { type: 'ADD'; files: NewUpload[]; target: UploadTarget; batchId?: string }
  | { type: 'PAUSE'; id?: string }
  | { type: 'RESUME'; id?: string }
  | { type: 'RETRY'; id?: string }
  | { type: 'CANCEL'; id?: string }
  /** Takes an item off the list, whatever its state but saving (a running or kept upload is dropped too). */
  | { type: 'REMOVE'; id: string }
  | { type: 'CLEAR' }
  /** Uploads the page was left during, read back from the browser's storage: listed as interrupted. */
  | { type: 'RESTORE'; items: StoredUpload[] }
  /** The file of an interrupted upload, picked again (or handed back by the browser): it resumes. */
  | { type: 'REATTACH'; id: string; file: Blob }
  | { type: 'FINGERPRINT'; id: string; fingerprint: string }
  | UploadWorkerEvent;

export type UploadQueueEmitted = { type: 'saved'; target: UploadTarget; entryId?: string; relativeDir: string };

export interface UploadQueueContext {
  items: UploadItem[];
  concurrency: number;
  /** Everything paused: nothing new starts until RESUME. */
  paused: boolean;
}

/** States of an upload not yet over: the panel's header counts them. */
export const UNFINISHED: readonly UploadStatus[] = ['pending', 'progress', 'paused', 'saving', 'interrupted'];
/** States in which leaving the page stops bytes moving or about to move: the browser warns first. */
export const UNDER_WAY: readonly UploadStatus[] = ['pending', 'progress', 'paused', 'saving'];
/** Cancel is possible in every unfinished state but saving (the spec: "cannot cancel while saving"). */
export const CANCELLABLE: readonly UploadStatus[] = ['pending', 'progress', 'paused', 'interrupted'];

/** Weight of the newest measurement in the smoothed speed. */
const RATE_WEIGHT = 0.3;

/** The smoothed speed after `bytes` more were sent in `ms`: the first measurement as is, then a moving average. */
export const nextRate = (rate: number | null, bytes: number, ms: number): number | null => {
  if (ms <= 0 || bytes < 0) return rate;
  const now = (bytes * 1000) / ms;
  return rate === null ? now : rate * (1 - RATE_WEIGHT) + now * RATE_WEIGHT;
};

/** Seconds until the item is sent at its current speed; null while unknown. */
export const secondsLeft = (item: Pick<UploadItem, 'size' | 'bytesSent' | 'rate' | 'status'>): number | null =>
  item.status === 'progress' && item.rate !== null && item.rate > 0 ? Math.ceil((item.size - item.bytesSent) / item.rate) : null;

export const childId = (item: Pick<UploadItem, 'id' | 'attempt'>) => `upload-${item.id}-${item.attempt}`;
const workerInput = (item: UploadItem & { file: Blob }): UploadWorkerInput => ({
  id: item.id,
  attempt: item.attempt,
  batchId: item.batchId,
  file: item.file,
  name: item.name,
  relativeDir: item.relativeDir,
  target: item.target,
  uploadUrl: item.uploadUrl,
});

let sequence = 0;
const nextId = () => `${Date.now().toString(36)}-${(sequence++).toString(36)}`;

const patch = (items: UploadItem[], id: string, change: Partial<UploadItem>) => items.map((i) => (i.id === id ? { ...i, ...change } : i));
const currentWorker = (items: UploadItem[], event: UploadWorkerEvent) => {
  const item = items.find((i) => i.id === event.id);
  return item && item.attempt === event.attempt ? item : undefined;
};
const selected = (items: UploadItem[], id: string | undefined) => (id === undefined ? items : items.filter((i) => i.id === id));

/**
 * The upload queue behind the folder upload progress panel. Files join as `pending`; at most
 * `concurrency` run at once, each in a worker (tus upload, then saving); pausing stops the worker
 * and keeps the upload's URL, so resuming continues from the offset the server reports; a failed
 * item can be retried the same way; cancel drops the upload, except while saving. The worker is
 * provided by the app (`uploadFile`), so tests drive the queue with a fake one.
 */
export const uploadQueueMachine = setup({
  types: {
    context: {} as UploadQueueContext,
    events: {} as UploadQueueEvent,
    input: {} as { concurrency?: number } | undefined,
    emitted: {} as UploadQueueEmitted,
  },
  actors: {
    uploadFile: fromCallback<UploadWorkerCommand, UploadWorkerInput>(() => {
      throw new Error('uploadFile actor not provided');
    }),
  },
  actions: {
    /** An item that already has a server-side upload was cancelled while no worker ran for it. */
    discardUpload: (_, _params: { url: string }) => {},
    /** Starts pending items, in order, while fewer than `concurrency` are running. */
    schedule: enqueueActions(({ context, enqueue }) => {
      if (context.paused) return;
      let running = context.items.filter((i) => i.status === 'progress' || i.status === 'saving').length;
      const starting: (UploadItem & { file: Blob })[] = [];
      for (const item of context.items) {
        if (running >= context.concurrency) break;
        if (item.status !== 'pending' || !item.file) continue;
        starting.push({ ...item, file: item.file, status: 'progress', attempt: item.attempt + 1, error: null, rate: null, sample: null });
        running += 1;
      }
      if (!starting.length) return;
      const byId = new Map(starting.map((s) => [s.id, s]));
      enqueue.assign({ items: context.items.map((i) => byId.get(i.id) ?? i) });
      for (const item of starting) enqueue.spawnChild('uploadFile', { id: childId(item), input: workerInput(item) });
    }),
  },
}).createMachine({
  id: 'uploadQueue',
  context: ({ input }) => ({ items: [], concurrency: input?.concurrency ?? UPLOAD_CONCURRENCY, paused: false }),
  on: {
    ADD: {
      actions: [
        assign(({ context, event }) => {
          const batchId = event.batchId ?? nextId();
          const added: UploadItem[] = event.files.map((f) => ({
            id: nextId(),
            batchId,
            file: f.file,
            name: f.name,
            relativeDir: f.relativeDir ?? '',
            size: f.file.size,
            lastModified: (f.file as Partial<File>).lastModified ?? 0,
            fingerprint: f.fingerprint ?? null,
            handle: f.handle ?? null,
            target: event.target,
            status: f.rejection ? 'failed' : 'pending',
            bytesSent: 0,
            uploadUrl: null,
            error: f.rejection ?? null,
            retryable: !f.rejection,
            attempt: 0,
            savedName: null,
            rate: null,
            sample: null,
          }));
          return { items: [...context.items, ...added] };
        }),
        'schedule',
      ],
    },
    'UPLOAD.URL': {
      actions: assign(({ context, event }) => {
        const item = currentWorker(context.items, event);
        return item ? { items: patch(context.items, item.id, { uploadUrl: event.url }) } : {};
      }),
    },
    'UPLOAD.PROGRESS': {
      actions: assign(({ context, event }) => {
        const item = currentWorker(context.items, event);
        if (!item || item.status !== 'progress') return {};
        const bytesSent = Math.min(item.size, Math.max(0, event.bytesSent));
        if (event.at === undefined) return { items: patch(context.items, item.id, { bytesSent }) };
        const rate = item.sample ? nextRate(item.rate, bytesSent - item.sample.bytes, event.at - item.sample.at) : item.rate;
        return { items: patch(context.items, item.id, { bytesSent, rate, sample: { at: event.at, bytes: bytesSent } }) };
      }),
    },
    'UPLOAD.SAVING': {
      actions: assign(({ context, event }) => {
        const item = currentWorker(context.items, event);
        if (!item || item.status !== 'progress') return {};
        return { items: patch(context.items, item.id, { status: 'saving', bytesSent: item.size }) };
      }),
    },
    'UPLOAD.DONE': {
      actions: [
        enqueueActions(({ context, event, enqueue }) => {
          const item = currentWorker(context.items, event);
          if (!item || (item.status !== 'progress' && item.status !== 'saving')) return;
          // A worker that reported its end has nothing left to do: it is stopped, not left behind.
          enqueue.stopChild(childId(item));
          enqueue.assign({
            items: patch(context.items, item.id, { status: 'done', bytesSent: item.size, error: null, savedName: event.savedName ?? item.name }),
          });
          enqueue(emit({ type: 'saved', target: item.target, entryId: event.entryId, relativeDir: item.relativeDir }));
        }),
        'schedule',
      ],
    },
    'UPLOAD.FAILED': {
      actions: [
        enqueueActions(({ context, event, enqueue }) => {
          const item = currentWorker(context.items, event);
          if (!item || (item.status !== 'progress' && item.status !== 'saving')) return;
          enqueue.stopChild(childId(item));
          enqueue.assign({ items: patch(context.items, item.id, { status: 'failed', error: event.error, retryable: event.retryable ?? true }) });
        }),
        'schedule',
      ],
    },
    PAUSE: {
      actions: [
        enqueueActions(({ context, event, enqueue }) => {
          for (const item of selected(context.items, event.id)) {
            if (item.status === 'progress') enqueue.stopChild(childId(item));
          }
          enqueue.assign({
            paused: event.id === undefined ? true : context.paused,
            items: context.items.map((i) =>
              selected([i], event.id).length && (i.status === 'progress' || (i.status === 'pending' && event.id !== undefined))
                ? { ...i, status: 'paused' as const }
                : i,
            ),
          });
        }),
        'schedule',
      ],
    },
    RESUME: {
      actions: [
        assign(({ context, event }) => ({
          paused: event.id === undefined ? false : context.paused,
          items: context.items.map((i) => (i.status === 'paused' && selected([i], event.id).length ? { ...i, status: 'pending' as const } : i)),
        })),
        'schedule',
      ],
    },
    RETRY: {
      actions: [
        assign(({ context, event }) => ({
          items: context.items.map((i) =>
            i.status === 'failed' && i.retryable && selected([i], event.id).length ? { ...i, status: 'pending' as const, error: null } : i,
          ),
        })),
        'schedule',
      ],
    },
    CANCEL: {
      actions: [
        enqueueActions(({ context, event, enqueue }) => {
          for (const item of selected(context.items, event.id)) {
            if (!CANCELLABLE.includes(item.status)) continue;
            if (item.status === 'progress') {
              enqueue.sendTo(childId(item), { type: 'TERMINATE' });
              enqueue.stopChild(childId(item));
            } else if (item.uploadUrl) {
              enqueue({ type: 'discardUpload', params: { url: item.uploadUrl } });
            }
          }
          enqueue.assign({
            items: context.items.map((i) => (CANCELLABLE.includes(i.status) && selected([i], event.id).length ? { ...i, status: 'cancelled' as const } : i)),
          });
        }),
        'schedule',
      ],
    },
    REMOVE: {
      actions: [
        enqueueActions(({ context, event, enqueue }) => {
          const item = context.items.find((i) => i.id === event.id);
          if (!item || item.status === 'saving') return;
          if (item.status === 'progress') {
            enqueue.sendTo(childId(item), { type: 'TERMINATE' });
            enqueue.stopChild(childId(item));
          } else if (item.uploadUrl && CANCELLABLE.includes(item.status)) {
            enqueue({ type: 'discardUpload', params: { url: item.uploadUrl } });
          }
          enqueue.assign({ items: context.items.filter((i) => i.id !== item.id) });
        }),
        'schedule',
      ],
    },
    CLEAR: {
      actions: assign(({ context }) => ({ items: context.items.filter((i) => UNFINISHED.includes(i.status)) })),
    },
    RESTORE: {
      actions: assign(({ context, event }) => {
        const known = new Set(context.items.map((i) => i.id));
        const restored: UploadItem[] = event.items
          .filter((s) => !known.has(s.id))
          .map((s) => ({
            ...s,
            handle: s.handle ?? null,
            file: null,
            status: 'interrupted',
            bytesSent: Math.min(s.size, Math.max(0, s.bytesSent)),
            error: null,
            retryable: true,
            attempt: 0,
            savedName: null,
            rate: null,
            sample: null,
          }));
        return { items: [...context.items, ...restored] };
      }),
    },
    REATTACH: {
      actions: [
        assign(({ context, event }) => {
          const item = context.items.find((i) => i.id === event.id);
          // Only the same bytes may continue an upload: a file of another size is not this one.
          if (!item || item.status !== 'interrupted' || event.file.size !== item.size) return {};
          return { items: patch(context.items, item.id, { file: event.file, status: 'pending' }) };
        }),
        'schedule',
      ],
    },
    FINGERPRINT: {
      actions: assign(({ context, event }) => ({ items: patch(context.items, event.id, { fingerprint: event.fingerprint }) })),
    },
  },
});

/** Totals the panel's header shows. */
export interface UploadSummary {
  total: number;
  done: number;
  /** Failures listed: retryable ones, and refusals (which count nowhere else). */
  failed: number;
  active: number;
  unfinished: number;
  /** Items whose leaving the page the browser warns of (bytes moving or about to). */
  underWay: number;
  /** Uploads the page was left during, waiting for their files. */
  interrupted: number;
  bytesTotal: number;
  bytesSent: number;
  /** 0 to 100, over the items not cancelled. */
  percent: number;
}

/**
 * Counted are the items that were or can still be sent: a cancelled item and a refusal no retry
 * can fix (a forbidden name, a file over a limit) count neither in the files nor in the bytes.
 */
export const summarize = (items: readonly UploadItem[]): UploadSummary => {
  const counted = items.filter((i) => i.status !== 'cancelled' && !(i.status === 'failed' && !i.retryable));
  const bytesTotal = counted.reduce((n, i) => n + i.size, 0);
  const bytesSent = counted.reduce((n, i) => n + (i.status === 'done' ? i.size : i.bytesSent), 0);
  const doneCount = counted.filter((i) => i.status === 'done').length;
  return {
    total: counted.length,
    done: doneCount,
    failed: items.filter((i) => i.status === 'failed').length,
    active: counted.filter((i) => i.status === 'progress' || i.status === 'saving').length,
    unfinished: counted.filter((i) => UNFINISHED.includes(i.status)).length,
    underWay: counted.filter((i) => UNDER_WAY.includes(i.status)).length,
    interrupted: counted.filter((i) => i.status === 'interrupted').length,
    bytesTotal,
    bytesSent,
    percent: bytesTotal > 0 ? Math.floor((bytesSent / bytesTotal) * 100) : counted.length && doneCount === counted.length ? 100 : 0,
  };
};
