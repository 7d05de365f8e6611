import { api } from '../../api/client';
import { filesApi } from '../files/files.api';

export type AppName = 'dropbox' | 'clio';
export const CLIO_REGIONS = ['app', 'eu', 'ca', 'au'] as const;
export type ClioRegion = (typeof CLIO_REGIONS)[number];

export interface ConnectedApp {
  app: AppName;
  /** The server has credentials for this provider. */
  configured: boolean;
  /** The plan permits it and no team forbids it. */
  allowed: boolean;
  connected: boolean;
  region: ClioRegion | null;
}

export interface ClioMatter {
  id: string;
  displayNumber: string;
  description: string;
}

/** Dropbox's entry metadata, as the files API answers it (`files.stone`). */
export interface DropboxEntry {
  '.tag': 'file' | 'folder' | 'deleted';
  name: string;
  path_display: string;
  path_lower: string;
  id: string;
  size?: number;
  server_modified?: string;
  content_hash?: string;
}
interface ListFolderResult {
  entries: DropboxEntry[];
  cursor: string;
  has_more: boolean;
}

/** Dropbox's page size in this product (spec §9: 500 for the dropbox view). */
export const DROPBOX_PAGE_SIZE = 500;

const enc = encodeURIComponent;
const userPath = (userId: string) => `/users/${enc(userId)}`;

export const appsApi = {
  list: (userId: string) => api.get<{ data: ConnectedApp[] }>(`${userPath(userId)}/apps`).then((a) => a.data),
  disconnect: (userId: string, app: AppName) => api.delete<{ connected: false }>(`${userPath(userId)}/apps/${app}`),
  dropboxAuthorize: (userId: string) => api.get<{ url: string }>(`${userPath(userId)}/dropbox/authorize`),
  dropboxAuth: (userId: string, code: string, state: string) => api.post<{ connected: true }>(`${userPath(userId)}/dropbox/auth`, { code, state }),
  clioAuthorize: (userId: string, region: ClioRegion) => api.get<{ url: string }>(`${userPath(userId)}/clio/authorize`, { region }),
  clioAuth: (userId: string, code: string, state: string | null) =>
    api.post<{ connected: true; region: ClioRegion; name: string }>(`${userPath(userId)}/clio/auth/`, state ? { code, state } : { code }),
  clioMatters: (userId: string, q?: string) => api.get<{ data: ClioMatter[] }>(`${userPath(userId)}/clio/matters`, { q: q || undefined }).then((a) => a.data),
  fileCertificate: (userId: string, matterId: string, fetchId: string) =>
    api.post<{ documentId: string; name: string; certificateSha256: string }>(`${userPath(userId)}/clio/certificates`, { matterId, fetchId }),
  /** Every entry of a folder, page after page (`has_more` and the cursor). */
  async listFolder(path: string, signal?: AbortSignal): Promise<DropboxEntry[]> {
    let page = await api.request<ListFolderResult>('POST', '/dropboxapi/2/files/list_folder', { body: { path, limit: DROPBOX_PAGE_SIZE }, signal });
    const entries = [...page.entries];
    while (page.has_more) {
      page = await api.request<ListFolderResult>('POST', '/dropboxapi/2/files/list_folder/continue', { body: { cursor: page.cursor }, signal });
      entries.push(...page.entries);
    }
    return entries.filter((e) => e['.tag'] !== 'deleted');
  },
  createFolder: (path: string) => api.post<{ metadata: DropboxEntry }>('/dropboxapi/2/files/create_folder_v2', { path, autorename: false }),
  temporaryLink: (path: string) => api.post<{ link: string }>('/dropboxapi/2/files/get_temporary_link', { path }),
  /** A Dropbox file into the user's online storage, at its root: imported (hash checked), then made a file. */
  async importFile(userId: string, path: string) {
    const [storage] = await filesApi.storages(userId);
    if (!storage) throw new Error('no storage');
    const imported = await api.post<{ uploadId: string; name: string; size: number }>(`${userPath(userId)}/dropbox/import`, { path, storageId: storage.id });
    return filesApi.createFile(userId, storage.id, null, { uploadId: imported.uploadId, name: imported.name, rename: true });
  },
};

/** `files/dropbox/:subPath?`: the Dropbox path is one URL segment, so its slashes are encoded in it. */
export const dropboxPathOf = (subPath: string | undefined): string => (subPath ? `/${subPath.split('/').filter(Boolean).join('/')}` : '');
export const subPathOf = (dropboxPath: string): string => dropboxPath.replace(/^\//, '');
/** The folders above a Dropbox path, from the root: `/a/b/c` gives `/a`, `/a/b`. */
export const ancestorsOf = (dropboxPath: string): { name: string; path: string }[] => {
  const parts = dropboxPath.split('/').filter(Boolean);
  return parts.slice(0, -1).map((name, i) => ({ name, path: `/${parts.slice(0, i + 1).join('/')}` }));
};
