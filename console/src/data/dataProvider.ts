import { fetchUtils, HttpError, type DataProvider, type Identifier, type RaRecord } from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';
import { withConsoleHeaders } from '../api/http';
import { ADMIN_API, toContractUrl } from './contractUrl';

/** Every call of the console: cookies, the CSRF header, and the contract's URL shapes. */
export const httpClient = (url: string, options: fetchUtils.Options = {}) =>
  fetchUtils.fetchJson(toContractUrl(url), withConsoleHeaders(options) as fetchUtils.Options);

export type UserAction = 'suspend' | 'unsuspend' | 'block' | 'unblock';

export type ProcessStatus = 'running' | 'completed' | 'dead_letter' | 'failed';

export interface ProcessRecord {
  readonly id: string;
  readonly type: string;
  readonly status: ProcessStatus;
  readonly state: unknown;
  readonly nextTimerAt: string | null;
  readonly lastError: string | null;
  readonly updatedAt: string;
}

export interface ProcessHistoryEntry {
  readonly seq: number;
  readonly kind: 'event' | 'signal' | 'timer';
  readonly input: unknown;
  readonly outcome: string;
  readonly commands: readonly { readonly command: { readonly type?: string; readonly aggregateId?: string }; readonly dispatchedAt: string | null }[];
  readonly at: string;
}

/** GET /api/admin/processes/:id: the row's fields plus its input history (null on Temporal). */
export interface ProcessDetail extends ProcessRecord {
  readonly processId: string;
  readonly pendingCommands: number;
  readonly lastErrorAt: string | null;
  readonly createdAt: string | null;
  readonly history: readonly ProcessHistoryEntry[] | null;
}

export interface ConsoleDataProvider extends DataProvider {
  /** POST /api/admin/users/:id/{suspend,unsuspend,block,unblock} → the updated user. */
  userAction(id: Identifier, action: UserAction, body?: { reason: string }): Promise<{ data: RaRecord }>;
  /** POST /api/admin/users/:id/role → the updated user (super_admin only). */
  changeRole(id: Identifier, role: string): Promise<{ data: RaRecord }>;
  /** POST /api/admin/users/:id/password-reset → 202. */
  sendPasswordReset(id: Identifier): Promise<void>;
  /** GET /api/admin/processes. */
  getProcesses(): Promise<{ data: ProcessRecord[] }>;
  /** GET /api/admin/processes/:id. */
  getProcess(id: string): Promise<{ data: ProcessDetail }>;
  /** POST /api/admin/processes/:id/retry. */
  retryProcess(id: string): Promise<void>;
}

const userPath = (id: Identifier) => `${ADMIN_API}/users/${encodeURIComponent(String(id))}`;

/**
 * A refused create comes back as `400 VALIDATION_FAILED` with `data.fields` (field → message key)
 * or `409 EMAIL_EXISTS`: hand react-admin `body.errors` so the messages land under the inputs.
 */
const withFieldErrors = (error: unknown): unknown => {
  if (!(error instanceof HttpError)) return error;
  const body = (error.body ?? {}) as { code?: string; data?: { fields?: Record<string, string> } };
  const errors = body.code === 'EMAIL_EXISTS' ? { email: 'console.errors.EMAIL_EXISTS' } : body.data?.fields;
  return errors ? new HttpError(error.message, error.status, { ...body, errors }) : error;
};

export const createDataProvider = (): ConsoleDataProvider => {
  const base = simpleRestProvider(ADMIN_API, httpClient);
  return {
    ...base,

    create: async (resource, params) => {
      try {
        return await base.create(resource, params);
      } catch (error) {
        throw withFieldErrors(error);
      }
    },

    // The API answers 204 with no body; react-admin wants the deleted record back.
    delete: async (resource, params) => {
      await httpClient(`${ADMIN_API}/${resource}/${encodeURIComponent(String(params.id))}`, { method: 'DELETE' });
      return { data: (params.previousData ?? { id: params.id }) as never };
    },

    userAction: async (id, action, body) => {
      const { json } = await httpClient(`${userPath(id)}/${action}`, { method: 'POST', ...(body ? { body: JSON.stringify(body) } : {}) });
      return { data: json as RaRecord };
    },

    changeRole: async (id, role) => {
      const { json } = await httpClient(`${userPath(id)}/role`, { method: 'POST', body: JSON.stringify({ role }) });
      return { data: json as RaRecord };
    },

    sendPasswordReset: async (id) => {
      await httpClient(`${userPath(id)}/password-reset`, { method: 'POST' });
    },

    getProcesses: async () => {
      const { json } = await httpClient(`${ADMIN_API}/processes`);
      return { data: Array.isArray(json) ? (json as ProcessRecord[]) : [] };
    },

    getProcess: async (id) => {
      const { json } = await httpClient(`${ADMIN_API}/processes/${encodeURIComponent(id)}`);
      return { data: json as ProcessDetail };
    },

    retryProcess: async (id) => {
      await httpClient(`${ADMIN_API}/processes/${encodeURIComponent(id)}/retry`, { method: 'POST' });
    },
  };
};
