import { assertNever, type Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { FileLockCommand, LockCodeProof } from './file-lock.commands';
import { FileLockErrors } from './file-lock.errors';
import type { FileLockEvent, LockCodePurpose } from './file-lock.events';
import { LOCK_CODE_MAX_ATTEMPTS, LOCK_CODE_TTL_MS } from './file-lock.rules';
import { evolveFileLock, type FileLockState, initialFileLockState, locksCovering, mayOpen } from './file-lock.state';

/**
 * Whether a code proves the user, at `now`: true, false (a wrong code, recorded), or a refusal
 * thrown when no code can pass (the mailed one expired or was never asked for, too many wrong ones).
 */
const proves = (state: FileLockState, userId: string, proof: LockCodeProof, now: number): { valid: boolean; totpStep: number | null } => {
  const rejected = state.rejections.get(userId);
  if (rejected && rejected.count >= LOCK_CODE_MAX_ATTEMPTS && (proof.method === 'email' || now - rejected.lastAt < LOCK_CODE_TTL_MS)) {
    throw new DomainError(FileLockErrors.tooManyAttempts);
  }
  if (proof.method === 'email') {
    const pending = state.codes.get(userId);
    if (!pending || now >= pending.expiresAt) throw new DomainError(FileLockErrors.codeExpired);
    return { valid: pending.codeHash === proof.codeHash, totpStep: null };
  }
  const last = state.totpSteps.get(userId);
  const valid = proof.totpStep !== null && (last === undefined || proof.totpStep > last);
  return { valid, totpStep: valid ? proof.totpStep : null };
};

const rejectedCode = (itemId: string, userId: string, purpose: LockCodePurpose, proof: LockCodeProof, at: string): FileLockEvent[] => [
  { type: 'LockCodeRejected', data: { itemId, userId, purpose, method: proof.method, at } },
];

/** Whether the events a command produced say its code was wrong (the caller then answers the error). */
export const codeWasRejected = (events: readonly FileLockEvent[]): boolean => events.some((e) => e.type === 'LockCodeRejected');

const decide = (command: FileLockCommand, state: FileLockState): FileLockEvent[] => {
  const nowDate = command.metadata.now;
  const now = nowDate.getTime();
  const at = nowDate.toISOString();
  switch (command.type) {
    case 'IssueLockCode':
      return [
        {
          type: 'LockCodeIssued',
          data: { userId: command.data.userId, codeHash: command.data.codeHash, expiresAt: new Date(now + LOCK_CODE_TTL_MS).toISOString() },
        },
      ];
    case 'LockItem': {
      const { itemId, userId, proof } = command.data;
      if (state.locks.has(itemId)) throw new DomainError(FileLockErrors.alreadyLocked);
      const check = proves(state, userId, proof, now);
      if (!check.valid) return rejectedCode(itemId, userId, 'lock', proof, at);
      return [{ type: 'ItemTwoFactorLocked', data: { itemId, userId, method: proof.method, totpStep: check.totpStep, at } }];
    }
    case 'UnlockItem': {
      const { itemId, userId, proof } = command.data;
      if (!state.locks.has(itemId)) throw new DomainError(FileLockErrors.notLocked);
      const check = proves(state, userId, proof, now);
      if (!check.valid) return rejectedCode(itemId, userId, 'unlock', proof, at);
      return [{ type: 'ItemTwoFactorUnlocked', data: { itemId, userId, method: proof.method, totpStep: check.totpStep, at } }];
    }
    case 'GrantLockAccess': {
      const { itemId, chain, userId, sessionKey, proof } = command.data;
      const lockedItemIds = locksCovering(state, chain);
      if (!lockedItemIds.length) return [];
      const check = proves(state, userId, proof, now);
      if (!check.valid) return rejectedCode(itemId, userId, 'open', proof, at);
      return [{ type: 'LockAccessGranted', data: { lockedItemIds, itemId, userId, sessionKey, method: proof.method, totpStep: check.totpStep, at } }];
    }
    case 'OpenItem': {
      const { itemId, chain, userId, sessionKey, action } = command.data;
      const lockedItemIds = locksCovering(state, chain);
      if (!lockedItemIds.length) return [];
      if (!mayOpen(state, sessionKey, chain, now)) throw new DomainError(FileLockErrors.codeRequired, { itemId, lockedItemIds });
      return [{ type: 'LockedItemOpened', data: { itemId, lockedItemIds, userId, sessionKey, action, at } }];
    }
    default:
      return assertNever(command);
  }
};

export const fileLockDecider: Decider<FileLockCommand, FileLockEvent, FileLockState> = {
  initialState: initialFileLockState,
  decide,
  evolve: evolveFileLock,
};
