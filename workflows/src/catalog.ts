/*
 * The product's processes. Pure (the Temporal workflow bundle builds its definitions from here):
 * settings come from the composition root (embedded) or the workflow's start arguments
 * (Temporal, so a running workflow keeps the settings it started with and replays the same).
 */
import { DEFAULT_ACCOUNT_RETENTION_DAYS, createAccountDeletionProcess } from './account-deletion/account-deletion.process';
import { createFileTtlProcess } from './file-ttl/file-ttl.process';
import { createStoragePurgeProcess } from './storage-purge/storage-purge.process';
import { createGracePeriodProcess } from './grace-period/grace-period.process';
import { createAutoPayApprovalProcess } from './autopay-approval/autopay-approval.process';
import { createSecureFetchCollectProcess } from './secure-fetch-collect/secure-fetch-collect.process';
import { createShareExpiryProcess } from './share-expiry/share-expiry.process';
import { createBlobMaintenanceProcess } from './blob-maintenance/blob-maintenance.process';
import type { ProcessDefinition } from './model/process';

export interface ProcessSettings {
  /** `ACCOUNT_RETENTION_DAYS`. */
  readonly accountRetentionDays: number;
}

export const defaultProcessSettings: ProcessSettings = { accountRetentionDays: DEFAULT_ACCOUNT_RETENTION_DAYS };

export type ProcessCatalog = (settings: ProcessSettings) => ProcessDefinition<any, any>[];

export const createProcessCatalog: ProcessCatalog = (settings) => [
  createAccountDeletionProcess({ retentionDays: settings.accountRetentionDays }),
  createGracePeriodProcess(),
  createFileTtlProcess(),
  createStoragePurgeProcess(),
  createAutoPayApprovalProcess(),
  createSecureFetchCollectProcess(),
  createShareExpiryProcess(),
  createBlobMaintenanceProcess(),
];
