import { z } from 'zod';
import { defineEvent, type EventOf } from '../shared/events';

/** One stream per storage holds its two-factor locks, the codes mailed for them and the grants to open them. */
export const fileLockStreamName = (storageId: string) => `file-lock-${storageId}`;

export const LOCK_METHODS = ['email', 'totp'] as const;
export type LockMethod = (typeof LOCK_METHODS)[number];

/** What a verification code was asked for: lock, unlock, or open a locked item. */
export const LOCK_CODE_PURPOSES = ['lock', 'unlock', 'open'] as const;
export type LockCodePurpose = (typeof LOCK_CODE_PURPOSES)[number];

const at = z.string();
const method = z.enum(LOCK_METHODS);
/** A fingerprint of the session a grant belongs to (never the session's own token). */
const sessionKey = z.string();
/** The authenticator time step a code used: a step is never accepted twice. */
const totpStep = z.number().int().nullable();

/** An e-mail verification code was sent for one of the storage's locks (its hash; it expires). */
export const LockCodeIssued = defineEvent('LockCodeIssued', z.object({ userId: z.string(), codeHash: z.string(), expiresAt: at }), {
  secret: ['codeHash'],
});
export const ItemTwoFactorLocked = defineEvent('ItemTwoFactorLocked', z.object({ itemId: z.string(), userId: z.string(), method, totpStep, at }));
export const ItemTwoFactorUnlocked = defineEvent('ItemTwoFactorUnlocked', z.object({ itemId: z.string(), userId: z.string(), method, totpStep, at }));
/** A fresh code opened these locked items for one session, until they go unused for the grant's idle time. */
export const LockAccessGranted = defineEvent(
  'LockAccessGranted',
  z.object({ lockedItemIds: z.array(z.string()), itemId: z.string(), userId: z.string(), sessionKey, method, totpStep, at }),
  { secret: ['sessionKey'] },
);
/** A locked item (or one under a locked folder) was served under a grant; its use keeps the grant alive. */
export const LockedItemOpened = defineEvent(
  'LockedItemOpened',
  z.object({ itemId: z.string(), lockedItemIds: z.array(z.string()), userId: z.string(), sessionKey, action: z.string(), at }),
  { secret: ['sessionKey'] },
);
/** A wrong code was typed: kept for the audit log (and to cap guessing). */
export const LockCodeRejected = defineEvent(
  'LockCodeRejected',
  z.object({ itemId: z.string(), userId: z.string(), purpose: z.enum(LOCK_CODE_PURPOSES), method, at }),
);

export const fileLockEventDefinitions = [LockCodeIssued, ItemTwoFactorLocked, ItemTwoFactorUnlocked, LockAccessGranted, LockedItemOpened, LockCodeRejected];

export type FileLockEvent =
  | EventOf<typeof LockCodeIssued>
  | EventOf<typeof ItemTwoFactorLocked>
  | EventOf<typeof ItemTwoFactorUnlocked>
  | EventOf<typeof LockAccessGranted>
  | EventOf<typeof LockedItemOpened>
  | EventOf<typeof LockCodeRejected>;
