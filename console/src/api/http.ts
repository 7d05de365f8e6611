/**
 * The console's one way of talking to the API: same-origin cookies, the CSRF header the API
 * requires on writes (sent on every call, so no request is ever forgotten), JSON in and out, and
 * errors normalised to the API's `{ code, message, data }`.
 */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface ApiErrorBody {
  readonly code: string;
  readonly message: string;
  readonly data: unknown;
}

/** Shaped like react-admin's HttpError (`message`, `status`, `body`) so its error handling applies. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly data: unknown;
  readonly body: ApiErrorBody;

  constructor(status: number, body: ApiErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code;
    this.data = body.data;
    this.body = body;
  }
}

export const withConsoleHeaders = (init: RequestInit = {}): RequestInit => {
  const headers = new Headers(init.headers);
  headers.set('X-Requested-With', 'XMLHttpRequest');
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  if (init.body !== undefined && init.body !== null && !headers.has('Content-Type')) {
    headers.set('Content-Type', 'application/json');
  }
  return { ...init, headers, credentials: 'include' };
};

const parseJson = (text: string): unknown => {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const isErrorBody = (value: unknown): value is ApiErrorBody => typeof value === 'object' && value !== null && typeof (value as ApiErrorBody).code === 'string';

export const toApiError = (status: number, statusText: string, json: unknown): ApiError =>
  new ApiError(
    status,
    isErrorBody(json)
      ? { code: json.code, message: json.message || statusText, data: json.data ?? null }
      : { code: `HTTP_${status}`, message: statusText || `HTTP ${status}`, data: null },
  );

export interface JsonResponse<T> {
  readonly status: number;
  readonly headers: Headers;
  readonly json: T;
}

export const requestJson = async <T>(fetchImpl: FetchLike, url: string, init?: RequestInit): Promise<JsonResponse<T>> => {
  const response = await fetchImpl(url, withConsoleHeaders(init));
  const json = parseJson(await response.text());
  if (!response.ok) throw toApiError(response.status, response.statusText, json);
  return { status: response.status, headers: response.headers, json: json as T };
};

export const browserFetch: FetchLike = (input, init) => fetch(input, init);
