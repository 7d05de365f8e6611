import { api } from '../../api/client';

/** A bound CloudLocker as `GET /users/{id}/drives/` answers it. */
export interface Drive {
  id: string;
  serial: string;
  mac: string;
  status: 'online' | 'offline';
  online: boolean;
  connectionCheckedAt: string | null;
  bound: boolean;
  boundAt: string | null;
  sizeUsed: number;
  sizeTotal: number;
  storageId: string | null;
}

/** The answer to the bind dialog: the code the device must sign before `expiresAt`. */
export interface OpenedClaim {
  driveId: string;
  code: string;
  expiresAt: string;
}

export type BackupPlatform = 'windows' | 'macos' | 'linux' | 'android' | 'ios';

export interface BackupDevice {
  id: string;
  name: string;
  platform: BackupPlatform;
  paths: string[];
  status: 'active' | 'stopped';
  active: boolean;
  lastSeenAt: string | null;
  storageId: string;
  folderId: string;
  createdAt: string;
}

export interface RegionAnswer {
  region: string;
  effectiveRegion: string;
  regions: string[];
  chosenAt: string | null;
}

export interface ResidencyFile {
  id: string;
  name: string;
  inTrash: boolean;
  region: string | null;
  size: number;
  chunks: { cid: string; size: number; shards: { shard: string; region: string | null }[] }[];
}

/** Where every chunk of the account's files is (the residency report), a page of files at a time. */
export interface ResidencyReport {
  region: string;
  effectiveRegion: string;
  appliesTo: 'new-uploads';
  regionsConfigured: boolean;
  shardSets: { region: string | null; shards: string[] }[];
  totals: { region: string | null; keptIn: string | null; files: number; chunks: number; bytes: number }[];
  totalCount: number;
  page: number;
  perPage: number;
  data: ResidencyFile[];
}

/** Files shown in the residency view (the report's page size). */
export const RESIDENCY_PAGE_SIZE = 100;

/** Backups page size (specification section 9). */
export const BACKUPS_PAGE_SIZE = 100;

const drives = (userId: string) => `/users/${encodeURIComponent(userId)}/drives/`;
const backups = (userId: string) => `/users/${encodeURIComponent(userId)}/backups/`;

export const devicesApi = {
  drives: (userId: string) => api.get<{ data: Drive[] }>(drives(userId)).then((r) => r.data),
  drive: (userId: string, driveId: string) => api.get<Drive>(`${drives(userId)}${encodeURIComponent(driveId)}`),
  openClaim: (userId: string, serial: string, mac: string) => api.post<OpenedClaim>(drives(userId), { serial, mac }),
  unbind: (userId: string, driveId: string) => api.post<{ unbound: boolean }>(`${drives(userId)}${encodeURIComponent(driveId)}/unbind/`, {}),
  remove: (userId: string, driveId: string, confirm: string) =>
    api.delete<{ deleted: boolean }>(`${drives(userId)}${encodeURIComponent(driveId)}`, { confirm }),

  backups: (userId: string, page = 1) => api.get<{ data: BackupDevice[]; totalCount: number }>(backups(userId), { page, perPage: BACKUPS_PAGE_SIZE }),
  stopBackup: (userId: string, backupId: string) => api.post<BackupDevice>(`${backups(userId)}${encodeURIComponent(backupId)}/stop`, {}),
  resumeBackup: (userId: string, backupId: string) => api.post<BackupDevice>(`${backups(userId)}${encodeURIComponent(backupId)}/resume`, {}),

  region: (userId: string) => api.get<RegionAnswer>(`/users/${encodeURIComponent(userId)}/region`),
  chooseRegion: (userId: string, region: string) => api.put<RegionAnswer>(`/users/${encodeURIComponent(userId)}/region`, { region }),
  residency: (userId: string, page = 1) => api.get<ResidencyReport>(`/users/${encodeURIComponent(userId)}/residency/`, { page, perPage: RESIDENCY_PAGE_SIZE }),
};
