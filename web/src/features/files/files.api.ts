import { api, API_BASE, buildUrl } from '../../api/client';
import { asPage } from '../../api/page';
import type { ItemLabel } from './labels';

/** Page size of file, trash and search views (specification section 9). */
export const FILES_PAGE_SIZE = 500;
/** The storage task state is polled every 2 s (specification section 9). */
export const TASK_POLL_MS = 2000;

export { isFile, isFolder, type ItemLabel } from './labels';
export type SortBy = 'name' | 'size' | 'createdAt' | 'modifiedAt';
export type SortOrder = 'ASC' | 'DESC';

export interface Storage {
  id: string;
  type: string;
  name: string | null;
  sizeUsed: number;
  sizeTotal: number;
  sizeTrashed?: number;
  isOwner?: boolean;
  ownerId?: string;
  /** A storage of the team the person joined (its owner's), reached through their own paths. */
  isTeamFolder?: boolean;
}

/** An entry of a storage as the list, search and trash calls answer it. */
export interface Item {
  id: string;
  name: string;
  label: ItemLabel | string;
  size: number;
  mime?: string | null;
  parentId?: string | null;
  storageId: string;
  createdAt?: string;
  modifiedAt?: string;
  hash?: string | null;
  fileId?: string | null;
  /** Encrypted end to end in the browser: only the unlocker opens it. */
  e2eeEnabled?: boolean;
  /** Search results only: the path of the folder the item is in (`/Projects/Axel`, `/` at the root). */
  location?: string;
}

export interface ItemInfo {
  [field: string]: unknown;
}

export type TaskAction = 'trash' | 'restore' | 'delete' | 'copy' | 'move' | 'archive';

export interface StorageTask {
  id: string;
  status: string;
  type?: string;
  errorMessage?: string | null;
  errorCode?: string | number | null;
  downloadURL?: string | null;
  downloadId?: string | null;
}

export interface ListQuery {
  page: number;
  sortBy: SortBy;
  sortOrder: SortOrder;
  label?: ItemLabel;
}

const enc = encodeURIComponent;
const userPath = (userId: string) => `/users/${enc(userId)}`;
export const storagePath = (userId: string, storageId: string) => `${userPath(userId)}/storages/${enc(storageId)}`;
/** `.../storages/{storageId}/[folders/{folderId}/]` */
export const containerPath = (userId: string, storageId: string, folderId: string | null) =>
  folderId ? `${storagePath(userId, storageId)}/folders/${enc(folderId)}` : storagePath(userId, storageId);

/** A path the API answers (`/api/users/...`, or an absolute URL) as a path for the API client. */
export const apiRelative = (url: string) => {
  const path = url.startsWith('http') ? new URL(url).pathname + new URL(url).search : url;
  return path.startsWith(`${API_BASE}/`) ? path.slice(API_BASE.length) : path;
};

export const filesApi = {
  storages: (userId: string) => api.get<unknown>(`${userPath(userId)}/storages/`).then((a) => asPage<Storage>(a).data),
  /** The storages of the team the person joined as a member (none for the team's owner or outside a team). */
  teamStorages: (userId: string) => api.get<{ data: Storage[] }>(`${userPath(userId)}/team-storages/`).then((a) => a.data),
  list: (userId: string, storageId: string, folderId: string | null, q: ListQuery) =>
    api.get<unknown>(`${containerPath(userId, storageId, folderId)}/items/`, { perPage: FILES_PAGE_SIZE, ...q }).then((a) => asPage<Item>(a)),
  folder: (userId: string, storageId: string, folderId: string) => api.get<Item>(`${storagePath(userId, storageId)}/folders/${enc(folderId)}`),
  /** The folders from the storage's root down to (not including) this one. */
  parents: (userId: string, storageId: string, folderId: string) =>
    api.get<unknown>(`${storagePath(userId, storageId)}/folders/${enc(folderId)}/parent/`).then((a) => asPage<Item>(a).data),
  createFolder: (userId: string, storageId: string, parentId: string | null, name: string) =>
    api.post<Item>(`${containerPath(userId, storageId, parentId)}/items/`, { name, label: 'folder' }),
  createFile: (userId: string, storageId: string, folderId: string | null, body: { uploadId: string; name: string; rename?: boolean }) =>
    api.post<Item>(`${containerPath(userId, storageId, folderId)}/items/`, { ...body, label: 'file' }),
  info: (userId: string, storageId: string, itemId: string) => api.get<ItemInfo>(`${storagePath(userId, storageId)}/items/${enc(itemId)}/info/`),
  rename: (userId: string, storageId: string, itemId: string, name: string) =>
    api.request<Item>('PATCH', `${storagePath(userId, storageId)}/items/${enc(itemId)}/`, { body: { name } }),
  search: (userId: string, storageId: string, search: string, q: ListQuery) =>
    api.get<unknown>(`${storagePath(userId, storageId)}/search/`, { search, perPage: FILES_PAGE_SIZE, ...q }).then((a) => asPage<Item>(a)),
  trash: (userId: string, storageId: string | undefined, page: number) =>
    api.get<unknown>(`${userPath(userId)}/trash-bin/`, { storageId, perPage: FILES_PAGE_SIZE, page, sort: 'name' }).then((a) => asPage<Item>(a)),
  startTask: (
    userId: string,
    body: { action: TaskAction; itemIds: string[]; archiveName?: string; destinationId?: string | null; storageId?: string; skip2fa?: boolean },
  ) => api.post<{ id: string; stateURL?: string }>(`${userPath(userId)}/storage-tasks/`, body),
  taskState: (userId: string, task: { id: string; stateURL?: string }) =>
    api.get<StorageTask>(task.stateURL ? apiRelative(task.stateURL) : `${userPath(userId)}/storage-tasks/${enc(task.id)}/`),
};

/** The bytes of a file, for a download link or a preview (`GET .../files/{fileId}/sources/`). */
export const sourceUrl = (userId: string, item: Pick<Item, 'id' | 'fileId' | 'storageId' | 'name' | 'mime'>, options: { download?: boolean } = {}) =>
  buildUrl(API_BASE, `${storagePath(userId, item.storageId)}/files/${enc(item.fileId ?? item.id)}/sources/`, {
    fileName: options.download ? item.name : undefined,
    contentType: options.download ? undefined : item.mime?.split(';')[0]?.trim() || undefined,
  });
