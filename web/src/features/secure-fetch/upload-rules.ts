import { toNewUploads, type DroppedFile } from '../files/drop';
import type { NewUpload } from '../files/upload-queue.machine';

export const TOO_LARGE = 'SECURE_FETCH_TOO_LARGE';

/**
 * The files dropped on the upload page as queue entries: a name the storage refuses (spec §5) or
 * a file over the link's size limit (spec §8) is listed as failed and never sent.
 */
export const linkUploads = (dropped: readonly DroppedFile[], maxSize: number | null): NewUpload[] =>
  toNewUploads(dropped).map((upload) =>
    !upload.rejection && maxSize !== null && upload.file.size > maxSize
      ? { ...upload, rejection: { code: TOO_LARGE, message: 'This file is over the Secure Fetch size limit', data: { maxSize } } }
      : upload,
  );
