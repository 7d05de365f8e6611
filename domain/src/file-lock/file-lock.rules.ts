/** Spec §9: a verification code expires after 10 minutes. */
export const LOCK_CODE_TTL_MS = 10 * 60_000;
/** A grant to open a locked item lasts for its session until it goes this long without use. */
export const LOCK_GRANT_IDLE_MS = 20 * 60_000;
/** Wrong codes in a row before a mailed code is spent and a new one must be asked for. */
export const LOCK_CODE_MAX_ATTEMPTS = 5;
/** Ids asked about at once on `two-factor-files`. */
export const LOCK_QUERY_MAX_IDS = 500;
