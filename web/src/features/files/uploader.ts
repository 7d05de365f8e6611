import { Upload, type DetailedError } from 'tus-js-client';
import { createActor, fromCallback } from 'xstate';
import { ApiError, errorFromResponse, toApiError, type NormalisedError } from '../../api/errors';
import { filesApi, FILES_PAGE_SIZE, isFolder, type Item } from './files.api';
import { fingerprintOf } from './fingerprint';
import {
  summarize,
  uploadQueueMachine,
  type FileHandleLike,
  type NewUpload,
  type UploadItem,
  type UploadTarget,
  type UploadWorkerCommand,
  type UploadWorkerInput,
} from './upload-queue.machine';
import { storeChanges, uploadStore } from './upload-store';

export const TUS_ENDPOINT = '/api/uploads/';
/** Bytes per PATCH: small enough that a pause or a broken connection loses little. */
const CHUNK_SIZE = 8 * 1024 * 1024;
const RETRY_DELAYS = [0, 1000, 3000, 5000];
const TUS_HEADERS = { 'X-Requested-With': 'XMLHttpRequest' };

/** Errors no retry can fix: the item stays failed with the reason. */
const FINAL_CODES = new Set(['INVALID_NAME', 'PROFANITY', 'INSUFFICIENT_SPACE', 'FOLDER_NOT_FOUND', 'STORAGE_NOT_FOUND']);

/** A tus failure as the API's `{ code, message, data }` (the server answers JSON errors on tus calls too). */
export const tusError = (error: Error | DetailedError): ApiError => {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  if (response) {
    const body = response.getBody();
    let parsed: unknown = body;
    try {
      parsed = JSON.parse(body);
    } catch {
      // Not JSON: the text itself is the message.
    }
    return errorFromResponse(response.getStatus(), parsed);
  }
  return toApiError(error);
};

/** The upload id the spec's calls name is the last segment of the tus upload's URL. */
export const uploadIdOf = (url: string) => url.replace(/\/+$/, '').split('/').pop() ?? '';

/**
 * Folders of a dropped tree are created once per batch and path; a folder that already exists
 * (409) is found by name and used.
 */
const folderCache = new Map<string, Promise<string | null>>();

const findFolder = async (target: UploadTarget, parentId: string | null, name: string): Promise<string | null> => {
  for (let page = 1; ; page++) {
    const { data } = await filesApi.list(target.userId, target.storageId, parentId, { page, sortBy: 'name', sortOrder: 'ASC', label: 'folder' });
    const hit = data.find((i) => isFolder(i) && i.name.toLowerCase() === name.toLowerCase());
    if (hit) return hit.id;
    if (data.length < FILES_PAGE_SIZE) return null;
  }
};

const ensureFolder = (batchId: string, target: UploadTarget, relativeDir: string): Promise<string | null> => {
  if (!relativeDir) return Promise.resolve(target.folderId);
  const key = `${batchId}|${target.storageId}|${target.folderId ?? ''}|${relativeDir}`;
  const known = folderCache.get(key);
  if (known) return known;
  const parts = relativeDir.split('/');
  const name = parts.pop()!;
  const made = ensureFolder(batchId, target, parts.join('/')).then(async (parentId) => {
    try {
      return (await filesApi.createFolder(target.userId, target.storageId, parentId, name)).id;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        const existing = await findFolder(target, parentId, name);
        if (existing) return existing;
      }
      throw error;
    }
  });
  made.catch(() => folderCache.delete(key));
  folderCache.set(key, made);
  return made;
};

/** Makes the file from the finished upload; a taken name is retried with `rename` (the spec's 409 rule). */
const saveFile = async (target: UploadTarget, folderId: string | null, uploadId: string, name: string): Promise<Item> => {
  try {
    return await filesApi.createFile(target.userId, target.storageId, folderId, { uploadId, name });
  } catch (error) {
    if (error instanceof ApiError && error.status === 409)
      return filesApi.createFile(target.userId, target.storageId, folderId, { uploadId, name, rename: true });
    throw error;
  }
};

/**
 * The worker of one queue item: its folders, the tus upload (resumed from `uploadUrl` when there
 * is one), then the file made from it. Stopping it aborts the upload, and a TERMINATE just before
 * (a cancel) also deletes it on the server.
 */
export const tusUploadWorker = fromCallback<UploadWorkerCommand, UploadWorkerInput>(({ input, sendBack, receive }) => {
  const { id, attempt } = input;
  let upload: Upload | null = null;
  let terminate = false;
  let stopped = false;
  const fail = (error: NormalisedError) => !stopped && sendBack({ type: 'UPLOAD.FAILED', id, attempt, error, retryable: !FINAL_CODES.has(error.code) });

  receive((command) => {
    if (command.type === 'TERMINATE') terminate = true;
  });

  void (async () => {
    const folderId = await ensureFolder(input.batchId, input.target, input.relativeDir);
    if (stopped) return;
    const url = await new Promise<string>((resolve, reject) => {
      const u = new Upload(input.file, {
        endpoint: TUS_ENDPOINT,
        uploadUrl: input.uploadUrl,
        metadata: { storageId: input.target.storageId, filename: input.name, filetype: input.file.type || 'application/octet-stream' },
        headers: TUS_HEADERS,
        chunkSize: CHUNK_SIZE,
        retryDelays: RETRY_DELAYS,
        storeFingerprintForResuming: false,
        removeFingerprintOnSuccess: true,
        onUploadUrlAvailable: () => {
          if (u.url && !stopped) sendBack({ type: 'UPLOAD.URL', id, attempt, url: u.url });
        },
        onProgress: (bytesSent) => {
          if (!stopped) sendBack({ type: 'UPLOAD.PROGRESS', id, attempt, bytesSent, at: Date.now() });
        },
        onSuccess: () => resolve(u.url ?? ''),
        onError: (error) => reject(tusError(error)),
      });
      upload = u;
      u.start();
    });
    if (stopped) return;
    sendBack({ type: 'UPLOAD.SAVING', id, attempt });
    const item = await saveFile(input.target, folderId, uploadIdOf(url), input.name);
    if (!stopped) sendBack({ type: 'UPLOAD.DONE', id, attempt, entryId: item.id, savedName: item.name });
  })().catch((error: unknown) => fail(toApiError(error).toJSON()));

  return () => {
    stopped = true;
    void (upload as Upload | null)?.abort(terminate).catch(() => undefined);
  };
});

/** A paused or failed upload that was cancelled: its bytes on the server are dropped too. */
const discardUpload = (url: string) => void Upload.terminate(url, { headers: TUS_HEADERS, retryDelays: [] }).catch(() => undefined);

/**
 * The app's one upload queue: it outlives page changes inside the app, so uploads go on while the
 * user browses, and the page warns before it is closed while any is unfinished.
 */
export const uploadQueue = createActor(
  uploadQueueMachine.provide({
    actors: { uploadFile: tusUploadWorker },
    actions: { discardUpload: (_, params) => discardUpload(params.url) },
  }),
  { input: {} },
).start();

/** The spec: the browser warns before unload while uploads are pending. */
export const hasUnfinishedUploads = () => summarize(uploadQueue.getSnapshot().context.items).underWay > 0;

const interruptedOf = (userId: string) => uploadQueue.getSnapshot().context.items.filter((i) => i.status === 'interrupted' && i.target.userId === userId);

/**
 * Which chosen files continue an interrupted upload (same size and same fingerprint, each upload
 * claimed once) and which are new. Only files of a waiting upload's size are read for their
 * fingerprint; those that match none keep it, so they need not be read again.
 */
export const planUploads = async (
  waiting: readonly Pick<UploadItem, 'id' | 'size' | 'fingerprint'>[],
  uploads: readonly NewUpload[],
  fingerprint: (file: Blob) => Promise<string>,
): Promise<{ reattach: { id: string; file: Blob }[]; fresh: NewUpload[] }> => {
  const claimed = new Set<string>();
  const reattach: { id: string; file: Blob }[] = [];
  const fresh: NewUpload[] = [];
  for (const upload of uploads) {
    const candidates = upload.rejection ? [] : waiting.filter((i) => i.size === upload.file.size && !claimed.has(i.id));
    if (!candidates.length) {
      fresh.push(upload);
      continue;
    }
    const own = await fingerprint(upload.file).catch(() => null);
    const match = candidates.find((c) => c.fingerprint !== null && c.fingerprint === own);
    if (match) {
      claimed.add(match.id);
      reattach.push({ id: match.id, file: upload.file });
    } else {
      fresh.push({ ...upload, fingerprint: own });
    }
  }
  return { reattach, fresh };
};

/**
 * Files the user chose, into the queue: a file that is the same bytes as an interrupted upload of
 * the same user (same size, same fingerprint) continues that upload from the server's offset;
 * the others are new uploads. `only` limits the matching to one interrupted item (its own "choose
 * the file" button).
 */
export const addUploads = async (target: UploadTarget, uploads: readonly NewUpload[], only?: string): Promise<void> => {
  const waiting = interruptedOf(target.userId).filter((i) => only === undefined || i.id === only);
  const { reattach, fresh } = await planUploads(waiting, uploads, fingerprintOf);
  for (const r of reattach) uploadQueue.send({ type: 'REATTACH', id: r.id, file: r.file });
  if (fresh.length && only === undefined) uploadQueue.send({ type: 'ADD', target, files: fresh });
};

/**
 * The handles of the files dropped on their own (not inside a dropped folder), by name, where the
 * browser gives them (Chromium's File System Access API): kept with the upload, they let it resume
 * after a reload without the user picking the file again. Must be called during the drop event.
 */
export const droppedFileHandles = (list: DataTransferItemList): Promise<Map<string, FileHandleLike>> => {
  type WithHandle = DataTransferItem & { getAsFileSystemHandle?: () => Promise<{ kind: string; name: string } | null> };
  const asked = [...list]
    .filter((i): i is WithHandle => i.kind === 'file' && typeof (i as WithHandle).getAsFileSystemHandle === 'function')
    .map((i) => i.getAsFileSystemHandle!().catch(() => null));
  return Promise.all(asked).then(
    (handles) => new Map(handles.filter((h): h is FileHandleLike => h?.kind === 'file').map((h) => [h.name, h])),
    () => new Map(),
  );
};

/** Gives an interrupted upload its file back from the kept handle, asking the user's leave when `ask` (a click). */
export const resumeFromHandle = async (item: UploadItem, ask: boolean): Promise<boolean> => {
  const handle: FileHandleLike | null = item.handle;
  if (!handle) return false;
  try {
    let permission = (await handle.queryPermission?.({ mode: 'read' })) ?? 'granted';
    if (permission === 'prompt' && ask) permission = (await handle.requestPermission?.({ mode: 'read' })) ?? 'denied';
    if (permission !== 'granted') return false;
    const file = await handle.getFile();
    if (file.size !== item.size || (item.fingerprint !== null && (await fingerprintOf(file)) !== item.fingerprint)) return false;
    uploadQueue.send({ type: 'REATTACH', id: item.id, file });
    return true;
  } catch {
    return false;
  }
};

/**
 * The queue kept in the browser's IndexedDB while uploads are unfinished, so a reload (or a closed
 * tab) loses none: the records are written as items change (at most once a second for bytes), and
 * removed when an upload ends. Nothing is written before the kept records were read back.
 */
let kept = new Map<string, string>();
let restored: Promise<void> | null = null;
let flushTimer: ReturnType<typeof setTimeout> | null = null;
let writing: Promise<void> = Promise.resolve();

const flush = () => {
  flushTimer = null;
  const { next, put, remove } = storeChanges(kept, uploadQueue.getSnapshot().context.items);
  kept = next;
  writing = writing.then(() => uploadStore.write(put, remove)).catch(() => undefined);
};

const fingerprinting = new Set<string>();

/** Reads back the uploads of this user the page was left during; each is listed as interrupted, and resumes by itself where its handle still gives the file. */
export const restoreUploads = (userId: string): Promise<void> => {
  restored ??= uploadStore
    .all()
    .then((records) => {
      // Only this user's records are read, so only they are rewritten or removed from here on.
      const mine = records.filter((r) => r.target.userId === userId);
      for (const r of mine) kept.set(r.id, '');
      if (mine.length) uploadQueue.send({ type: 'RESTORE', items: mine });
    })
    .catch(() => undefined)
    .then(() => {
      flush();
      for (const item of interruptedOf(userId)) void resumeFromHandle(item, false);
    });
  return restored;
};

if (typeof window !== 'undefined') {
  uploadQueue.subscribe((snapshot) => {
    // Each file gets its fingerprint once, as it starts, so a reload can recognise it.
    for (const item of snapshot.context.items) {
      if (item.file && item.fingerprint === null && item.status !== 'failed' && !fingerprinting.has(item.id)) {
        fingerprinting.add(item.id);
        const id = item.id;
        void fingerprintOf(item.file).then(
          (fingerprint) => uploadQueue.send({ type: 'FINGERPRINT', id, fingerprint }),
          () => undefined,
        );
      }
    }
    if (restored === null) return;
    const structural = storeChanges(kept, snapshot.context.items);
    // An upload URL, a state or a fingerprint is written at once; mere progress at most once a second.
    const urgent =
      structural.remove.length > 0 ||
      structural.put.some((p) => {
        const before = kept.get(p.id);
        if (!before) return true;
        const old = JSON.parse(before) as { uploadUrl: string | null; fingerprint: string | null };
        return old.uploadUrl !== p.uploadUrl || old.fingerprint !== p.fingerprint;
      });
    if (urgent) {
      if (flushTimer) clearTimeout(flushTimer);
      flush();
    } else if (structural.put.length && !flushTimer) {
      flushTimer = setTimeout(flush, 1000);
    }
  });
}

if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', (event) => {
    if (!hasUnfinishedUploads()) return;
    event.preventDefault();
    // Older browsers show the warning only when a value is set.
    event.returnValue = '';
  });
}
