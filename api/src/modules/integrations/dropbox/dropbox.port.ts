import type { Readable } from 'node:stream';

/** The API endpoints (api host, JSON in and out) the product lets through (spec §7). */
export const DROPBOX_RPC_ENDPOINTS = ['list_folder', 'list_folder/continue', 'get_temporary_link', 'create_folder_v2', 'get_metadata'] as const;
export type DropboxRpcEndpoint = (typeof DROPBOX_RPC_ENDPOINTS)[number];
/** The content endpoints (content host, argument in the Dropbox-API-Arg header, bytes out). */
export const DROPBOX_CONTENT_ENDPOINTS = ['get_preview', 'download'] as const;
export type DropboxContentEndpoint = (typeof DROPBOX_CONTENT_ENDPOINTS)[number];

export interface DropboxGrant {
  readonly accessToken: string;
  readonly expiresAt: Date;
  readonly refreshToken: string;
  readonly accountId: string;
}

/** What Dropbox answered, as it answered it: the proxies hand the body on unchanged. */
export interface DropboxAnswer {
  readonly status: number;
  readonly body: unknown;
  /** Seconds Dropbox asked to wait (a 429 still there after the adapter's own waits). */
  readonly retryAfter?: number;
}

export interface DropboxBytes {
  readonly status: number;
  readonly contentType: string;
  /** The file's metadata, from the Dropbox-API-Result header. */
  readonly result: Record<string, unknown> | null;
  readonly body: Readable;
}

/** Dropbox's OAuth 2 (code flow with PKCE and offline access) and its files API. */
export interface DropboxPort {
  authorizeUrl(input: { state: string; codeChallenge: string; redirectUri: string }): string;
  /** Throws `DropboxRefusedError` when Dropbox refuses the code. */
  exchangeCode(input: { code: string; codeVerifier: string; redirectUri: string }): Promise<DropboxGrant>;
  /** A fresh short-lived access token; `DropboxRefusedError` when the refresh token is no longer valid. */
  refresh(refreshToken: string): Promise<{ accessToken: string; expiresAt: Date }>;
  revoke(accessToken: string): Promise<void>;
  rpc(accessToken: string, endpoint: DropboxRpcEndpoint, args: unknown): Promise<DropboxAnswer>;
  /** Bytes out of Dropbox; a refusal's JSON answer comes back as `DropboxAnswer`. */
  content(accessToken: string, endpoint: DropboxContentEndpoint, args: unknown): Promise<DropboxBytes | DropboxAnswer>;
  upload(accessToken: string, args: { path: string; mode?: 'add' | 'overwrite'; autorename?: boolean }, body: Buffer): Promise<DropboxAnswer>;
}

/** Dropbox refused a code or a refresh token (OAuth `invalid_grant` and the like). */
export class DropboxRefusedError extends Error {
  constructor(readonly reason: string) {
    super(`Dropbox refused the grant: ${reason}`);
    this.name = 'DropboxRefusedError';
  }
}

export const isBytes = (answer: DropboxBytes | DropboxAnswer): answer is DropboxBytes => 'contentType' in answer;
