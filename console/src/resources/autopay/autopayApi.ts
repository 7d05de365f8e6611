import type { DataProvider, RaRecord } from 'react-admin';
import { ADMIN_API, totalFromContentRange } from '../../data/contractUrl';
import { httpClient } from '../../data/dataProvider';
import { toApiError, withConsoleHeaders } from '../../api/http';
import { isRecord, rowErrorsOf, type ImportResult } from './rowErrors';

/** The console's resource names: programs at /admin/auto-pay, their payees nested under each. */
export const PROGRAMS = 'auto-pay';
export const PAYEES = 'auto-pay-payees';

const programsUrl = `${ADMIN_API}/auto-pay/programs/`;
const programUrl = (id: unknown) => `${ADMIN_API}/auto-pay/programs/${encodeURIComponent(String(id))}`;
const payeesUrl = (programId: unknown) => `${programUrl(programId)}/payees/`;
const payeeUrl = (programId: unknown, id: unknown) => `${payeesUrl(programId)}${encodeURIComponent(String(id))}`;

export const PROGRAM_ACTIONS = ['submit', 'approve', 'reject', 'lock', 'unlock', 'cancel', 'retry'] as const;
export type ProgramAction = (typeof PROGRAM_ACTIONS)[number];

export type { ImportResult } from './rowErrors';

const rangeQuery = (page: number, perPage: number, sort?: { field: string; order: string }, filter?: unknown) => {
  const query = new URLSearchParams({ range: JSON.stringify([(page - 1) * perPage, page * perPage - 1]) });
  if (sort) query.set('sort', JSON.stringify([sort.field, sort.order]));
  if (filter && isRecord(filter) && Object.keys(filter).length > 0) query.set('filter', JSON.stringify(filter));
  return query.toString();
};

const listOf = (json: unknown): RaRecord[] =>
  Array.isArray(json) ? (json as RaRecord[]) : isRecord(json) && Array.isArray(json.data) ? (json.data as RaRecord[]) : [];

/**
 * Programs and payees in ra-data-simple-rest's shape at the contract's paths
 * (`/admin/auto-pay/programs/`, `/admin/auto-pay/programs/{id}/payees/`). A payee's record carries
 * its `programId`, which names its collection.
 */
export const autopayDataProvider = (): DataProvider => ({
  getList: async (resource, params) => {
    const { page, perPage } = params.pagination ?? { page: 1, perPage: 25 };
    const filter = { ...(params.filter as Record<string, unknown>) };
    const base = resource === PAYEES ? payeesUrl(filter.programId) : programsUrl;
    if (resource === PAYEES) delete filter.programId;
    const { json, headers } = await httpClient(`${base}?${rangeQuery(page, perPage, params.sort, filter)}`, { signal: params.signal });
    const data = listOf(json);
    return { data: data as never[], total: totalFromContentRange(headers.get('content-range')) ?? data.length };
  },
  getOne: async (resource, params) => {
    if (resource === PAYEES) throw new Error('payees are read through their program');
    const { json } = await httpClient(programUrl(params.id), { signal: params.signal });
    return { data: json as never };
  },
  getMany: async (_resource, params) => {
    const data = await Promise.all(params.ids.map(async (id) => (await httpClient(programUrl(id))).json as RaRecord));
    return { data: data as never[] };
  },
  getManyReference: async (_resource, params) => {
    const { page, perPage } = params.pagination;
    const { json, headers } = await httpClient(`${payeesUrl(params.id)}?${rangeQuery(page, perPage, params.sort, params.filter)}`, { signal: params.signal });
    const data = listOf(json).map((p) => ({ ...p, programId: params.id }));
    return { data: data as never[], total: totalFromContentRange(headers.get('content-range')) ?? data.length };
  },
  create: async (resource, params) => {
    const data = params.data as Record<string, unknown>;
    const url = resource === PAYEES ? payeesUrl(data.programId) : programsUrl;
    const { json } = await httpClient(url, { method: 'POST', body: JSON.stringify(data) });
    return { data: { ...(params.data as object), ...(json as object) } as never };
  },
  update: async (resource, params) => {
    const data = params.data as Record<string, unknown>;
    const url = resource === PAYEES ? payeeUrl(data.programId ?? params.previousData?.programId, params.id) : programUrl(params.id);
    const { json } = await httpClient(url, { method: 'PUT', body: JSON.stringify(data) });
    return { data: { ...(params.data as object), ...(json as object), id: params.id } as never };
  },
  updateMany: async () => {
    throw new Error('not supported');
  },
  delete: async (resource, params) => {
    const url = resource === PAYEES ? payeeUrl(params.previousData?.programId, params.id) : programUrl(params.id);
    await httpClient(url, { method: 'DELETE' });
    return { data: (params.previousData ?? { id: params.id }) as never };
  },
  deleteMany: async (_resource, params) => {
    for (const id of params.ids) await httpClient(programUrl(id), { method: 'DELETE' });
    return { data: params.ids };
  },
});

/** Sends calls for the auto-pay resources to their provider, every other call to the console's own. */
export const withAutopay = <P extends DataProvider>(main: P): P => {
  const autopay = autopayDataProvider();
  const isOurs = (resource: string) => resource === PROGRAMS || resource === PAYEES;
  const route =
    <K extends keyof DataProvider>(method: K) =>
    (resource: string, params: unknown) =>
      (isOurs(resource) ? (autopay[method] as (r: string, p: unknown) => unknown) : (main[method] as (r: string, p: unknown) => unknown))(resource, params);
  return {
    ...main,
    getList: route('getList'),
    getOne: route('getOne'),
    getMany: route('getMany'),
    getManyReference: route('getManyReference'),
    create: route('create'),
    update: route('update'),
    updateMany: route('updateMany'),
    delete: route('delete'),
    deleteMany: route('deleteMany'),
  } as P;
};

/** The auto-pay calls beside CRUD: actions, CSV import and export, dashboards. */
export const autopayApi = {
  action: async (id: unknown, action: ProgramAction, body?: Record<string, unknown>) => {
    const { json } = await httpClient(`${programUrl(id)}/${action}`, { method: 'POST', body: JSON.stringify(body ?? {}) });
    return json as RaRecord;
  },
  /** Uploads the CSV text; answers how many payees came in and each refused row's field. */
  importCsv: async (id: unknown, csv: string): Promise<ImportResult> => {
    try {
      const { json } = await httpClient(`${programUrl(id)}/import`, { method: 'POST', body: JSON.stringify({ csv }) });
      const body = isRecord(json) ? json : {};
      return { imported: typeof body.imported === 'number' ? body.imported : 0, errors: rowErrorsOf(body) };
    } catch (error) {
      const rows = rowErrorsOf((error as { body?: unknown }).body);
      if (rows.length > 0) return { imported: 0, errors: rows };
      throw error;
    }
  },
  /** The program's payees as CSV, with each payee's payout status. */
  exportCsv: async (id: unknown): Promise<Blob> => {
    const response = await fetch(`${programUrl(id)}/export`, withConsoleHeaders({ headers: { Accept: 'text/csv' } }));
    if (!response.ok) {
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      throw toApiError(response.status, response.statusText, json);
    }
    return response.blob();
  },
  /** `GET /wallet/v1/admin/dashboard/`: the chain, the treasury and the wallets. */
  walletDashboard: async () => (await httpClient('/api/wallet/v1/admin/dashboard/')).json as Record<string, unknown>,
  /** `GET /wallet/v1/admin/replenishments/waiting`: paid token checkouts the treasury has not sent yet. */
  waitingReplenishments: async () => (await httpClient('/api/wallet/v1/admin/replenishments/waiting')).json as Record<string, unknown>,
  /** `POST /wallet/v1/admin/treasury/fill`: mint test AXEL to the treasury (development chain only). */
  fillTreasury: async (amount: string) =>
    (await httpClient('/api/wallet/v1/admin/treasury/fill', { method: 'POST', body: JSON.stringify({ amount }) })).json as { txid: string; amount: string },
  /** `GET /admin/axel-accounts/dashboard/`. */
  axelAccountsDashboard: async () => (await httpClient(`${ADMIN_API}/axel-accounts/dashboard/`)).json as Record<string, unknown>,
};
