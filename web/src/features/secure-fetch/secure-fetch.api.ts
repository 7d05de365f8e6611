import { api, API_BASE, buildUrl } from '../../api/client';
import type { FileHashes } from './hashing.core';
import type { Receipt } from './receipt';
import type { Metadata } from './secure-fetch.validation';

export type FetchStatus = 'pending' | 'uploaded' | 'active';
export type SortOrder = 'ASC' | 'DESC';
export type FetchSortBy = 'createdAt' | 'expiresAt' | 'note' | 'status';

/** The public summary of a link that the upload page shows (GET /secure-fetch-links/{linkId}). */
export interface LinkSummary {
  note: string;
  includeMetadata: boolean;
  certificated: boolean;
  /** Largest file the link accepts, in bytes (null: no limit of its own). */
  maxSize: number | null;
  status: FetchStatus;
  expiresAt: string | null;
  /** The hashes the certificate will show (md5, sha1, sha3-512). */
  hashChoice?: string[];
  /** Who asks for the files, as the owner's profile names them (null: no name to show). */
  ownerName?: string | null;
}

/** One Secure Fetch of the owner (spec §3 Share and Secure Fetch fields). */
export interface SecureFetch {
  id: string;
  shareId: string;
  shareLinkId: string;
  type?: string;
  note: string;
  status: FetchStatus;
  expiresAt: string | null;
  includeMetadata: boolean;
  hashChoice: string[];
  certificated: boolean;
  paid: boolean;
  txId: string | null;
  createdAt: string;
  revokedAt: string | null;
  usedAt: string | null;
  /** When unpaid received files were deleted (2 hours after they arrived). */
  collectedAt?: string | null;
  metadata?: Partial<Metadata> | null;
  url?: string;
  items?: FetchItem[];
  totalSize?: number;
}

export interface FetchItem extends Partial<FileHashes> {
  id: string;
  name: string;
  size: number;
  mime?: string | null;
  relpath?: string | null;
  createdAt?: string;
}

/** What pay and pin answers (paying again answers the same payment). */
export interface PayAnswer {
  txId: string;
  amount: string;
  fetch: SecureFetch;
}

export interface FetchPage {
  data: SecureFetch[];
  totalCount: number;
}

export interface ListQuery {
  page: number;
  perPage: number;
  sortBy: FetchSortBy;
  sortOrder: SortOrder;
  q?: string;
  /** Links expiring in this range (ISO instants). */
  expiresFrom?: string;
  expiresAt?: string;
}

export interface CreateRequest {
  note: string;
  expiresAt: string | null;
  includeMetadata: boolean;
  hashChoice: string[];
  certificate: boolean;
}

/** A finished upload as the submission names it (spec §7 `file {id, name, nodeId, uploadId, mime, size}`). */
export interface SubmittedFile {
  id: string;
  name: string;
  nodeId: string;
  uploadId: string;
  mime: string;
  size: number;
  relpath?: string;
  /** The file's own modification time (ISO), which the certificate shows. */
  modified?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A page of fetches, whether the server answers `{ data, totalCount }`, `{ items, total }` or an array. */
export const fetchPageOf = (raw: unknown): FetchPage => {
  const list = Array.isArray(raw) ? raw : isRecord(raw) ? (raw.data ?? raw.items ?? []) : [];
  const data = (Array.isArray(list) ? list : []) as SecureFetch[];
  const total = isRecord(raw) ? (raw.totalCount ?? raw.total) : undefined;
  return { data, totalCount: typeof total === 'number' ? total : data.length };
};

export const itemsOf = (raw: unknown): FetchItem[] => {
  const list = Array.isArray(raw) ? raw : isRecord(raw) ? (raw.data ?? raw.items ?? []) : [];
  return (Array.isArray(list) ? list : []) as FetchItem[];
};

const owner = (userId: string) => `/users/${encodeURIComponent(userId)}/secure-fetches/`;
const one = (userId: string, fetchId: string) => `${owner(userId)}${encodeURIComponent(fetchId)}/`;

/** The public page of a link: where the owner sends the person who uploads. */
export const uploadPageUrl = (linkId: string, origin = typeof window === 'undefined' ? '' : window.location.origin) =>
  `${origin}/secure-fetch/${encodeURIComponent(linkId)}`;

export const certificatePdfUrl = (userId: string, fetchId: string) => buildUrl(API_BASE, `${one(userId, fetchId)}certificate`, { format: 'pdf' });
export const itemDownloadUrl = (userId: string, fetchId: string, itemId: string) =>
  buildUrl(API_BASE, `${one(userId, fetchId)}items/${encodeURIComponent(itemId)}/download`);

export const secureFetchApi = {
  // The person who uploads, without a session.
  link: (linkId: string) => api.get<LinkSummary>(`/secure-fetch-links/${encodeURIComponent(linkId)}`),
  submit: (linkId: string, files: SubmittedFile[], metadata?: Partial<Metadata>) =>
    api.post<Receipt>(`/shares/${encodeURIComponent(linkId)}/`, metadata ? { files, metadata } : { files }),

  // The owner.
  list: async (userId: string, query: ListQuery) =>
    fetchPageOf(
      await api.get<unknown>(owner(userId), {
        page: query.page,
        perPage: query.perPage,
        sortBy: query.sortBy,
        sortOrder: query.sortOrder,
        q: query.q || undefined,
        expiresFrom: query.expiresFrom,
        expiresAt: query.expiresAt,
      }),
    ),
  create: (userId: string, request: CreateRequest) => api.post<SecureFetch>(owner(userId), request),
  get: (userId: string, fetchId: string) => api.get<SecureFetch>(one(userId, fetchId)),
  items: async (userId: string, fetchId: string) => itemsOf(await api.get<unknown>(`${one(userId, fetchId)}items/`)),
  revoke: (userId: string, fetchId: string) => api.post<SecureFetch>(`${one(userId, fetchId)}revoke`),
  pay: (userId: string, fetchId: string) => api.post<PayAnswer>(`${one(userId, fetchId)}pay`),
  certificate: (userId: string, fetchId: string) => api.get<Record<string, unknown>>(`${one(userId, fetchId)}certificate`),
};
