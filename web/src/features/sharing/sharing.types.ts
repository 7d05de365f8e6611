/** A share as the owner's calls answer it (docs/api-sharing.md, spec §3 Share). */
export type ShareKind = 'public' | 'private';
export type ShareStatus = 'pending' | 'uploaded' | 'active';

export interface ShareItem {
  id: string;
  kind: 'file' | 'folder' | string;
  name: string;
  size: number;
}

export interface ShareRecipient {
  email: string;
  blocked: boolean;
  openedAt: string | null;
}

export interface Share {
  id: string;
  shareId?: string;
  shareLinkId: string;
  type?: string;
  kind: ShareKind;
  status: ShareStatus | string;
  title: string;
  description?: string | null;
  expiresAt: string | null;
  createdAt: string;
  modifiedAt?: string;
  downloadable: boolean;
  requireLogin: boolean;
  hasPassword: boolean;
  esign?: boolean;
  url: string;
  storageId?: string;
  ownerId?: string;
  totalSize?: number;
  openedCount: number;
  deliveredOn: string | null;
  revokedAt: string | null;
  items?: ShareItem[];
  recipients?: ShareRecipient[];
}

/** What a refusal for a missing credential tells about a link: which dialog to show (never contents). */
export interface ShareGate {
  kind: ShareKind;
  requireLogin: boolean;
  hasPassword: boolean;
  expiresAt: string | null;
}

/** What a visitor learns about a link once let in. */
export interface ShareSummary {
  title: string;
  description?: string | null;
  kind: ShareKind;
  requireLogin: boolean;
  hasPassword: boolean;
  downloadable: boolean;
  expiresAt: string | null;
  /** The owner's name from their profile, when they gave one. */
  ownerName?: string | null;
  /** The owner's e-mail: private shares only (their recipients got the share's mail from it). */
  ownerEmail?: string | null;
  /** What the owner wrote to the recipients of a private share. */
  message?: string | null;
  itemsCount?: number;
  totalSize?: number;
  /** The branding of the Enterprise team the owner owns or belongs to, when it set one. */
  branding?: { companyName: string | null; logoUrl: string | null } | null;
}

/** A file or folder inside a share, as the share's entries calls answer it. */
export interface ShareEntry {
  id: string;
  name: string;
  label: 'file' | 'folder' | string;
  size: number;
  mime?: string | null;
  parentId?: string | null;
  createdAt?: string;
  modifiedAt?: string;
  storageId?: string;
}

export interface AccessLogEntry {
  time: string;
  recipientEmail?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  action: string;
}

export interface ShareInput {
  itemIds: string[];
  title: string;
  description?: string;
  expiresAt?: string | null;
  downloadable: boolean;
  password?: string;
  requireLogin?: boolean;
  esign?: boolean;
  recipients?: string[];
  message?: string;
}

export interface ShareEdit {
  title?: string;
  description?: string;
  expiresAt?: string | null;
  downloadable?: boolean;
  password?: string | null;
  requireLogin?: boolean;
}

export interface ShareListQuery {
  page: number;
  perPage: number;
  sortBy: 'createdAt' | 'modifiedAt' | 'title' | 'expiresAt' | 'totalSize';
  sortOrder: 'ASC' | 'DESC';
  q?: string;
  /** Expiry range (ISO) and the e-mail lookup (needs both ends of the range). */
  expiresFrom?: string;
  expiresAt?: string;
  email?: string;
}

/** A private share sent to the signed-in user, as their "shared with me" list answers it (no contents). */
export interface SharedWithMe {
  id: string;
  shareLinkId: string;
  kind: ShareKind;
  title: string;
  description?: string | null;
  expiresAt: string | null;
  createdAt: string;
  downloadable: boolean;
  requireLogin: boolean;
  hasPassword: boolean;
  url: string;
  totalSize?: number;
  itemsCount?: number;
  ownerName?: string | null;
  ownerEmail?: string | null;
}
