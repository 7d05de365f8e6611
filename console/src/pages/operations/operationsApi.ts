import { ADMIN_API } from '../../data/contractUrl';
import { httpClient } from '../../data/dataProvider';

export interface WebsiteHosting {
  readonly shares: {
    readonly active: number;
    readonly revoked: number;
    readonly bytesShared: number;
    readonly byKind: readonly { kind: string; count: number }[];
  };
  readonly access: { readonly opens: number; readonly downloads: number; readonly sharesOpened: number };
  readonly sharesByMonth: readonly { month: string; created: number }[];
  readonly secureFetch: {
    readonly links: number;
    readonly paid: number;
    readonly bytesReceived: number;
    readonly byStatus: readonly { status: string; count: number }[];
  };
  readonly topOwners: readonly { userId: string; email: string | null; shares: number; opens: number }[];
}

export interface DriveConnect {
  readonly storagesByType: readonly { type: string; count: number; usedBytes: number; totalBytes: number }[];
  readonly cloudLockers: number;
  readonly accountsByApp: readonly { app: string; count: number }[];
  readonly signIns: { readonly day: number; readonly week: number; readonly month: number };
  readonly twoFactor: readonly { method: string; count: number }[];
  readonly dbsAccess: number;
}

const get = async <T>(path: string, signal?: AbortSignal): Promise<T> => (await httpClient(`${ADMIN_API}${path}`, { signal })).json as T;

/** The dashboards and settings of the operations pages. */
export const operationsApi = {
  websiteHosting: (signal?: AbortSignal) => get<WebsiteHosting>('/axel-website-hosting/dashboard/', signal),
  driveConnect: (signal?: AbortSignal) => get<DriveConnect>('/axel-drive-connect/dashboard/', signal),
  grafana: (signal?: AbortSignal) => get<{ url: string | null }>('/grafana/', signal),
  /** Activate (POST) or cancel (DELETE) a user's database access. */
  dbsAccess: async (userId: string, active: boolean) => {
    await httpClient(`${ADMIN_API}/users/${encodeURIComponent(userId)}/dbs-access`, { method: active ? 'POST' : 'DELETE' });
  },
};
