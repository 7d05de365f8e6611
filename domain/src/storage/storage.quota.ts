/** 10 GB, as plans count it (decimal). */
export const BASIC_PLAN_QUOTA_BYTES = 10_000_000_000;

/** Total of every archive or multi-item download (spec §9: download total at most 10 GB). */
export const DOWNLOAD_TOTAL_MAX_BYTES = 10_000_000_000;

/**
 * The size of an `online` storage before its owner's plan is known (Basic's 10 GB); the API opens a
 * storage with the quota of the owner's plan and keeps it in line with it (StorageQuotaChanged).
 */
export const defaultStorageQuota = (): number => BASIC_PLAN_QUOTA_BYTES;

/** Page size of storage, file and trash lists (spec §9). */
export const STORAGE_PAGE_SIZE = 500;
