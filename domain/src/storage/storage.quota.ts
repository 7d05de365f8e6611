/** 10 GB, as plans count it (decimal). */
export const BASIC_PLAN_QUOTA_BYTES = 10_000_000_000;

/** Total of every archive or multi-item download (spec §9: download total at most 10 GB). */
export const DOWNLOAD_TOTAL_MAX_BYTES = 10_000_000_000;

/**
 * The size of a user's `online` storage. Until plans exist every account has Basic's 10 GB; the
 * plans slice replaces this with the size of the user's plan (and emits StorageQuotaChanged).
 */
export const defaultStorageQuota = (): number => BASIC_PLAN_QUOTA_BYTES;

/** Page size of storage, file and trash lists (spec §9). */
export const STORAGE_PAGE_SIZE = 500;
