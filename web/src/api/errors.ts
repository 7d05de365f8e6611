/**
 * Every failure the web app sees, whatever its origin (server answer, timeout, network), has the
 * shape the API uses: `{ code, message, data }`. Components translate `errors.<code>` and fall back
 * to `message`.
 */
export type ErrorData = Record<string, unknown> | null;

export class ApiError extends Error {
  readonly code: string;
  readonly data: ErrorData;
  /** HTTP status, or 0 when no answer arrived. */
  readonly status: number;

  constructor(code: string | number, message: string, data: ErrorData = null, status = 0) {
    super(message);
    this.name = 'ApiError';
    this.code = String(code);
    this.data = data;
    this.status = status;
  }

  toJSON(): NormalisedError {
    return { code: this.code, message: this.message, data: this.data };
  }
}

export interface NormalisedError {
  code: string;
  message: string;
  data: ErrorData;
}

/** Client-side codes for failures that never reached the server's error table. */
export const ClientErrorCodes = {
  timeout: 'TIMEOUT',
  network: 'NETWORK_ERROR',
  offline: 'OFFLINE',
  connectionFailed: 'CONNECTION_FAILED',
  aborted: 'ABORTED',
  unknown: 'UNKNOWN',
} as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Builds the normalised error from an HTTP status and whatever body came back. */
export const errorFromResponse = (status: number, body: unknown, statusText = ''): ApiError => {
  if (status === 504) return new ApiError(ClientErrorCodes.connectionFailed, 'Connection failed', null, status);
  if (isRecord(body) && (typeof body.code === 'string' || typeof body.code === 'number')) {
    const message = typeof body.message === 'string' ? body.message : statusText || `HTTP ${status}`;
    const data = isRecord(body.data) ? body.data : null;
    return new ApiError(body.code, message, data, status);
  }
  const text = typeof body === 'string' && body.trim() ? body.trim().slice(0, 300) : statusText || `HTTP ${status}`;
  return new ApiError(`HTTP_${status}`, text, null, status);
};

/** Anything thrown (or given to an XState onError) as a normalised error. */
export const toApiError = (error: unknown): ApiError => {
  if (error instanceof ApiError) return error;
  if (isRecord(error) && (typeof error.code === 'string' || typeof error.code === 'number')) {
    return new ApiError(
      error.code,
      typeof error.message === 'string' ? error.message : String(error.code),
      isRecord(error.data) ? error.data : null,
      typeof error.status === 'number' ? error.status : 0,
    );
  }
  if (error instanceof Error) return new ApiError(ClientErrorCodes.unknown, error.message);
  return new ApiError(ClientErrorCodes.unknown, String(error));
};

/** `data.fields` of a VALIDATION_FAILED answer: `{ field: messageKey }`. */
export const fieldErrorsOf = (error: NormalisedError | null | undefined): Record<string, string> => {
  const fields = error?.data?.fields;
  if (!isRecord(fields)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) if (typeof v === 'string') out[k] = v;
  return out;
};
