import { toNewUploads, type DroppedFile } from '../files/drop';
import type { NormalisedError } from '../../api/errors';
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

/** A chosen file the page did not take, with why (the limit is in the error's data). */
export interface RefusedFile {
  /** Folder path and name. */
  name: string;
  size: number;
  error: NormalisedError;
}

/**
 * The chosen files split into those the page uploads and those it refuses at once (over the size
 * limit, a refused name): a refused file is never listed for upload, so no retry is offered for
 * what no retry can fix; the page names each with its reason instead.
 */
export const splitLinkUploads = (dropped: readonly DroppedFile[], maxSize: number | null): { accepted: NewUpload[]; refused: RefusedFile[] } => {
  const accepted: NewUpload[] = [];
  const refused: RefusedFile[] = [];
  for (const upload of linkUploads(dropped, maxSize)) {
    if (upload.rejection) {
      refused.push({ name: upload.relativeDir ? `${upload.relativeDir}/${upload.name}` : upload.name, size: upload.file.size, error: upload.rejection });
    } else {
      accepted.push(upload);
    }
  }
  return { accepted, refused };
};
