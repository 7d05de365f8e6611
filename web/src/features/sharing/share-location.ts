import { isFolder } from '../files/labels';
import type { ShareEntry, ShareKind } from './sharing.types';

/** Folders walked up at most to rebuild a deep link's breadcrumbs (a cycle or a deeper tree stops there). */
export const MAX_SHARE_DEPTH = 100;

/** Where a share page lives: the link's own route, or a signed-in recipient's shares_shared page. */
export type ShareRouteBase = { kind: ShareKind; linkId: string; sharedWithMe?: boolean };

const enc = encodeURIComponent;

/** `/shares/<linkId>`, `/private-share/<linkId>` or `/shares_shared/<linkId>`. */
export const shareBasePath = ({ kind, linkId, sharedWithMe }: ShareRouteBase): string =>
  `/${sharedWithMe ? 'shares_shared' : kind === 'private' ? 'private-share' : 'shares'}/${enc(linkId)}`;

/** The page's address with the visitor's folder (`…/entries/<folderId>`), or the share's root. */
export const shareLocationPath = (base: ShareRouteBase, folderId: string | null): string =>
  folderId ? `${shareBasePath(base)}/entries/${enc(folderId)}` : shareBasePath(base);

/** The folder a route's rest-of-path names (`entries/<id>`, with or without a trailing slash), else null. */
export const folderIdFromRest = (rest: string | undefined | null): string | null => {
  const m = /^\/?entries\/([^/]+)\/?$/.exec(rest ?? '');
  if (!m) return null;
  try {
    const id = decodeURIComponent(m[1]!).trim();
    return id || null;
  } catch {
    return null;
  }
};

export interface LocatedEntry {
  /** The folders from the share's root down to the folder to show. */
  path: ShareEntry[];
  /** A file named by the link: shown selected in its folder. */
  focusId: string | null;
}

/**
 * The breadcrumbs of an entry named by a link: the entry, then its parents up to a shared item
 * (whose parentId is null for visitors). A file's folder is opened with the file in focus.
 */
export const locateEntry = async (entryId: string, entryOf: (id: string) => Promise<ShareEntry>): Promise<LocatedEntry> => {
  const chain: ShareEntry[] = [];
  const seen = new Set<string>();
  let id: string | null = entryId;
  while (id && chain.length < MAX_SHARE_DEPTH && !seen.has(id)) {
    seen.add(id);
    const entry: ShareEntry = await entryOf(id);
    chain.unshift(entry);
    id = entry.parentId ?? null;
  }
  const last = chain.at(-1);
  if (last && !isFolder(last)) return { path: chain.slice(0, -1), focusId: last.id };
  return { path: chain, focusId: null };
};
