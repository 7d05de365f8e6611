import { FORBIDDEN_NAME_CHARACTERS, nameProblem } from '@axel/domain/storage/storage.names';
import { isFile } from '../files/labels';
import { shortArchiveName } from './sharing.validation';

export interface DownloadChoice {
  id: string;
  name: string;
  label: 'file' | 'folder' | string;
}

/** How a selection leaves: one file as itself, anything else (folders, several entries) as one zip. */
export type DownloadPlan = { kind: 'file'; id: string; name: string } | { kind: 'archive'; itemIds: string[]; archiveName: string } | { kind: 'none' };

/**
 * The download of the owner's (or a visitor's) selection inside a share, or of all it holds: a lone
 * file straight (a share of one file downloads as that file, its name and type), else a zip named
 * after the one folder chosen, else after the folder on screen or the share.
 */
export const downloadPlan = (chosen: readonly DownloadChoice[], where: { folderName: string | null; shareTitle: string }): DownloadPlan => {
  if (chosen.length === 0) return { kind: 'none' };
  const only = chosen.length === 1 ? chosen[0]! : null;
  if (only && isFile(only)) return { kind: 'file', id: only.id, name: only.name };
  const name = only ? only.name : (where.folderName ?? where.shareTitle);
  return { kind: 'archive', itemIds: [...new Set(chosen.map((c) => c.id))], archiveName: shortArchiveName(fileNameOf(name)) };
};

/** A share title as an archive's file name: the file name rules hold (the server refuses others). */
const fileNameOf = (name: string): string => {
  let safe = name;
  for (const c of FORBIDDEN_NAME_CHARACTERS) safe = safe.split(c).join('_');
  safe = safe.replace(/^\.+/, '').trim();
  return safe && nameProblem(safe, 'file') === null ? safe : 'share';
};
