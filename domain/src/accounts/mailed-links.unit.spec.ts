import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import type { DomainError } from '../shared/errors';
import { checkMailedLink, userDecider } from './accounts.decide';
import { AccountErrors } from './accounts.errors';
import type { UserEvent } from './accounts.events';

const T0 = new Date('2026-11-22T10:00:00Z');
const registered = {
  type: 'UserRegistered',
  data: {
    userId: 'u-1',
    email: 'a@example.com',
    passwordHash: 'h',
    authMethods: ['password'],
    role: 'user',
    locale: 'nl',
    termsAccepted: true,
    emailVerified: true,
    registrationApp: 'web',
    userAgent: null,
    ip: null,
    createdByStaffId: null,
    registeredAt: T0.toISOString(),
  },
} as unknown as UserEvent;
const resetRequested = {
  type: 'PasswordResetRequested',
  data: { tokenHash: 'hash-1', expiresAt: new Date(T0.getTime() + 3_600_000).toISOString() },
} as UserEvent;

const codeOf = (check: () => void): string | null => {
  try {
    check();
    return null;
  } catch (error) {
    return String((error as DomainError).code);
  }
};

describe('checking a mailed link without using it', () => {
  const state = fold(userDecider, [registered, resetRequested]);

  it('passes the outstanding link before it expires, as often as asked', () => {
    expect(codeOf(() => checkMailedLink(state, 'password-reset', 'hash-1', T0))).toBeNull();
    expect(codeOf(() => checkMailedLink(state, 'password-reset', 'hash-1', T0))).toBeNull();
  });
  it('answers what the link itself would: invalid, expired, or a link of another kind', () => {
    expect(codeOf(() => checkMailedLink(state, 'password-reset', 'hash-2', T0))).toBe(String(AccountErrors.linkInvalid.code));
    expect(codeOf(() => checkMailedLink(state, 'password-reset', 'hash-1', new Date(T0.getTime() + 3_600_000)))).toBe(String(AccountErrors.linkExpired.code));
    expect(codeOf(() => checkMailedLink(state, 'two-factor-reset', 'hash-1', T0))).toBe(String(AccountErrors.linkInvalid.code));
    expect(codeOf(() => checkMailedLink(state, 'email-change', 'hash-1', T0))).toBe(String(AccountErrors.linkInvalid.code));
  });
  it('says a link of an account that never was names no user', () => {
    expect(codeOf(() => checkMailedLink(fold(userDecider, []), 'password-reset', 'hash-1', T0))).toBe(String(AccountErrors.userNotFound.code));
  });
});
