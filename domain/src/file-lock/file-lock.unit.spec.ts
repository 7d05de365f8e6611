import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../shared/decider.testing';
import type { FileLockCommand } from './file-lock.commands';
import { fileLockDecider } from './file-lock.decide';
import { FileLockErrors } from './file-lock.errors';
import type { FileLockEvent } from './file-lock.events';
import { LOCK_CODE_MAX_ATTEMPTS, LOCK_CODE_TTL_MS, LOCK_GRANT_IDLE_MS } from './file-lock.rules';

const T0 = new Date('2026-11-01T00:00:00Z').getTime();
const at = (ms: number) => new Date(T0 + ms);
const cmd = <T extends FileLockCommand['type']>(type: T, data: Extract<FileLockCommand, { type: T }>['data'], ms = 0) =>
  ({ type, data, metadata: { now: at(ms) } }) as FileLockCommand;
const issued = (codeHash = 'h1', ms = 0): FileLockEvent => ({
  type: 'LockCodeIssued',
  data: { userId: 'u1', codeHash, expiresAt: at(ms + LOCK_CODE_TTL_MS).toISOString() },
});
const locked = (itemId: string): FileLockEvent => ({
  type: 'ItemTwoFactorLocked',
  data: { itemId, userId: 'u1', method: 'totp', totpStep: 1, at: at(0).toISOString() },
});
const granted = (lockedItemIds: string[], itemId = 'f1', ms = 0, sessionKey = 's1'): FileLockEvent => ({
  type: 'LockAccessGranted',
  data: { lockedItemIds, itemId, userId: 'u1', sessionKey, method: 'totp', totpStep: 2, at: at(ms).toISOString() },
});
const email = (codeHash: string) => ({ method: 'email' as const, codeHash });
const totp = (totpStep: number | null) => ({ method: 'totp' as const, totpStep });
const open = (chain: string[], ms = 0, sessionKey = 's1') => cmd('OpenItem', { itemId: chain[0]!, chain, userId: 'u1', sessionKey, action: 'download' }, ms);

const given = DeciderSpecification.for(fileLockDecider);

describe('the two-factor lock on files and folders', () => {
  it('a mailed code expires after 10 minutes and locks an item once', () => {
    given([])
      .when(cmd('IssueLockCode', { userId: 'u1', codeHash: 'h1' }))
      .then([issued()]);
    given([issued()])
      .when(cmd('LockItem', { itemId: 'f1', userId: 'u1', proof: email('h1') }, LOCK_CODE_TTL_MS - 1))
      .then((events) => expect(events).toMatchObject([{ type: 'ItemTwoFactorLocked', data: { itemId: 'f1', method: 'email' } }]));
    given([issued()])
      .when(cmd('LockItem', { itemId: 'f1', userId: 'u1', proof: email('h1') }, LOCK_CODE_TTL_MS))
      .thenThrows(FileLockErrors.codeExpired);
    // the code is spent by its use
    given([issued(), { type: 'ItemTwoFactorLocked', data: { itemId: 'f1', userId: 'u1', method: 'email', totpStep: null, at: at(0).toISOString() } }])
      .when(cmd('UnlockItem', { itemId: 'f1', userId: 'u1', proof: email('h1') }))
      .thenThrows(FileLockErrors.codeExpired);
    given([locked('f1')])
      .when(cmd('LockItem', { itemId: 'f1', userId: 'u1', proof: totp(5) }))
      .thenThrows(FileLockErrors.alreadyLocked);
    given([])
      .when(cmd('UnlockItem', { itemId: 'f1', userId: 'u1', proof: totp(5) }))
      .thenThrows(FileLockErrors.notLocked);
  });

  it('a wrong code is recorded, and after five in a row no code passes until a new one is mailed', () => {
    given([issued()])
      .when(cmd('LockItem', { itemId: 'f1', userId: 'u1', proof: email('wrong') }))
      .then([{ type: 'LockCodeRejected', data: { itemId: 'f1', userId: 'u1', purpose: 'lock', method: 'email', at: at(0).toISOString() } }]);
    const rejected = Array.from(
      { length: LOCK_CODE_MAX_ATTEMPTS },
      (): FileLockEvent => ({ type: 'LockCodeRejected', data: { itemId: 'f1', userId: 'u1', purpose: 'lock', method: 'email', at: at(0).toISOString() } }),
    );
    given([issued(), ...rejected])
      .when(cmd('LockItem', { itemId: 'f1', userId: 'u1', proof: email('h1') }))
      .thenThrows(FileLockErrors.tooManyAttempts);
    given([issued(), ...rejected, issued('h2')])
      .when(cmd('LockItem', { itemId: 'f1', userId: 'u1', proof: email('h2') }))
      .then((events) => expect(events[0]!.type).toBe('ItemTwoFactorLocked'));
  });

  it('an authenticator step is accepted once', () => {
    given([locked('f1')])
      .when(cmd('UnlockItem', { itemId: 'f1', userId: 'u1', proof: totp(1) }))
      .then((events) => expect(events[0]!.type).toBe('LockCodeRejected'));
    given([locked('f1')])
      .when(cmd('UnlockItem', { itemId: 'f1', userId: 'u1', proof: totp(null) }))
      .then((events) => expect(events[0]!.type).toBe('LockCodeRejected'));
    given([locked('f1')])
      .when(cmd('UnlockItem', { itemId: 'f1', userId: 'u1', proof: totp(2) }))
      .then((events) => expect(events[0]!.type).toBe('ItemTwoFactorUnlocked'));
  });

  it('an item under a locked folder asks for a code; a grant opens it for that session until 20 minutes without use', () => {
    given([])
      .when(open(['f1', 'd1']))
      .thenNothingHappened();
    given([locked('d1')])
      .when(open(['f1', 'd1']))
      .thenThrows(FileLockErrors.codeRequired, { itemId: 'f1', lockedItemIds: ['d1'] });
    given([locked('d1')])
      .when(cmd('GrantLockAccess', { itemId: 'f1', chain: ['f1', 'd1'], userId: 'u1', sessionKey: 's1', proof: totp(2) }))
      .then([granted(['d1'])]);
    given([locked('d1'), granted(['d1'])])
      .when(open(['f1', 'd1'], LOCK_GRANT_IDLE_MS - 1))
      .then([
        {
          type: 'LockedItemOpened',
          data: { itemId: 'f1', lockedItemIds: ['d1'], userId: 'u1', sessionKey: 's1', action: 'download', at: at(LOCK_GRANT_IDLE_MS - 1).toISOString() },
        },
      ]);
    given([locked('d1'), granted(['d1'])])
      .when(open(['f1', 'd1'], LOCK_GRANT_IDLE_MS))
      .thenThrows(FileLockErrors.codeRequired, { itemId: 'f1', lockedItemIds: ['d1'] });
    // another session has no grant
    given([locked('d1'), granted(['d1'])])
      .when(open(['f1', 'd1'], 0, 's2'))
      .thenThrows(FileLockErrors.codeRequired, { itemId: 'f1', lockedItemIds: ['d1'] });
    // use keeps it alive
    const opened: FileLockEvent = {
      type: 'LockedItemOpened',
      data: { itemId: 'f1', lockedItemIds: ['d1'], userId: 'u1', sessionKey: 's1', action: 'open', at: at(LOCK_GRANT_IDLE_MS - 1).toISOString() },
    };
    given([locked('d1'), granted(['d1']), opened])
      .when(open(['f1', 'd1'], 2 * LOCK_GRANT_IDLE_MS - 2))
      .then((events) => expect(events[0]!.type).toBe('LockedItemOpened'));
    // a lock under the granted folder needs its own grant
    given([locked('d1'), granted(['d1']), locked('f1')])
      .when(open(['f1', 'd1']))
      .thenThrows(FileLockErrors.codeRequired, { itemId: 'f1', lockedItemIds: ['f1', 'd1'] });
  });

  it('unlocking ends the grants of that lock', () => {
    const unlocked: FileLockEvent = {
      type: 'ItemTwoFactorUnlocked',
      data: { itemId: 'd1', userId: 'u1', method: 'totp', totpStep: 3, at: at(0).toISOString() },
    };
    given([locked('d1'), granted(['d1']), unlocked, locked('d1')])
      .when(open(['f1', 'd1']))
      .thenThrows(FileLockErrors.codeRequired, { itemId: 'f1', lockedItemIds: ['d1'] });
  });
});
