import { nameProblem, type NameProblem } from '@axel/domain/storage/storage.names';
import type { NormalisedError } from '../../api/errors';
import type { NewUpload } from './upload-queue.machine';

/** The parts of the File and Directory Entries API the drop reader uses. */
export interface EntryLike {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly name: string;
  file?: (success: (file: File) => void, failure?: (error: unknown) => void) => void;
  createReader?: () => { readEntries: (success: (entries: EntryLike[]) => void, failure?: (error: unknown) => void) => void };
}

export interface DroppedFile {
  file: File;
  name: string;
  /** Folder path below the drop target, `''` for a file dropped on its own. */
  relativeDir: string;
}

const fileOf = (entry: EntryLike) =>
  new Promise<File>((resolve, reject) => {
    if (!entry.file) reject(new Error('not a file'));
    else entry.file(resolve, reject);
  });

/** A directory reader answers in batches (Chromium: 100); it has read all when a batch is empty. */
const childrenOf = async (entry: EntryLike): Promise<EntryLike[]> => {
  const reader = entry.createReader?.();
  if (!reader) return [];
  const all: EntryLike[] = [];
  for (;;) {
    const batch = await new Promise<EntryLike[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
};

/**
 * Every file under the dropped entries, whole folders included, with its folder path. Empty
 * folders yield nothing, so they are not uploaded (the spec: empty folders cannot be uploaded).
 */
export const readDroppedEntries = async (entries: readonly EntryLike[], dir = ''): Promise<DroppedFile[]> => {
  const out: DroppedFile[] = [];
  for (const entry of entries) {
    if (entry.isFile) {
      out.push({ file: await fileOf(entry), name: entry.name, relativeDir: dir });
    } else if (entry.isDirectory) {
      out.push(...(await readDroppedEntries(await childrenOf(entry), dir ? `${dir}/${entry.name}` : entry.name)));
    }
  }
  return out;
};

/** Files chosen in a file input (a folder input gives each its `webkitRelativePath`). */
export const fromFileList = (files: Iterable<File>): DroppedFile[] =>
  [...files].map((file) => {
    const relative = (file as File & { webkitRelativePath?: string }).webkitRelativePath ?? '';
    const parts = relative.split('/').filter(Boolean);
    return { file, name: file.name, relativeDir: parts.slice(0, -1).join('/') };
  });

export const NAME_REJECTED = 'INVALID_NAME';

/** The first name rule the file or one of its folders breaks, as the error the panel shows. */
export const uploadRejection = (dropped: Pick<DroppedFile, 'name' | 'relativeDir'>): NormalisedError | null => {
  const check = (name: string, kind: 'file' | 'folder'): NameProblem | null => nameProblem(name, kind);
  for (const folder of dropped.relativeDir.split('/').filter(Boolean)) {
    const problem = check(folder, 'folder');
    if (problem) return { code: NAME_REJECTED, message: 'This name is not allowed', data: { problem, name: folder } };
  }
  const problem = check(dropped.name, 'file');
  return problem ? { code: NAME_REJECTED, message: 'This name is not allowed', data: { problem, name: dropped.name } } : null;
};

export const toNewUploads = (dropped: readonly DroppedFile[]): NewUpload[] =>
  dropped.map((d) => ({ file: d.file, name: d.name, relativeDir: d.relativeDir, rejection: uploadRejection(d) }));
