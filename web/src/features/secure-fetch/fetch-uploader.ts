import { Upload } from 'tus-js-client';
import { fromCallback } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import { TUS_ENDPOINT, tusError, uploadIdOf } from '../files/uploader';
import { uploadQueueMachine, type UploadTarget, type UploadWorkerCommand, type UploadWorkerInput } from '../files/upload-queue.machine';

const CHUNK_SIZE = 8 * 1024 * 1024;
const RETRY_DELAYS = [0, 1000, 3000, 5000];
const TUS_HEADERS = { 'X-Requested-With': 'XMLHttpRequest' };

/** Refusals no retry can fix: the link is gone or the file is over its limit. */
const FINAL_CODES = new Set([
  'SECURE_FETCH_MISSING',
  'SECURE_FETCH_INVALID',
  'SECURE_FETCH_USED',
  'SECURE_FETCH_TOO_LARGE',
  'INSUFFICIENT_SPACE',
  'INVALID_NAME',
]);

/** The queue's items go to the link, not to a storage of the sender: the target only groups them. */
export const LINK_TARGET: UploadTarget = { userId: '', storageId: '', folderId: null };

/**
 * The worker of one file of the upload page: an anonymous tus upload admitted by the link
 * (`secureFetchId` in its metadata), resumed from `uploadUrl` when there is one. The upload id is
 * reported as the item's entry: the submission names the finished uploads by it.
 */
export const fetchUploadWorker = (linkId: string) =>
  fromCallback<UploadWorkerCommand, UploadWorkerInput>(({ input, sendBack, receive }) => {
    const { id, attempt } = input;
    let upload: Upload | null = null;
    let terminate = false;
    let stopped = false;
    const fail = (error: NormalisedError) => !stopped && sendBack({ type: 'UPLOAD.FAILED', id, attempt, error, retryable: !FINAL_CODES.has(error.code) });
    receive((command) => {
      if (command.type === 'TERMINATE') terminate = true;
    });
    const metadata: Record<string, string> = {
      secureFetchId: linkId,
      filename: input.name,
      filetype: input.file.type || 'application/octet-stream',
    };
    if (input.relativeDir) metadata.relpath = input.relativeDir;
    new Promise<string>((resolve, reject) => {
      const u = new Upload(input.file, {
        endpoint: TUS_ENDPOINT,
        uploadUrl: input.uploadUrl,
        metadata,
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
    })
      .then((url) => {
        if (!stopped) sendBack({ type: 'UPLOAD.DONE', id, attempt, entryId: uploadIdOf(url) });
      })
      .catch((error: unknown) => fail(toApiError(error).toJSON()));
    return () => {
      stopped = true;
      void (upload as Upload | null)?.abort(terminate).catch(() => undefined);
    };
  });

/** The upload queue of one upload page (the app's own queue belongs to the signed-in user's storage). */
export const fetchUploadQueueMachine = (linkId: string) =>
  uploadQueueMachine.provide({
    actors: { uploadFile: fetchUploadWorker(linkId) },
    actions: { discardUpload: (_, params) => void Upload.terminate(params.url, { headers: TUS_HEADERS, retryDelays: [] }).catch(() => undefined) },
  });
