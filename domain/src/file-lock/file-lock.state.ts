import type { FileLockEvent, LockMethod } from './file-lock.events';
import { LOCK_GRANT_IDLE_MS } from './file-lock.rules';

export interface PendingLockCode {
  readonly codeHash: string;
  readonly expiresAt: number;
}

export interface LockGrant {
  /** When the grant was last given or used: it ends LOCK_GRANT_IDLE_MS after that. */
  readonly lastUsedAt: number;
}

export interface FileLockState {
  /** Locked item id -> who locked it and when. */
  readonly locks: ReadonlyMap<string, { readonly userId: string; readonly method: LockMethod; readonly at: number }>;
  /** Per user: the outstanding mailed code (one at a time; a new one replaces it). */
  readonly codes: ReadonlyMap<string, PendingLockCode>;
  /** Per user: the last authenticator step accepted (a step is never accepted twice). */
  readonly totpSteps: ReadonlyMap<string, number>;
  /** Per user: wrong codes in a row, and when the last was typed. */
  readonly rejections: ReadonlyMap<string, { readonly count: number; readonly lastAt: number }>;
  /** `${sessionKey} ${lockedItemId}` -> the grant. */
  readonly grants: ReadonlyMap<string, LockGrant>;
}

export const initialFileLockState = (): FileLockState => ({
  locks: new Map(),
  codes: new Map(),
  totpSteps: new Map(),
  rejections: new Map(),
  grants: new Map(),
});

export const grantKey = (sessionKey: string, lockedItemId: string) => `${sessionKey} ${lockedItemId}`;

/** The locked items among an item and its folders (the item first, then up to the root). */
export const locksCovering = (state: FileLockState, chain: readonly string[]): string[] => chain.filter((id) => state.locks.has(id));

/** Whether the session holds a live grant for every lock over the chain at `now`. */
export const mayOpen = (state: FileLockState, sessionKey: string, chain: readonly string[], now: number): boolean =>
  locksCovering(state, chain).every((lockedId) => {
    const grant = state.grants.get(grantKey(sessionKey, lockedId));
    return !!grant && now - grant.lastUsedAt < LOCK_GRANT_IDLE_MS;
  });

const withEntry = <K, V>(map: ReadonlyMap<K, V>, key: K, value: V): Map<K, V> => new Map(map).set(key, value);
const without = <K, V>(map: ReadonlyMap<K, V>, key: K): Map<K, V> => {
  const next = new Map(map);
  next.delete(key);
  return next;
};
const ms = (iso: string) => new Date(iso).getTime();

/** A code that proved itself: the mailed one is spent, the step remembered, the wrong tries forgotten. */
const codeUsed = (state: FileLockState, userId: string, method: LockMethod, totpStep: number | null): FileLockState => ({
  ...state,
  codes: method === 'email' ? without(state.codes, userId) : state.codes,
  totpSteps: method === 'totp' && totpStep !== null ? withEntry(state.totpSteps, userId, totpStep) : state.totpSteps,
  rejections: without(state.rejections, userId),
});

/** The grants still alive at `now` (ended ones are dropped as time goes by, so the state stays small). */
const liveGrants = (grants: ReadonlyMap<string, LockGrant>, now: number): Map<string, LockGrant> =>
  new Map([...grants].filter(([, g]) => now - g.lastUsedAt < LOCK_GRANT_IDLE_MS));

export const evolveFileLock = (state: FileLockState, event: FileLockEvent): FileLockState => {
  switch (event.type) {
    case 'LockCodeIssued':
      return {
        ...state,
        codes: withEntry(state.codes, event.data.userId, { codeHash: event.data.codeHash, expiresAt: ms(event.data.expiresAt) }),
        rejections: without(state.rejections, event.data.userId),
      };
    case 'ItemTwoFactorLocked': {
      const used = codeUsed(state, event.data.userId, event.data.method, event.data.totpStep);
      return { ...used, locks: withEntry(used.locks, event.data.itemId, { userId: event.data.userId, method: event.data.method, at: ms(event.data.at) }) };
    }
    case 'ItemTwoFactorUnlocked': {
      const used = codeUsed(state, event.data.userId, event.data.method, event.data.totpStep);
      const suffix = ` ${event.data.itemId}`;
      const grants = new Map([...used.grants].filter(([key]) => !key.endsWith(suffix)));
      return { ...used, locks: without(used.locks, event.data.itemId), grants };
    }
    case 'LockAccessGranted': {
      const used = codeUsed(state, event.data.userId, event.data.method, event.data.totpStep);
      const grants = liveGrants(used.grants, ms(event.data.at));
      for (const id of event.data.lockedItemIds) grants.set(grantKey(event.data.sessionKey, id), { lastUsedAt: ms(event.data.at) });
      return { ...used, grants };
    }
    case 'LockedItemOpened': {
      const grants = liveGrants(state.grants, ms(event.data.at));
      for (const id of event.data.lockedItemIds) grants.set(grantKey(event.data.sessionKey, id), { lastUsedAt: ms(event.data.at) });
      return { ...state, grants };
    }
    case 'LockCodeRejected': {
      const before = state.rejections.get(event.data.userId);
      return { ...state, rejections: withEntry(state.rejections, event.data.userId, { count: (before?.count ?? 0) + 1, lastAt: ms(event.data.at) }) };
    }
    default:
      return state;
  }
};
