import { api, API_BASE, buildUrl } from '../../api/client';
import { ApiError, ClientErrorCodes, errorFromResponse } from '../../api/errors';
import { shareTokens } from '../sharing/share-tokens';

/** Page sizes of the specification (section 9): 500 for list views, 1000 for bookmark lists. */
export const BOOKMARKS_PAGE_SIZE = 500;
export const BOOKMARK_LISTS_PAGE_SIZE = 1000;

export interface Bookmark {
  id: string;
  shareId: string;
  shareLinkId: string;
  bookmarkListId: string | null;
  description: string;
  createdAt: string;
  modifiedAt: string;
  /** What the share is now; null when not known yet. */
  shareStatus: 'active' | 'expired' | 'revoked' | 'deleted' | null;
  shareKind: 'public' | 'private' | null;
}

export interface BookmarkList {
  id: string;
  name: string;
  bookmarksCount: number;
  createdAt: string;
  modifiedAt: string;
}

export interface BookmarkPage<T> {
  data: T[];
  totalCount: number;
  page: number;
  perPage: number;
}

export interface BookmarkQuery {
  /** A list's id, `none` for the bookmarks in no list, absent for all. */
  bookmarkListId?: string;
  shareLinkId?: string;
  shareId?: string;
  q?: string;
  page?: number;
  perPage?: number;
  sortBy?: 'description' | 'createdAt' | 'modifiedAt';
  sortOrder?: 'ASC' | 'DESC';
}

const enc = encodeURIComponent;

/**
 * Bookmarking needs what opening needs: a password share is kept with the object-access token this
 * tab holds for it (sent as `X-Object-Access`, never the password).
 */
const addBookmark = async (shareLinkId: string, bookmarkListId: string | null | undefined, token: string | null): Promise<Bookmark> => {
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json', 'Content-Type': 'application/json' };
  if (token) headers['X-Object-Access'] = token;
  let response: Response;
  try {
    response = await fetch(buildUrl(API_BASE, '/bookmarks'), {
      method: 'POST',
      headers,
      credentials: 'include',
      body: JSON.stringify({ shareLinkId, bookmarkListId }),
    });
  } catch (cause) {
    throw new ApiError(ClientErrorCodes.network, cause instanceof Error ? cause.message : 'Network error');
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    body = text;
  }
  if (!response.ok) throw errorFromResponse(response.status, body, response.statusText);
  return body as Bookmark;
};

export const bookmarksApi = {
  list: (query: BookmarkQuery = {}) => api.get<BookmarkPage<Bookmark>>('/bookmarks', { perPage: BOOKMARKS_PAGE_SIZE, ...query }),
  /** The caller's bookmark of this share link, if any. */
  ofLink: (shareLinkId: string) => api.get<BookmarkPage<Bookmark>>('/bookmarks', { shareLinkId, perPage: 1 }).then((p) => p.data[0] ?? null),
  /** The caller's bookmark of this share (by its id), if any. */
  ofShare: (shareId: string) => api.get<BookmarkPage<Bookmark>>('/bookmarks', { shareId, perPage: 1 }).then((p) => p.data[0] ?? null),
  add: (shareLinkId: string, bookmarkListId?: string | null) => addBookmark(shareLinkId, bookmarkListId, shareTokens.get(shareLinkId)),
  rename: (id: string, description: string) => api.request<Bookmark>('PATCH', `/bookmarks/${enc(id)}`, { body: { description } }),
  move: (id: string, bookmarkListId: string | null) => api.request<Bookmark>('PATCH', `/bookmarks/${enc(id)}`, { body: { bookmarkListId } }),
  remove: (id: string) => api.delete<void>(`/bookmarks/${enc(id)}`),
  lists: () => api.get<BookmarkPage<BookmarkList>>('/bookmarks/lists/', { perPage: BOOKMARK_LISTS_PAGE_SIZE }),
  list1: (id: string) => api.get<BookmarkList>(`/bookmarks/lists/${enc(id)}`),
  createList: (name: string) => api.post<BookmarkList>('/bookmarks/lists/', { name }),
  renameList: (id: string, name: string) => api.request<BookmarkList>('PATCH', `/bookmarks/lists/${enc(id)}`, { body: { name } }),
  deleteList: (id: string) => api.delete<void>(`/bookmarks/lists/${enc(id)}`),
};
