/**
 * Domain errors carry the specification's code and message. The HTTP status lives beside the
 * code so the API can answer `{ code, message, data }` without a second table.
 */
export class DomainError extends Error {
  readonly code: string | number;
  readonly status: number;
  readonly data: Record<string, unknown> | undefined;

  constructor(def: ErrorDefinition, data?: Record<string, unknown>, message?: string) {
    super(message ?? def.message);
    this.name = 'DomainError';
    this.code = def.code;
    this.status = def.status;
    this.data = data;
  }
}

export interface ErrorDefinition {
  readonly code: string | number;
  readonly status: number;
  readonly message: string;
}

export const defineErrors = <T extends Record<string, ErrorDefinition>>(table: T): T => table;

/** Errors shared by every context. */
export const CommonErrors = defineErrors({
  validation: { code: 'VALIDATION_FAILED', status: 400, message: 'Some fields are invalid' },
  unauthorized: { code: 'UNAUTHORIZED', status: 401, message: 'Unauthorized' },
  loginExpired: { code: 'LOGIN_EXPIRED', status: 401, message: 'Login expired' },
  inactivity: {
    code: 'SESSION_INACTIVE',
    status: 401,
    message: 'You were signed out after a period of inactivity',
  },
  forbidden: { code: 'FORBIDDEN', status: 403, message: 'You are not allowed to do this' },
  notFound: { code: 'NOT_FOUND', status: 404, message: 'Not found' },
  conflict: { code: 'CONFLICT', status: 409, message: 'The record was changed by someone else' },
  preconditionFailed: {
    code: 'PRECONDITION_FAILED',
    status: 412,
    message: 'The record was changed since you loaded it',
  },
  rateLimited: { code: 'RATE_LIMITED', status: 429, message: 'Too many attempts, try again later' },
  nonActiveUser: { code: 5305, status: 403, message: 'User is not active' },
});
