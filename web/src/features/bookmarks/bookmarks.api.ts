import { api } from '../../api/client';

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
  q?: string;
  page?: number;
  perPage?: number;
  sortBy?: 'description' | 'createdAt' | 'modifiedAt';
  sortOrder?: 'ASC' | 'DESC';
}

const enc = encodeURIComponent;

export const bookmarksApi = {
  list: (query: BookmarkQuery = {}) => api.get<BookmarkPage<Bookmark>>('/bookmarks', { perPage: BOOKMARKS_PAGE_SIZE, ...query }),
  /** The caller's bookmark of this share link, if any. */
  ofLink: (shareLinkId: string) => api.get<BookmarkPage<Bookmark>>('/bookmarks', { shareLinkId, perPage: 1 }).then((p) => p.data[0] ?? null),
  add: (shareLinkId: string, bookmarkListId?: string | null) => api.post<Bookmark>('/bookmarks', { shareLinkId, bookmarkListId }),
  rename: (id: string, description: string) => api.request<Bookmark>('PATCH', `/bookmarks/${enc(id)}`, { body: { description } }),
  move: (id: string, bookmarkListId: string | null) => api.request<Bookmark>('PATCH', `/bookmarks/${enc(id)}`, { body: { bookmarkListId } }),
  remove: (id: string) => api.delete<void>(`/bookmarks/${enc(id)}`),
  lists: () => api.get<BookmarkPage<BookmarkList>>('/bookmarks/lists/', { perPage: BOOKMARK_LISTS_PAGE_SIZE }),
  list1: (id: string) => api.get<BookmarkList>(`/bookmarks/lists/${enc(id)}`),
  createList: (name: string) => api.post<BookmarkList>('/bookmarks/lists/', { name }),
  renameList: (id: string, name: string) => api.request<BookmarkList>('PATCH', `/bookmarks/lists/${enc(id)}`, { body: { name } }),
  deleteList: (id: string) => api.delete<void>(`/bookmarks/lists/${enc(id)}`),
};
