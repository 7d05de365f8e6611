import { API_BASE, buildUrl, type Query } from '../../api/client';
import { ApiError, ClientErrorCodes, errorFromResponse, toApiError } from '../../api/errors';
import { asPage, type Page } from './sharing.api';
import type { ShareEntry, ShareSummary } from './sharing.types';
import { shareTokens, type TokenStore } from './share-tokens';

/** What a visitor gives a share link: its password, and for a private share the recipient's e-mail. */
export interface ShareCredentials {
  password?: string;
  email?: string;
}

export const OBJECT_ACCESS_HEADER = 'X-Object-Access';
/** Download-url lookups are retried up to 5 times (specification section 9, share-entry retries). */
export const DOWNLOAD_URL_ATTEMPTS = 5;

/** `Basic base64(":" + password)`, the share password as the password of an empty user name (UTF-8). */
export const basicPassword = (password: string) => {
  const bytes = new TextEncoder().encode(`:${password}`);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
};

/** The headers of a call to a share link: the stored token when there is one, else the credentials. */
export const credentialHeaders = (token: string | null, credentials: ShareCredentials = {}): Record<string, string> => {
  const headers: Record<string, string> = {};
  if (credentials.password) headers.Authorization = basicPassword(credentials.password);
  else if (token) headers[OBJECT_ACCESS_HEADER] = token;
  if (credentials.email) headers['X-Share-Email'] = credentials.email;
  return headers;
};

/** Calls whose failure should not be asked again: the server looked at the request and said no. */
const isFinalRefusal = (error: ApiError) => error.status >= 400 && error.status < 500;

/** Runs a lookup up to `attempts` times while it fails for a reason a retry can cure (network, 5xx). */
export const withRetries = async <T>(
  run: () => Promise<T>,
  attempts = DOWNLOAD_URL_ATTEMPTS,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<T> => {
  let last: ApiError | null = null;
  for (let i = 0; i < attempts; i++) {
    try {
      return await run();
    } catch (raw) {
      last = toApiError(raw);
      if (isFinalRefusal(last) || last.code === ClientErrorCodes.aborted) throw last;
      if (i < attempts - 1) await wait(250 * (i + 1));
    }
  }
  throw last ?? new ApiError(ClientErrorCodes.unknown, 'The download link could not be prepared');
};

export interface ShareLinkClientOptions {
  fetch?: typeof fetch;
  tokens?: TokenStore;
  baseUrl?: string;
}

/**
 * The anonymous (and recipient) side of a share: `/share-links/{linkId}/...`. It sends the stored
 * object-access token, or the password (and e-mail) when given, and keeps the token the answer carries.
 */
export const createShareLinkClient = (options: ShareLinkClientOptions = {}) => {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const tokens = options.tokens ?? shareTokens;
  const base = options.baseUrl ?? API_BASE;
  const enc = encodeURIComponent;

  const call = async <T>(linkId: string, path: string, query?: Query, credentials?: ShareCredentials, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = {
      'X-Requested-With': 'XMLHttpRequest',
      Accept: 'application/json',
      ...credentialHeaders(tokens.get(linkId), credentials),
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await doFetch(buildUrl(base, path, query), {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'include',
      });
    } catch (cause) {
      throw new ApiError(ClientErrorCodes.network, cause instanceof Error ? cause.message : 'Network error');
    }
    const token = response.headers.get(OBJECT_ACCESS_HEADER);
    if (response.ok && token) tokens.set(linkId, token);
    const text = await response.text();
    let answer: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) {
      try {
        answer = JSON.parse(text) as unknown;
      } catch {
        answer = text;
      }
    }
    if (response.ok) return answer as T;
    const error = errorFromResponse(response.status, answer, response.statusText);
    // A refused token is worth nothing: the next call asks for the password again.
    if (response.status === 401 || response.status === 403) tokens.clear(linkId);
    throw error;
  };

  return {
    tokens,
    /** The summary; the first call a visit is let in with opens the share and answers its token. */
    summary: (linkId: string, credentials?: ShareCredentials) => call<ShareSummary>(linkId, `/share-links/${enc(linkId)}`, undefined, credentials),
    entries: (linkId: string, folderId: string | null, credentials?: ShareCredentials): Promise<Page<ShareEntry>> =>
      call<unknown>(linkId, `/share-links/${enc(linkId)}/entries/`, { vertexId: folderId ?? undefined }, credentials).then((a) => asPage<ShareEntry>(a)),
    entry: (linkId: string, entryId: string, credentials?: ShareCredentials) =>
      call<ShareEntry>(linkId, `/share-links/${enc(linkId)}/entries/${enc(entryId)}`, undefined, credentials),
    /** A short-lived URL the browser downloads the file from (`inline` for a preview, allowed on view-only shares); retried up to 5 times. */
    downloadUrl: (linkId: string, entryId: string, credentials?: ShareCredentials, options: { inline?: boolean; wait?: (ms: number) => Promise<void> } = {}) =>
      withRetries(
        () =>
          call<{ url?: string; downloadURL?: string }>(
            linkId,
            `/share-links/${enc(linkId)}/entries/${enc(entryId)}`,
            { q: 'download-url', inline: options.inline ? 'true' : undefined },
            credentials,
          ).then((a) => {
            const url = a?.url ?? a?.downloadURL;
            if (!url) throw new ApiError(ClientErrorCodes.unknown, 'The download link could not be prepared');
            return url;
          }),
        DOWNLOAD_URL_ATTEMPTS,
        options.wait,
      ),
    /** Folders and several entries leave as one zip: an archive task of the share, then its signed URL. */
    archiveUrl: async (linkId: string, itemIds: string[] | undefined, credentials?: ShareCredentials, archiveName?: string) => {
      const body = { ...(itemIds ? { itemIds } : {}), ...(archiveName ? { archiveName } : {}) };
      const task = await call<{ id: string }>(linkId, `/share-links/${enc(linkId)}/archive-tasks/`, undefined, credentials, body);
      const { url } = await call<{ url: string }>(linkId, '/urls/share-archive-download/', { shareId: linkId, archiveTaskId: task.id }, credentials);
      return url;
    },
  };
};

export const shareLinkApi = createShareLinkClient();
