import { FAILED_SIGN_IN_WINDOW_MS, MAX_FAILED_SIGN_INS, SIGN_IN_LOCK_MS } from './accounts.validation';

/**
 * The spec's lockout (5 failures within 15 minutes lock sign-in for 15 minutes) as one pure rule,
 * applied per guard. A wrong password and a wrong two-factor code are counted by separate guards,
 * and a browser holding a device cookie for the account (one that signed in to it before) has
 * guards of its own: strangers who type five wrong passwords lock out strangers, not the owner's
 * browser. The same rule counts the failures of addresses that have no account, so an unknown
 * address locks exactly as a known one does and the answers do not tell them apart.
 */
export type SignInScope = 'password' | 'two_factor';

export interface SignInGuard {
  /** Times (epoch ms) of the failures in a row within the window, since the last success or lock. */
  readonly failures: readonly number[];
  readonly lockedUntil: number | null;
}

export const OPEN_GUARD: SignInGuard = { failures: [], lockedUntil: null };

/** `password`, `two_factor`, or `password@<device>` for a trusted device's own guard. */
export const guardKey = (scope: SignInScope, deviceId: string | null | undefined): string => (deviceId ? `${scope}@${deviceId}` : scope);

export const scopeOfGuardKey = (key: string): SignInScope => (key.startsWith('two_factor') ? 'two_factor' : 'password');

/** The end of a lock still running at `now`, else null. */
export const lockedUntilAt = (guard: SignInGuard | undefined, now: number): number | null =>
  guard && guard.lockedUntil !== null && guard.lockedUntil > now ? guard.lockedUntil : null;

export interface CountedFailure {
  /** Failures in a row within the window, this one included. */
  readonly failedAttempts: number;
  /** Set when this failure starts a lock. */
  readonly lockedUntil: number | null;
  readonly guard: SignInGuard;
}

/** Counts one failure at `now`. */
export const countFailure = (guard: SignInGuard | undefined, now: number): CountedFailure => {
  const failures = [...(guard?.failures ?? []).filter((t) => t > now - FAILED_SIGN_IN_WINDOW_MS), now];
  if (failures.length >= MAX_FAILED_SIGN_INS) {
    const lockedUntil = now + SIGN_IN_LOCK_MS;
    return { failedAttempts: failures.length, lockedUntil, guard: { failures: [], lockedUntil } };
  }
  return { failedAttempts: failures.length, lockedUntil: null, guard: { failures, lockedUntil: guard?.lockedUntil ?? null } };
};

/** A guard that neither counts a recent failure nor holds a running lock carries nothing. */
export const isIdleGuard = (guard: SignInGuard, now: number): boolean =>
  lockedUntilAt(guard, now) === null && guard.failures.every((t) => t <= now - FAILED_SIGN_IN_WINDOW_MS);

/** Drops idle guards, so the per-device ones do not pile up in the state. */
export const pruneGuards = (guards: Readonly<Record<string, SignInGuard>>, now: number): Readonly<Record<string, SignInGuard>> =>
  Object.fromEntries(Object.entries(guards).filter(([, guard]) => !isIdleGuard(guard, now)));
