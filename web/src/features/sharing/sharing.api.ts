import { api } from '../../api/client';
import { asPage } from '../../api/page';
import type { AccessLogEntry, Share, ShareEdit, ShareEntry, ShareInput, ShareListQuery, SharedWithMe } from './sharing.types';

/** Page size of share views (specification section 9). */
export const SHARES_PAGE_SIZE = 500;

export { asPage, type Page } from '../../api/page';

const enc = encodeURIComponent;
const sharePath = (id: string) => `/shares/${enc(id)}`;

/** The owner's share calls (session required). */
export const sharingApi = {
  create: (input: ShareInput) => api.post<Share>('/shares/', input),
  list: (query: ShareListQuery) => {
    const { q, ...rest } = query;
    const filtered = Boolean(rest.expiresFrom || rest.expiresAt || rest.email);
    // The search takes the text and the page only; the list sorts and filters (by title too).
    return filtered
      ? api.get<unknown>('/shares/', { ...rest, q }).then((a) => asPage<Share>(a))
      : q
        ? api.get<unknown>('/shares/search', { q, page: rest.page, perPage: rest.perPage }).then((a) => asPage<Share>(a))
        : api.get<unknown>('/shares/', { ...rest }).then((a) => asPage<Share>(a));
  },
  get: (id: string) => api.get<Share>(`${sharePath(id)}/`),
  edit: (id: string, patch: ShareEdit) => api.request<Share>('PATCH', `${sharePath(id)}/`, { body: patch }),
  revoke: (id: string) => api.post<Share>(`${sharePath(id)}/revoke`),
  remove: (id: string) => api.delete<unknown>(`${sharePath(id)}/`),
  resend: (id: string) => api.post<unknown>(`${sharePath(id)}/resend`),
  block: (id: string, email: string) => api.post<Share>(`${sharePath(id)}/recipients/${enc(email)}/block`),
  unblock: (id: string, email: string) => api.post<Share>(`${sharePath(id)}/recipients/${enc(email)}/unblock`),
  accessLog: (id: string) => api.get<unknown>(`${sharePath(id)}/access-log`).then((a) => asPage<AccessLogEntry>(a).data),
  entries: (id: string, vertexId: string | null) =>
    api.get<unknown>(`${sharePath(id)}/entries/`, { vertexId: vertexId ?? undefined }).then((a) => asPage<ShareEntry>(a)),
  /** A signed URL of a shared file's bytes, for its owner (`inline` for a preview). */
  entryDownloadUrl: (id: string, entryId: string, inline = false) =>
    api.get<{ url: string }>(`${sharePath(id)}/entries/${enc(entryId)}`, { q: 'download-url', inline: inline ? 'true' : undefined }).then((a) => a.url),
  /** The owner's zip of shared entries: an archive task of the share, then its signed URL. */
  archiveUrl: async (id: string, itemIds: string[], archiveName: string) => {
    const task = await api.post<{ id: string }>(`${sharePath(id)}/archive-tasks/`, { itemIds, archiveName });
    const { url } = await api.get<{ url: string }>('/urls/share-archive-download/', { shareId: id, archiveTaskId: task.id });
    return url;
  },
  planCount: (sinceDate?: string) => api.get<{ count: number; limit?: number | null }>('/shares/user-plan-count/', { sinceDate }),
  /** Live private shares sent to the signed-in user's verified e-mail, newest first. */
  sharedWithMe: (page: number, perPage = SHARES_PAGE_SIZE) =>
    api.get<unknown>('/shares/shared-with-me', { page, perPage }).then((a) => asPage<SharedWithMe>(a)),
};
