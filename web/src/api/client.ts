import { ApiError, ClientErrorCodes, errorFromResponse } from './errors';

export const API_BASE = '/api';
/** Request timeout of the specification: 120 000 ms. */
export const REQUEST_TIMEOUT_MS = 120_000;

/** 401 codes that belong to a form (bad password, bad code), not to a lost session. */
const NON_SESSION_401 = new Set(['WRONG_CREDENTIALS', 'TWO_FACTOR_INCORRECT']);

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  query?: Query;
  /** JSON body. */
  body?: unknown;
  /** Raw body (an avatar upload); sent with `contentType`. */
  rawBody?: Blob | ArrayBuffer;
  contentType?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface UnauthorizedContext {
  error: ApiError;
  method: string;
  path: string;
  /** When the previous successful call finished (ms since epoch), or null if none has yet. */
  lastOperationAt: number | null;
  now: number;
}

export interface ApiClientOptions {
  baseUrl?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  isOnline?: () => boolean;
  now?: () => number;
  onUnauthorized?: (context: UnauthorizedContext) => void;
}

export interface ApiClient {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, query?: Query): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  delete<T>(path: string, body?: unknown): Promise<T>;
  /** Aborts every request in flight (used by logout). */
  cancelAll(): void;
  /** Time of the last successful call, for the inactivity rule. */
  lastOperationAt(): number | null;
  setUnauthorizedHandler(handler: ApiClientOptions['onUnauthorized']): void;
}

export const buildUrl = (base: string, path: string, query?: Query): string => {
  const joined = `${base.replace(/\/$/, '')}/${path.replace(/^\//, '')}`;
  if (!query) return joined;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${joined}?${qs}` : joined;
};

const readBody = async (response: Response): Promise<unknown> => {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
};

/**
 * The one HTTP client of the web app: base /api, cookies included, `X-Requested-With` and JSON on
 * every call, a 120 s timeout, every failure normalised to `{ code, message, data }`.
 */
export const createApiClient = (options: ApiClientOptions = {}): ApiClient => {
  const base = options.baseUrl ?? API_BASE;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const isOnline = options.isOnline ?? (() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  const now = options.now ?? (() => Date.now());
  let onUnauthorized = options.onUnauthorized;
  let lastOperationAt: number | null = null;
  const inFlight = new Set<AbortController>();

  const attempt = async (method: string, url: string, init: RequestInit, opts: RequestOptions): Promise<Response> => {
    const controller = new AbortController();
    inFlight.add(controller);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, opts.timeoutMs ?? timeoutMs);
    const onOuterAbort = () => controller.abort();
    opts.signal?.addEventListener('abort', onOuterAbort);
    try {
      return await doFetch(url, { ...init, method, signal: controller.signal });
    } catch (cause) {
      if (timedOut) throw new ApiError(ClientErrorCodes.timeout, 'Timeout exceeded');
      if (controller.signal.aborted) throw new ApiError(ClientErrorCodes.aborted, 'Request cancelled');
      if (!isOnline()) throw new ApiError(ClientErrorCodes.offline, 'You are offline');
      throw new ApiError(ClientErrorCodes.network, cause instanceof Error ? cause.message : 'Network error');
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onOuterAbort);
      inFlight.delete(controller);
    }
  };

  const request = async <T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> => {
    const headers: Record<string, string> = {
      'X-Requested-With': 'XMLHttpRequest',
      Accept: 'application/json',
    };
    let body: BodyInit | undefined;
    if (opts.rawBody !== undefined) {
      body = opts.rawBody;
      headers['Content-Type'] = opts.contentType ?? 'application/octet-stream';
    } else {
      headers['Content-Type'] = 'application/json';
      if (opts.body !== undefined) body = JSON.stringify(opts.body);
      // A JSON content type with an empty body is a parse error on the server: send an empty object.
      else if (method !== 'GET' && method !== 'HEAD') body = '{}';
    }
    const url = buildUrl(base, path, opts.query);
    const init: RequestInit = { headers, body, credentials: 'include' };

    let response: Response;
    try {
      response = await attempt(method, url, init, opts);
    } catch (error) {
      // A network failure while the browser says it is online is retried once.
      if (error instanceof ApiError && error.code === ClientErrorCodes.network) {
        response = await attempt(method, url, init, opts);
      } else {
        throw error;
      }
    }

    const payload = await readBody(response);
    if (response.ok) {
      lastOperationAt = now();
      return payload as T;
    }
    const error = errorFromResponse(response.status, payload, response.statusText);
    if (response.status === 401 && !NON_SESSION_401.has(error.code)) {
      onUnauthorized?.({ error, method, path, lastOperationAt, now: now() });
    }
    throw error;
  };

  return {
    request,
    get: (path, query) => request('GET', path, { query }),
    post: (path, body) => request('POST', path, { body }),
    put: (path, body) => request('PUT', path, { body }),
    delete: (path, body) => request('DELETE', path, { body }),
    cancelAll: () => {
      for (const c of inFlight) c.abort();
      inFlight.clear();
    },
    lastOperationAt: () => lastOperationAt,
    setUnauthorizedHandler: (handler) => {
      onUnauthorized = handler;
    },
  };
};

/** The app-wide client; the session layer installs its 401 handler at start-up. */
export const api = createApiClient();
