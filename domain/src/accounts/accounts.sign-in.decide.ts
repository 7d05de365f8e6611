import { DomainError } from '../shared/errors';
import type { SignIn, SignInWithProvider } from './accounts.commands';
import { iso, nowOf, twoFactorCodeAccepted } from './accounts.decide.common';
import { AccountErrors } from './accounts.errors';
import type { UserEvent } from './accounts.events';
import { isBlocked, isExistingUser, signInLockedUntil, type ExistingUser, type UserState } from './accounts.state';
import { VERIFICATION_CODE_TTL_MS } from './accounts.validation';
import { countFailure, guardKey, type SignInScope } from './sign-in-guard';

/** The failure counts against its own guard: its scope, and the trusted device if there is one. */
const failSignIn = (user: ExistingUser, command: SignIn | SignInWithProvider, reason: SignInScope): UserEvent[] => {
  const { ms, at } = nowOf(command);
  const deviceId = command.data.deviceId ?? null;
  const counted = countFailure(user.signInGuards[guardKey(reason, deviceId)], ms);
  const failedAttempts = counted.failedAttempts;
  const device = deviceId === null ? {} : { deviceId };
  const events: UserEvent[] = [
    { type: 'SignInFailed', data: { reason, failedAttempts, ip: command.data.ip, userAgent: command.data.userAgent, at, ...device } },
  ];
  if (counted.lockedUntil !== null) {
    events.push({ type: 'UserLocked', data: { until: iso(counted.lockedUntil), failedAttempts, at, scope: reason, ...device } });
  }
  return events;
};

const refuseWhileLocked = (user: ExistingUser, scope: SignInScope, command: SignIn | SignInWithProvider): void => {
  const until = signInLockedUntil(user, command.metadata.now, scope, command.data.deviceId ?? null);
  if (until !== null) throw new DomainError(AccountErrors.userLocked, { lockedUntil: iso(until) });
};

/**
 * A wrong password or code is recorded rather than thrown, so that it counts toward the lockout;
 * `signInOutcome` turns the resulting events into the answer. Each browser is judged by its own
 * guards: a trusted device (`deviceId`) by its own, every other browser by the shared ones.
 */
export const signIn = (command: SignIn, state: UserState): UserEvent[] => {
  if (!isExistingUser(state)) throw new DomainError(AccountErrors.wrongCredentials);
  const user = state;
  const d = command.data;
  if (user.passwordHash === null) throw new DomainError(AccountErrors.socialAccount);
  refuseWhileLocked(user, 'password', command);
  if (!d.passwordValid) return failSignIn(user, command, 'password');
  return afterFirstFactor(user, command);
};

/**
 * An OpenID Connect sign-in: the provider stood for the first factor. The account must be known by
 * that address; every later rule (confirmed address, suspension, block, second factor) is the
 * password sign-in's own.
 */
export const signInWithProvider = (command: SignInWithProvider, state: UserState): UserEvent[] => {
  if (!isExistingUser(state)) throw new DomainError(AccountErrors.wrongCredentials);
  return afterFirstFactor(state, command);
};

const afterFirstFactor = (user: ExistingUser, command: SignIn | SignInWithProvider): UserEvent[] => {
  const d = command.data;
  const { ms, at } = nowOf(command);
  if (!user.emailVerified) throw new DomainError(AccountErrors.emailNotVerified);
  if (user.status === 'suspended') throw new DomainError(AccountErrors.userSuspended);
  if (isBlocked(user, command.metadata.now)) {
    const until = user.block?.until ?? null;
    throw new DomainError(AccountErrors.userBlocked, { blockedUntil: until === null ? null : iso(until) });
  }
  const { enabled, method } = user.twoFactor;
  if (enabled && method !== null) {
    // only someone who knows the password learns that the code step is locked
    refuseWhileLocked(user, 'two_factor', command);
    if (d.twoFactorCodeValid === undefined) {
      if (method === 'totp') {
        return [{ type: 'TwoFactorChallengeIssued', data: { method, codeHash: null, expiresAt: null, at } }];
      }
      if (!d.emailCodeHash) throw new Error('SignIn needs emailCodeHash to challenge the e-mail method');
      return [
        {
          type: 'TwoFactorChallengeIssued',
          data: { method, codeHash: d.emailCodeHash, expiresAt: iso(ms + VERIFICATION_CODE_TTL_MS), at },
        },
      ];
    }
    if (!twoFactorCodeAccepted(user, method, 'sign_in', { valid: d.twoFactorCodeValid, totpStep: d.totpStep }, ms)) {
      return failSignIn(user, command, 'two_factor');
    }
  }
  const usedTotp = enabled && method === 'totp' && d.totpStep !== undefined;
  return [
    {
      type: 'SignInSucceeded',
      data: {
        sessionId: d.sessionId,
        ip: d.ip,
        userAgent: d.userAgent,
        at,
        ...(d.deviceId ? { deviceId: d.deviceId } : {}),
        ...(usedTotp ? { totpStep: d.totpStep } : {}),
      },
    },
  ];
};

// ---- what the API answers to a sign-in ----------------------------------------------------------

export type SignInOutcome =
  | { readonly kind: 'signed_in'; readonly sessionId: string }
  | { readonly kind: 'two_factor_required'; readonly method: 'email' | 'totp' }
  /** The attempt was recorded; answer with `error` (WRONG_CREDENTIALS, TWO_FACTOR_INCORRECT, USER_LOCKED). */
  | { readonly kind: 'rejected'; readonly error: DomainError };

/** Reads the answer to a sign-in from the events `signIn` returned. */
export const signInOutcome = (events: readonly UserEvent[]): SignInOutcome => {
  const locked = events.find((e) => e.type === 'UserLocked');
  if (locked) return { kind: 'rejected', error: new DomainError(AccountErrors.userLocked, { lockedUntil: locked.data.until }) };
  for (const event of events) {
    switch (event.type) {
      case 'SignInFailed':
        return {
          kind: 'rejected',
          error: new DomainError(event.data.reason === 'password' ? AccountErrors.wrongCredentials : AccountErrors.twoFactorIncorrect),
        };
      case 'TwoFactorChallengeIssued':
        return { kind: 'two_factor_required', method: event.data.method };
      case 'SignInSucceeded':
        return { kind: 'signed_in', sessionId: event.data.sessionId };
      default:
        break;
    }
  }
  throw new Error('These events are not the result of a sign-in');
};
