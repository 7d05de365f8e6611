import { Upload, type DetailedError } from 'tus-js-client';
import { createActor, fromCallback } from 'xstate';
import { ApiError, errorFromResponse, toApiError, type NormalisedError } from '../../api/errors';
import { filesApi, FILES_PAGE_SIZE, isFolder, type Item } from './files.api';
import { summarize, uploadQueueMachine, type UploadTarget, type UploadWorkerCommand, type UploadWorkerInput } from './upload-queue.machine';

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
    if (error instanceof ApiError && error.status === 409) return filesApi.createFile(target.userId, target.storageId, folderId, { uploadId, name, rename: true });
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
  const fail = (error: NormalisedError) =>
    !stopped && sendBack({ type: 'UPLOAD.FAILED', id, attempt, error, retryable: !FINAL_CODES.has(error.code) });

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
          if (!stopped) sendBack({ type: 'UPLOAD.PROGRESS', id, attempt, bytesSent });
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
    if (!stopped) sendBack({ type: 'UPLOAD.DONE', id, attempt, entryId: item.id });
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
export const hasUnfinishedUploads = () => summarize(uploadQueue.getSnapshot().context.items).unfinished > 0;

if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', (event) => {
    if (!hasUnfinishedUploads()) return;
    event.preventDefault();
    // Older browsers show the warning only when a value is set.
    event.returnValue = '';
  });
}
