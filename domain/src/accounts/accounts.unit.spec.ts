import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import { DeciderSpecification } from '../shared/decider.testing';
import { CommonErrors } from '../shared/errors';
import { EventRegistry, type DomainEvent } from '../shared/events';
import type { EmailReservationCommand, UserCommand, UsernameReservationCommand } from './accounts.commands';
import {
  ABANDONED_RESERVATION_AFTER_MS,
  emailReservationDecider,
  emailReservationStreamName,
  normalizeEmail,
  signInOutcome,
  userDecider,
  usernameReservationDecider,
  usernameReservationStreamName,
  userStreamName,
} from './accounts.decide';
import { AccountErrors } from './accounts.errors';
import { accountEventDefinitions, type UserEvent } from './accounts.events';
import { activeEmail, isBlocked, isLocked, pendingEmailCode, signInLockedUntil, type UserState } from './accounts.state';
import {
  AVATAR_MAX_BYTES,
  EMAIL_CHANGE_TTL_MS,
  EMAIL_CONFIRMATION_TTL_MS,
  PASSWORD_RESET_TTL_MS,
  SIGN_IN_LOCK_MS,
  TWO_FACTOR_RESET_TTL_MS,
  VERIFICATION_CODE_TTL_MS,
} from './accounts.validation';

// ---- given / when / then ----------------------------------------------------------------------

const registry = new EventRegistry().register(...accountEventDefinitions);

// Every event a decider produces must be storable as it is.
const storable = { eachEvent: (event: DomainEvent) => void registry.encode(event) };
const givenUser = DeciderSpecification.for(userDecider, storable);

const T0 = new Date('2026-03-02T09:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const after = (ms: number): Date => new Date(T0.getTime() + ms);
const iso = (ms: number): string => after(ms).toISOString();

type CommandType = UserCommand['type'];
type CommandData<T extends CommandType> = Extract<UserCommand, { type: T }>['data'];
const command = <T extends CommandType>(type: T, data: CommandData<T>, now: Date = T0): UserCommand => ({ type, data, metadata: { now } }) as UserCommand;

// ---- fixtures: each test builds its own history -------------------------------------------------

const USER_ID = 'u-1';

const registered = (overrides: Partial<Extract<UserEvent, { type: 'UserRegistered' }>['data']> = {}): UserEvent => ({
  type: 'UserRegistered',
  data: {
    userId: USER_ID,
    email: 'ada@example.com',
    passwordHash: 'argon2-hash',
    authMethods: ['password'],
    role: 'user',
    locale: 'en_us',
    termsAccepted: true,
    emailVerified: false,
    registrationApp: 'web',
    userAgent: 'UA',
    ip: '203.0.113.7',
    createdByStaffId: null,
    registeredAt: iso(0),
    ...overrides,
  },
});
const confirmationRequested = (tokenHash = 'confirm-1', issuedAt = 0): UserEvent => ({
  type: 'EmailConfirmationRequested',
  data: { email: 'ada@example.com', tokenHash, expiresAt: iso(issuedAt + EMAIL_CONFIRMATION_TTL_MS) },
});
const confirmed = (at = 0): UserEvent => ({ type: 'EmailConfirmed', data: { email: 'ada@example.com', at: iso(at) } });
const activeUser = (): UserEvent[] => [registered(), confirmationRequested(), confirmed(MINUTE)];
const signInFailed = (at: number, failedAttempts: number, reason: 'password' | 'two_factor' = 'password'): UserEvent => ({
  type: 'SignInFailed',
  data: { reason, failedAttempts, ip: '203.0.113.7', userAgent: 'UA', at: iso(at) },
});
const totpEnabled = (): UserEvent[] => [
  { type: 'TotpEnrolmentStarted', data: { secretCiphertext: 'enc-secret', at: iso(0) } },
  { type: 'TwoFactorEnabled', data: { method: 'totp', at: iso(0) } },
];
const emailTwoFactorEnabled = (): UserEvent[] => [
  { type: 'TwoFactorCodeIssued', data: { purpose: 'enable', codeHash: 'code-enable', expiresAt: iso(VERIFICATION_CODE_TTL_MS) } },
  { type: 'TwoFactorEnabled', data: { method: 'email', at: iso(MINUTE) } },
];
const deleted = (): UserEvent => ({
  type: 'AccountDeleted',
  data: { by: 'user', deleterId: USER_ID, email: 'ada@example.com', at: iso(2 * HOUR) },
});

const signInData = (overrides: Partial<CommandData<'SignIn'>> = {}): CommandData<'SignIn'> => ({
  passwordValid: true,
  sessionId: 'session-1',
  ip: '198.51.100.4',
  userAgent: 'Firefox',
  ...overrides,
});
const signedIn = (at: number, sessionId = 'session-1'): UserEvent => ({
  type: 'SignInSucceeded',
  data: { sessionId, ip: '198.51.100.4', userAgent: 'Firefox', at: iso(at) },
});

const stateOf = (events: readonly UserEvent[]): UserState => fold(userDecider, events);

// ---- specs --------------------------------------------------------------------------------------

describe('stream names', () => {
  it('names one stream per user and per reserved address or username', () => {
    expect(userStreamName('abc')).toBe('user-abc');
    expect(emailReservationStreamName('ff00')).toBe('email-ff00');
    expect(usernameReservationStreamName('9f2c')).toBe('username-9f2c');
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });
});

describe('RegisterUser', () => {
  const registration = (overrides: Partial<CommandData<'RegisterUser'>> = {}): CommandData<'RegisterUser'> => ({
    userId: USER_ID,
    email: 'Ada@Example.com',
    passwordHash: 'argon2-hash',
    locale: 'en_us',
    termsAccepted: true,
    registrationApp: 'web',
    userAgent: 'UA',
    ip: '203.0.113.7',
    confirmTokenHash: 'confirm-1',
    ...overrides,
  });

  it('registers an unconfirmed user and asks for confirmation, valid for 24 hours', () =>
    givenUser([]).when(command('RegisterUser', registration())).then([registered(), confirmationRequested()]));

  it('leaves a new user inactive until the e-mail is confirmed', () =>
    givenUser([])
      .when(command('RegisterUser', registration()))
      .thenState((state) => {
        expect(state.status).toBe('inactive');
        expect(activeEmail(state)).toBe('ada@example.com');
      }));

  it('registers a staff-created user already confirmed and active, with the chosen role', () =>
    givenUser([])
      .when(command('RegisterUser', registration({ createdByStaffId: 'staff-1', role: 'admin', termsAccepted: false, confirmTokenHash: null })))
      .thenState((state, produced) => {
        expect(produced).toEqual([registered({ createdByStaffId: 'staff-1', role: 'admin', termsAccepted: false, emailVerified: true })]);
        expect(state.status).toBe('active');
      }));

  it('registers a social account without a password', () =>
    givenUser([])
      .when(command('RegisterUser', registration({ passwordHash: null, socialProvider: 'google' })))
      .thenState((_state, produced) => {
        expect(produced[0]).toMatchObject({ data: { passwordHash: null, authMethods: ['google'] } });
      }));

  it('refuses a sign-up without accepted terms', () =>
    givenUser([])
      .when(command('RegisterUser', registration({ termsAccepted: false })))
      .thenThrows(CommonErrors.validation, { fields: { termsAccepted: 'validation.terms' } }));

  it('refuses an account with neither password nor social provider', () =>
    givenUser([])
      .when(command('RegisterUser', registration({ passwordHash: null })))
      .thenThrows(CommonErrors.validation));

  it('refuses to register an existing stream', () => givenUser([registered()]).when(command('RegisterUser', registration())).thenThrows(CommonErrors.conflict));
});

describe('ResendConfirmation and ConfirmEmail', () => {
  it('sends a fresh link valid for 24 hours from now', () =>
    givenUser([registered(), confirmationRequested()])
      .when(command('ResendConfirmation', { tokenHash: 'confirm-2' }, after(HOUR)))
      .then([confirmationRequested('confirm-2', HOUR)]));

  it('does not resend once the e-mail is confirmed', () =>
    givenUser(activeUser())
      .when(command('ResendConfirmation', { tokenHash: 'confirm-2' }))
      .thenThrows(AccountErrors.emailAlreadyConfirmed));

  it('does not resend for an unknown user', () =>
    givenUser([])
      .when(command('ResendConfirmation', { tokenHash: 'x' }))
      .thenThrows(AccountErrors.userNotFound));

  it('confirms the e-mail with the right link and activates the user', () =>
    givenUser([registered(), confirmationRequested()])
      .when(command('ConfirmEmail', { tokenHash: 'confirm-1' }, after(MINUTE)))
      .thenState((state, produced) => {
        expect(produced).toEqual([confirmed(MINUTE)]);
        expect(state).toMatchObject({ status: 'active', emailVerified: true, emailConfirmation: null });
      }));

  it('rejects an unknown link', () =>
    givenUser([registered(), confirmationRequested()])
      .when(command('ConfirmEmail', { tokenHash: 'nope' }))
      .thenThrows(AccountErrors.linkInvalid));

  it('rejects a link that was already used', () =>
    givenUser(activeUser())
      .when(command('ConfirmEmail', { tokenHash: 'confirm-1' }))
      .thenThrows(AccountErrors.linkInvalid));

  it('rejects a link replaced by a newer one', () =>
    givenUser([registered(), confirmationRequested(), confirmationRequested('confirm-2', MINUTE)])
      .when(command('ConfirmEmail', { tokenHash: 'confirm-1' }))
      .thenThrows(AccountErrors.linkInvalid));

  it('rejects a link after 24 hours', () =>
    givenUser([registered(), confirmationRequested()])
      .when(command('ConfirmEmail', { tokenHash: 'confirm-1' }, after(EMAIL_CONFIRMATION_TTL_MS)))
      .thenThrows(AccountErrors.linkExpired));
});

describe('SignIn', () => {
  it('signs in with the right password', () =>
    givenUser(activeUser())
      .when(command('SignIn', signInData(), after(HOUR)))
      .thenState((state, produced) => {
        expect(produced).toEqual([signedIn(HOUR)]);
        expect(signInOutcome(produced)).toEqual({ kind: 'signed_in', sessionId: 'session-1' });
        expect(state).toMatchObject({ lastSignInAt: after(HOUR).getTime() });
      }));

  it('answers wrong credentials for an unknown or deleted user', () => {
    givenUser([]).when(command('SignIn', signInData())).thenThrows(AccountErrors.wrongCredentials);
    givenUser([...activeUser(), deleted()])
      .when(command('SignIn', signInData()))
      .thenThrows(AccountErrors.wrongCredentials);
  });

  it('sends social accounts to their provider', () =>
    givenUser([registered({ passwordHash: null, authMethods: ['google'] }), confirmed()])
      .when(command('SignIn', signInData()))
      .thenThrows(AccountErrors.socialAccount));

  it('records a wrong password instead of throwing', () =>
    givenUser(activeUser())
      .when(command('SignIn', signInData({ passwordValid: false }), after(HOUR)))
      .thenState((state, produced) => {
        expect(produced).toEqual([
          { type: 'SignInFailed', data: { reason: 'password', failedAttempts: 1, ip: '198.51.100.4', userAgent: 'Firefox', at: iso(HOUR) } },
        ]);
        const outcome = signInOutcome(produced);
        expect(outcome.kind === 'rejected' && outcome.error.code).toBe(AccountErrors.wrongCredentials.code);
        expect(isLocked(state, after(HOUR))).toBe(false);
      }));

  it('locks the user for 15 minutes at the fifth failure within 15 minutes', () =>
    givenUser([...activeUser(), ...[1, 2, 3, 4].map((n) => signInFailed(HOUR + n * MINUTE, n))])
      .when(command('SignIn', signInData({ passwordValid: false }), after(HOUR + 5 * MINUTE)))
      .thenState((state, produced) => {
        expect(produced).toEqual([
          { type: 'SignInFailed', data: { reason: 'password', failedAttempts: 5, ip: '198.51.100.4', userAgent: 'Firefox', at: iso(HOUR + 5 * MINUTE) } },
          { type: 'UserLocked', data: { until: iso(HOUR + 5 * MINUTE + SIGN_IN_LOCK_MS), failedAttempts: 5, at: iso(HOUR + 5 * MINUTE), scope: 'password' } },
        ]);
        const outcome = signInOutcome(produced);
        expect(outcome.kind).toBe('rejected');
        if (outcome.kind === 'rejected') {
          expect(outcome.error.code).toBe(AccountErrors.userLocked.code);
          expect(outcome.error.data).toEqual({ lockedUntil: iso(HOUR + 5 * MINUTE + SIGN_IN_LOCK_MS) });
        }
        expect(isLocked(state, after(HOUR + 6 * MINUTE))).toBe(true);
      }));

  it('does not count failures older than 15 minutes', () =>
    givenUser([...activeUser(), ...[1, 2, 3, 4].map((n) => signInFailed(HOUR + n * MINUTE, n))])
      .when(command('SignIn', signInData({ passwordValid: false }), after(HOUR + 17 * MINUTE)))
      .thenState((_state, produced) => {
        expect(produced).toHaveLength(1);
        // The failures at 1 and 2 minutes past the hour fall out of the window; those at 3 and 4 remain.
        expect(produced[0]).toMatchObject({ data: { failedAttempts: 3 } });
      }));

  it('refuses even the right password while locked', () =>
    givenUser([...activeUser(), { type: 'UserLocked', data: { until: iso(HOUR + 15 * MINUTE), failedAttempts: 5, at: iso(HOUR) } }])
      .when(command('SignIn', signInData(), after(HOUR + 14 * MINUTE)))
      .thenThrows(AccountErrors.userLocked, { lockedUntil: iso(HOUR + 15 * MINUTE) }));

  it('lets the user in once the lock has passed, with a fresh failure count', () => {
    const history = [
      ...activeUser(),
      ...[1, 2, 3, 4, 5].map((n) => signInFailed(HOUR, n)),
      { type: 'UserLocked', data: { until: iso(HOUR + 15 * MINUTE), failedAttempts: 5, at: iso(HOUR) } } as UserEvent,
    ];
    givenUser(history)
      .when(command('SignIn', signInData(), after(HOUR + 15 * MINUTE)))
      .then([signedIn(HOUR + 15 * MINUTE)]);
    givenUser(history)
      .when(command('SignIn', signInData({ passwordValid: false }), after(HOUR + 15 * MINUTE)))
      .thenState((_s, produced) => expect(produced).toEqual([expect.objectContaining({ data: expect.objectContaining({ failedAttempts: 1 }) })]));
  });

  it('resets the failure count after a success', () =>
    givenUser([...activeUser(), ...[1, 2, 3, 4].map((n) => signInFailed(HOUR, n)), signedIn(HOUR)])
      .when(command('SignIn', signInData({ passwordValid: false }), after(HOUR + MINUTE)))
      .thenState((_s, produced) => expect(produced).toHaveLength(1)));

  it('asks to verify the e-mail only after a right password', () => {
    givenUser([registered(), confirmationRequested()]).when(command('SignIn', signInData())).thenThrows(AccountErrors.emailNotVerified);
    givenUser([registered(), confirmationRequested()])
      .when(command('SignIn', signInData({ passwordValid: false })))
      .thenState((_s, produced) => expect(produced[0]?.type).toBe('SignInFailed'));
  });

  it('refuses a suspended user', () =>
    givenUser([...activeUser(), { type: 'UserSuspended', data: { reason: null, at: iso(HOUR) } }])
      .when(command('SignIn', signInData(), after(2 * HOUR)))
      .thenThrows(AccountErrors.userSuspended));

  it('refuses a blocked user until the block ends', () => {
    const history = [...activeUser(), { type: 'UserBlocked', data: { until: iso(3 * HOUR), at: iso(HOUR) } } as UserEvent];
    givenUser(history)
      .when(command('SignIn', signInData(), after(2 * HOUR)))
      .thenThrows(AccountErrors.userBlocked, { blockedUntil: iso(3 * HOUR) });
    givenUser(history)
      .when(command('SignIn', signInData(), after(3 * HOUR)))
      .then([signedIn(3 * HOUR)]);
  });

  it('refuses a user blocked without end', () =>
    givenUser([...activeUser(), { type: 'UserBlocked', data: { until: null, at: iso(HOUR) } }])
      .when(command('SignIn', signInData(), after(1000 * HOUR)))
      .thenThrows(AccountErrors.userBlocked, { blockedUntil: null }));

  it('challenges for an authenticator code when TOTP is on and no code was given', () =>
    givenUser([...activeUser(), ...totpEnabled()])
      .when(command('SignIn', signInData(), after(HOUR)))
      .thenState((_s, produced) => {
        expect(produced).toEqual([{ type: 'TwoFactorChallengeIssued', data: { method: 'totp', codeHash: null, expiresAt: null, at: iso(HOUR) } }]);
        expect(signInOutcome(produced)).toEqual({ kind: 'two_factor_required', method: 'totp' });
      }));

  it('mails a code valid for 10 minutes when the e-mail method is on', () =>
    givenUser([...activeUser(), ...emailTwoFactorEnabled()])
      .when(command('SignIn', signInData({ emailCodeHash: 'code-sign-in' }), after(HOUR)))
      .thenState((state, produced) => {
        expect(produced).toEqual([
          {
            type: 'TwoFactorChallengeIssued',
            data: { method: 'email', codeHash: 'code-sign-in', expiresAt: iso(HOUR + VERIFICATION_CODE_TTL_MS), at: iso(HOUR) },
          },
        ]);
        expect(pendingEmailCode(state, 'sign_in')).toEqual({ codeHash: 'code-sign-in', expiresAt: after(HOUR + VERIFICATION_CODE_TTL_MS).getTime() });
      }));

  const emailChallenged = (): UserEvent[] => [
    ...activeUser(),
    ...emailTwoFactorEnabled(),
    {
      type: 'TwoFactorChallengeIssued',
      data: { method: 'email', codeHash: 'code-sign-in', expiresAt: iso(HOUR + VERIFICATION_CODE_TTL_MS), at: iso(HOUR) },
    },
  ];

  it('signs in with the mailed code within 10 minutes, once', () => {
    givenUser(emailChallenged())
      .when(command('SignIn', signInData({ twoFactorCodeValid: true }), after(HOUR + 9 * MINUTE)))
      .then([signedIn(HOUR + 9 * MINUTE)]);
    givenUser([...emailChallenged(), signedIn(HOUR + 9 * MINUTE)])
      .when(command('SignIn', signInData({ twoFactorCodeValid: true }), after(HOUR + 9 * MINUTE + 1)))
      .thenState((_s, produced) => expect(produced[0]).toMatchObject({ type: 'SignInFailed', data: { reason: 'two_factor' } }));
  });

  it('refuses a mailed code after 10 minutes even when it matches', () =>
    givenUser(emailChallenged())
      .when(command('SignIn', signInData({ twoFactorCodeValid: true }), after(HOUR + VERIFICATION_CODE_TTL_MS)))
      .thenState((_s, produced) => {
        expect(produced).toEqual(
          [signInFailed(HOUR + VERIFICATION_CODE_TTL_MS, 1, 'two_factor')].map((e) => ({
            ...e,
            data: { ...e.data, ip: '198.51.100.4', userAgent: 'Firefox' },
          })),
        );
        const outcome = signInOutcome(produced);
        expect(outcome.kind === 'rejected' && outcome.error.code).toBe(AccountErrors.twoFactorIncorrect.code);
      }));

  it('records a wrong authenticator code and counts it toward the lockout', () =>
    givenUser([...activeUser(), ...totpEnabled(), ...[1, 2, 3, 4].map((n) => signInFailed(HOUR, n, 'two_factor'))])
      .when(command('SignIn', signInData({ twoFactorCodeValid: false }), after(HOUR + MINUTE)))
      .thenState((_s, produced) => {
        expect(produced.map((e) => e.type)).toEqual(['SignInFailed', 'UserLocked']);
        const outcome = signInOutcome(produced);
        expect(outcome.kind === 'rejected' && outcome.error.code).toBe(AccountErrors.userLocked.code);
      }));

  it('signs in with a right authenticator code', () =>
    givenUser([...activeUser(), ...totpEnabled()])
      .when(command('SignIn', signInData({ twoFactorCodeValid: true }), after(HOUR)))
      .then([signedIn(HOUR)]));

  it('has no outcome for events that are not a sign-in', () => {
    expect(() => signInOutcome([confirmed()])).toThrow();
  });
});

describe('password reset and change', () => {
  const resetRequested = (tokenHash = 'reset-1', at = HOUR): UserEvent => ({
    type: 'PasswordResetRequested',
    data: { tokenHash, expiresAt: iso(at + PASSWORD_RESET_TTL_MS) },
  });

  it('issues a reset link valid for one hour', () =>
    givenUser(activeUser())
      .when(command('RequestPasswordReset', { tokenHash: 'reset-1' }, after(HOUR)))
      .then([resetRequested()]));

  it('does nothing for a deleted user', () =>
    givenUser([...activeUser(), deleted()])
      .when(command('RequestPasswordReset', { tokenHash: 'r' }))
      .thenNothingHappened());

  it('sets the new password through the link', () =>
    givenUser([...activeUser(), resetRequested()])
      .when(command('ResetPassword', { tokenHash: 'reset-1', passwordHash: 'new-hash' }, after(HOUR + MINUTE)))
      .thenState((state, produced) => {
        expect(produced).toEqual([{ type: 'PasswordChanged', data: { passwordHash: 'new-hash', via: 'reset', at: iso(HOUR + MINUTE) } }]);
        expect(state).toMatchObject({ passwordHash: 'new-hash', passwordReset: null });
      }));

  it('accepts a link only once', () =>
    givenUser([...activeUser(), resetRequested(), { type: 'PasswordChanged', data: { passwordHash: 'h', via: 'reset', at: iso(HOUR) } }])
      .when(command('ResetPassword', { tokenHash: 'reset-1', passwordHash: 'other' }, after(HOUR + MINUTE)))
      .thenThrows(AccountErrors.linkInvalid));

  it('rejects an unknown or replaced link', () => {
    givenUser([...activeUser(), resetRequested()])
      .when(command('ResetPassword', { tokenHash: 'forged', passwordHash: 'h' }, after(HOUR)))
      .thenThrows(AccountErrors.linkInvalid);
    givenUser([...activeUser(), resetRequested(), resetRequested('reset-2')])
      .when(command('ResetPassword', { tokenHash: 'reset-1', passwordHash: 'h' }, after(HOUR)))
      .thenThrows(AccountErrors.linkInvalid);
  });

  it('rejects a link after one hour', () =>
    givenUser([...activeUser(), resetRequested()])
      .when(command('ResetPassword', { tokenHash: 'reset-1', passwordHash: 'h' }, after(HOUR + PASSWORD_RESET_TTL_MS)))
      .thenThrows(AccountErrors.linkExpired));

  it('lets a social account set a password through a reset link', () =>
    givenUser([registered({ passwordHash: null, authMethods: ['google'] }), confirmed(), resetRequested()])
      .when(command('ResetPassword', { tokenHash: 'reset-1', passwordHash: 'h' }, after(HOUR)))
      .thenState((state) => expect(state).toMatchObject({ passwordHash: 'h', authMethods: ['password', 'google'] })));

  it('changes the password in settings', () =>
    givenUser(activeUser())
      .when(command('ChangePassword', { currentPasswordValid: true, newPasswordHash: 'new', sameAsCurrent: false }))
      .then([{ type: 'PasswordChanged', data: { passwordHash: 'new', via: 'settings', at: iso(0) } }]));

  it('refuses a wrong current password', () =>
    givenUser(activeUser())
      .when(command('ChangePassword', { currentPasswordValid: false, newPasswordHash: 'new', sameAsCurrent: false }))
      .thenThrows(AccountErrors.wrongPassword));

  it('refuses the current password as the new one', () =>
    givenUser(activeUser())
      .when(command('ChangePassword', { currentPasswordValid: true, newPasswordHash: 'new', sameAsCurrent: true }))
      .thenThrows(AccountErrors.passwordSameAsCurrent));
});

describe('e-mail change', () => {
  const changeRequested = (tokenHash = 'change-1', at = HOUR): UserEvent => ({
    type: 'EmailChangeRequested',
    data: { newEmail: 'lovelace@example.com', tokenHash, expiresAt: iso(at + EMAIL_CHANGE_TTL_MS) },
  });

  it('sends a link to the new address, valid for 24 hours', () =>
    givenUser(activeUser())
      .when(command('RequestEmailChange', { newEmail: 'Lovelace@Example.com', passwordValid: true, tokenHash: 'change-1' }, after(HOUR)))
      .thenState((state, produced) => {
        expect(produced).toEqual([changeRequested()]);
        expect(activeEmail(state)).toBe('ada@example.com');
      }));

  it('refuses the current address, whatever its case', () =>
    givenUser(activeUser())
      .when(command('RequestEmailChange', { newEmail: 'ADA@example.com', passwordValid: true, tokenHash: 'c' }))
      .thenThrows(AccountErrors.emailSameAsCurrent));

  it('refuses a wrong password', () =>
    givenUser(activeUser())
      .when(command('RequestEmailChange', { newEmail: 'new@example.com', passwordValid: false, tokenHash: 'c' }))
      .thenThrows(AccountErrors.wrongPassword));

  it('switches to the new address when the link is confirmed', () =>
    givenUser([...activeUser(), changeRequested()])
      .when(command('ConfirmEmailChange', { tokenHash: 'change-1' }, after(2 * HOUR)))
      .thenState((state, produced) => {
        expect(produced).toEqual([{ type: 'EmailChanged', data: { oldEmail: 'ada@example.com', newEmail: 'lovelace@example.com', at: iso(2 * HOUR) } }]);
        expect(activeEmail(state)).toBe('lovelace@example.com');
        expect(state).toMatchObject({ emailChange: null, emailVerified: true });
      }));

  it('activates an unconfirmed user whose new address is confirmed', () =>
    givenUser([registered(), confirmationRequested(), changeRequested()])
      .when(command('ConfirmEmailChange', { tokenHash: 'change-1' }, after(2 * HOUR)))
      .thenState((state) => expect(state).toMatchObject({ status: 'active', emailVerified: true, emailConfirmation: null })));

  it('rejects unknown, used and expired links', () => {
    givenUser([...activeUser(), changeRequested()])
      .when(command('ConfirmEmailChange', { tokenHash: 'x' }, after(2 * HOUR)))
      .thenThrows(AccountErrors.linkInvalid);
    givenUser([
      ...activeUser(),
      changeRequested(),
      { type: 'EmailChanged', data: { oldEmail: 'ada@example.com', newEmail: 'lovelace@example.com', at: iso(2 * HOUR) } },
    ])
      .when(command('ConfirmEmailChange', { tokenHash: 'change-1' }, after(2 * HOUR)))
      .thenThrows(AccountErrors.linkInvalid);
    givenUser([...activeUser(), changeRequested()])
      .when(command('ConfirmEmailChange', { tokenHash: 'change-1' }, after(HOUR + EMAIL_CHANGE_TTL_MS)))
      .thenThrows(AccountErrors.linkExpired);
  });
});

describe('profile, settings, avatar and terms', () => {
  it('records only the profile fields that change', () =>
    givenUser([...activeUser(), { type: 'ProfileUpdated', data: { changes: { firstName: 'Ada', city: 'London' } } }])
      .when(command('UpdateProfile', { firstName: 'Ada', lastName: 'Lovelace', city: null }))
      .thenState((state, produced) => {
        expect(produced).toEqual([{ type: 'ProfileUpdated', data: { changes: { lastName: 'Lovelace', city: null } } }]);
        expect(state).toMatchObject({ profile: { firstName: 'Ada', lastName: 'Lovelace', city: null, phone: null } });
      }));

  it('records nothing when the profile does not change', () =>
    givenUser(activeUser())
      .when(command('UpdateProfile', { firstName: null }))
      .thenNothingHappened());

  it('records only the account settings that change, naming the username given up', () =>
    givenUser([...activeUser(), { type: 'AccountSettingsChanged', data: { username: 'ada', previousUsername: null } }])
      .when(command('ChangeAccountSettings', { username: 'ada.l', sessionTimeout: 1800, locale: 'nl' }))
      .thenState((state, produced) => {
        expect(produced).toEqual([{ type: 'AccountSettingsChanged', data: { username: 'ada.l', previousUsername: 'ada', locale: 'nl' } }]);
        expect(state).toMatchObject({ username: 'ada.l', sessionTimeout: 1800, locale: 'nl' });
      }));

  it('records nothing when the settings do not change', () =>
    givenUser(activeUser())
      .when(command('ChangeAccountSettings', { locale: 'en_us', sessionTimeout: 1800 }))
      .thenNothingHappened());

  it('sets an avatar of up to 3 MB', () =>
    givenUser(activeUser())
      .when(command('SetAvatar', { avatarId: 'av-1', mime: 'image/png', size: AVATAR_MAX_BYTES }))
      .then([{ type: 'AvatarChanged', data: { avatarId: 'av-1', mime: 'image/png', size: AVATAR_MAX_BYTES } }]));

  it('refuses an avatar over 3 MB', () =>
    givenUser(activeUser())
      .when(command('SetAvatar', { avatarId: 'av-1', mime: 'image/png', size: AVATAR_MAX_BYTES + 1 }))
      .thenThrows(AccountErrors.avatarTooLarge));

  it('refuses an avatar that is not an image or is empty', () => {
    givenUser(activeUser())
      .when(command('SetAvatar', { avatarId: 'a', mime: 'application/pdf', size: 10 }))
      .thenThrows(AccountErrors.avatarInvalid);
    givenUser(activeUser())
      .when(command('SetAvatar', { avatarId: 'a', mime: 'image/png', size: 0 }))
      .thenThrows(AccountErrors.avatarInvalid);
  });

  it('accepts the terms once', () => {
    const history = [registered({ createdByStaffId: 'staff-1', termsAccepted: false, emailVerified: true })];
    givenUser(history)
      .when(command('AcceptTerms', {}))
      .then([{ type: 'TermsAccepted', data: { at: iso(0) } }]);
    givenUser([...history, { type: 'TermsAccepted', data: { at: iso(0) } }])
      .when(command('AcceptTerms', {}))
      .thenNothingHappened();
  });
});

describe('two-factor authentication', () => {
  const enrolled: UserEvent = { type: 'TotpEnrolmentStarted', data: { secretCiphertext: 'enc-secret', at: iso(0) } };
  const codeIssued = (purpose: 'enable' | 'disable' | 'sign_in', at = 0): UserEvent => ({
    type: 'TwoFactorCodeIssued',
    data: { purpose, codeHash: `code-${purpose}`, expiresAt: iso(at + VERIFICATION_CODE_TTL_MS) },
  });

  it('starts a TOTP enrolment', () =>
    givenUser(activeUser())
      .when(command('StartTotpEnrolment', { secretCiphertext: 'enc-secret' }))
      .then([enrolled]));

  it('issues an e-mail code valid for 10 minutes', () =>
    givenUser(activeUser())
      .when(command('IssueEmailCode', { codeHash: 'code-enable', purpose: 'enable' }))
      .then([codeIssued('enable')]));

  it('refuses to enable TOTP before enrolment', () =>
    givenUser(activeUser())
      .when(command('EnableTwoFactor', { method: 'totp', codeValid: true }))
      .thenThrows(AccountErrors.twoFactorNotStarted));

  it('enables TOTP with a right code and keeps the secret', () =>
    givenUser([...activeUser(), enrolled])
      .when(command('EnableTwoFactor', { method: 'totp', codeValid: true }))
      .thenState((state, produced) => {
        expect(produced).toEqual([{ type: 'TwoFactorEnabled', data: { method: 'totp', at: iso(0) } }]);
        expect(state).toMatchObject({
          twoFactor: { enabled: true, method: 'totp', totpSecretCiphertext: 'enc-secret', pendingTotpSecretCiphertext: null },
        });
      }));

  it('refuses a wrong or expired TOTP code', () => {
    givenUser([...activeUser(), enrolled])
      .when(command('EnableTwoFactor', { method: 'totp', codeValid: false }))
      .thenThrows(AccountErrors.twoFactorIncorrect);
    givenUser([...activeUser(), enrolled])
      .when(command('EnableTwoFactor', { method: 'totp', codeValid: true, codeExpired: true }))
      .thenThrows(AccountErrors.twoFactorIncorrect);
  });

  it('enables the e-mail method with the mailed code within 10 minutes', () =>
    givenUser([...activeUser(), codeIssued('enable')])
      .when(command('EnableTwoFactor', { method: 'email', codeValid: true }, after(9 * MINUTE)))
      .thenState((state) => {
        expect(state).toMatchObject({ twoFactor: { enabled: true, method: 'email' } });
        expect(pendingEmailCode(state, 'enable')).toBeNull();
      }));

  it('refuses the mailed code after 10 minutes, or when none was mailed', () => {
    givenUser([...activeUser(), codeIssued('enable')])
      .when(command('EnableTwoFactor', { method: 'email', codeValid: true }, after(VERIFICATION_CODE_TTL_MS)))
      .thenThrows(AccountErrors.twoFactorIncorrect);
    givenUser(activeUser())
      .when(command('EnableTwoFactor', { method: 'email', codeValid: true }))
      .thenThrows(AccountErrors.twoFactorIncorrect);
    givenUser([...activeUser(), codeIssued('disable')])
      .when(command('EnableTwoFactor', { method: 'email', codeValid: true }))
      .thenThrows(AccountErrors.twoFactorIncorrect);
  });

  it('disables two-factor with a right code', () =>
    givenUser([...activeUser(), ...totpEnabled()])
      .when(command('DisableTwoFactor', { codeValid: true }))
      .thenState((state, produced) => {
        expect(produced).toEqual([{ type: 'TwoFactorDisabled', data: { via: 'settings', at: iso(0) } }]);
        expect(state).toMatchObject({ twoFactor: { enabled: false, method: null, totpSecretCiphertext: null } });
      }));

  it('refuses to disable with a wrong code or a stale mailed code', () => {
    givenUser([...activeUser(), ...totpEnabled()])
      .when(command('DisableTwoFactor', { codeValid: false }))
      .thenThrows(AccountErrors.twoFactorIncorrect);
    givenUser([...activeUser(), ...emailTwoFactorEnabled(), codeIssued('disable', HOUR)])
      .when(command('DisableTwoFactor', { codeValid: true }, after(HOUR + VERIFICATION_CODE_TTL_MS)))
      .thenThrows(AccountErrors.twoFactorIncorrect);
    givenUser([...activeUser(), ...emailTwoFactorEnabled(), codeIssued('disable', HOUR)])
      .when(command('DisableTwoFactor', { codeValid: true }, after(HOUR + MINUTE)))
      .thenState((_s, produced) => expect(produced.map((e) => e.type)).toEqual(['TwoFactorDisabled']));
  });

  it('does nothing when disabling two-factor that is off', () =>
    givenUser(activeUser())
      .when(command('DisableTwoFactor', { codeValid: false }))
      .thenNothingHappened());

  const resetRequested: UserEvent = {
    type: 'TwoFactorResetRequested',
    data: { tokenHash: 'reset2fa-1', expiresAt: iso(HOUR + TWO_FACTOR_RESET_TTL_MS) },
  };

  it('issues a two-factor reset link valid for one hour, with the right password', () =>
    givenUser([...activeUser(), ...totpEnabled()])
      .when(command('RequestTwoFactorReset', { tokenHash: 'reset2fa-1', passwordValid: true }, after(HOUR)))
      .then([resetRequested]));

  it('refuses a two-factor reset with a wrong password', () =>
    givenUser([...activeUser(), ...totpEnabled()])
      .when(command('RequestTwoFactorReset', { tokenHash: 't', passwordValid: false }))
      .thenThrows(AccountErrors.wrongPassword));

  it('does nothing when two-factor is off', () =>
    givenUser(activeUser())
      .when(command('RequestTwoFactorReset', { tokenHash: 't', passwordValid: true }))
      .thenNothingHappened());

  it('turns two-factor off through the reset link, once', () => {
    const history = [...activeUser(), ...totpEnabled(), resetRequested];
    givenUser(history)
      .when(command('ResetTwoFactor', { tokenHash: 'reset2fa-1' }, after(HOUR + MINUTE)))
      .then([{ type: 'TwoFactorDisabled', data: { via: 'reset', at: iso(HOUR + MINUTE) } }]);
    givenUser([...history, { type: 'TwoFactorDisabled', data: { via: 'reset', at: iso(HOUR + MINUTE) } }])
      .when(command('ResetTwoFactor', { tokenHash: 'reset2fa-1' }, after(HOUR + 2 * MINUTE)))
      .thenThrows(AccountErrors.linkInvalid);
  });

  it('rejects an unknown or expired two-factor reset link', () => {
    const history = [...activeUser(), ...totpEnabled(), resetRequested];
    givenUser(history)
      .when(command('ResetTwoFactor', { tokenHash: 'x' }, after(HOUR)))
      .thenThrows(AccountErrors.linkInvalid);
    givenUser(history)
      .when(command('ResetTwoFactor', { tokenHash: 'reset2fa-1' }, after(HOUR + TWO_FACTOR_RESET_TTL_MS)))
      .thenThrows(AccountErrors.linkExpired);
  });
});

describe('staff actions', () => {
  const suspended: UserEvent = { type: 'UserSuspended', data: { reason: 'abuse', at: iso(HOUR) } };

  it('suspends and restores the previous status', () => {
    givenUser(activeUser())
      .when(command('SuspendUser', { reason: 'abuse' }, after(HOUR)))
      .thenState((state, produced) => {
        expect(produced).toEqual([suspended]);
        expect(state.status).toBe('suspended');
      });
    givenUser([...activeUser(), suspended])
      .when(command('UnsuspendUser', {}, after(2 * HOUR)))
      .thenState((state, produced) => {
        expect(produced).toEqual([{ type: 'UserUnsuspended', data: { at: iso(2 * HOUR) } }]);
        expect(state.status).toBe('active');
        expect(state).not.toHaveProperty('statusBeforeSuspension');
      });
    givenUser([registered(), suspended, { type: 'UserUnsuspended', data: { at: iso(2 * HOUR) } }])
      .when(command('AcceptTerms', {}))
      .thenState((state) => expect(state.status).toBe('inactive'));
  });

  it('restores an account confirmed while suspended to active', () =>
    givenUser([registered(), confirmationRequested(), suspended, confirmed(2 * HOUR)])
      .when(command('UnsuspendUser', {}, after(3 * HOUR)))
      .thenState((state) => expect(state.status).toBe('active')));

  it('ignores a repeated suspension or an unsuspension of an active user', () => {
    givenUser([...activeUser(), suspended])
      .when(command('SuspendUser', {}))
      .thenNothingHappened();
    givenUser(activeUser()).when(command('UnsuspendUser', {})).thenNothingHappened();
  });

  it('blocks until a time or indefinitely, and unblocks', () => {
    givenUser(activeUser())
      .when(command('BlockUser', { until: after(5 * HOUR) }, after(HOUR)))
      .thenState((state, produced) => {
        expect(produced).toEqual([{ type: 'UserBlocked', data: { until: iso(5 * HOUR), at: iso(HOUR) } }]);
        expect(isBlocked(state, after(4 * HOUR))).toBe(true);
        expect(isBlocked(state, after(5 * HOUR))).toBe(false);
      });
    givenUser(activeUser())
      .when(command('BlockUser', { until: null }, after(HOUR)))
      .then([{ type: 'UserBlocked', data: { until: null, at: iso(HOUR) } }]);
    givenUser([...activeUser(), { type: 'UserBlocked', data: { until: null, at: iso(HOUR) } }])
      .when(command('BlockUser', { until: null }))
      .thenNothingHappened();
    givenUser([...activeUser(), { type: 'UserBlocked', data: { until: null, at: iso(HOUR) } }])
      .when(command('UnblockUser', {}, after(2 * HOUR)))
      .thenState((state, produced) => {
        expect(produced).toEqual([{ type: 'UserUnblocked', data: { at: iso(2 * HOUR) } }]);
        expect(isBlocked(state, after(2 * HOUR))).toBe(false);
      });
    givenUser(activeUser()).when(command('UnblockUser', {})).thenNothingHappened();
  });

  it('activates and cancels database access once each, and the state follows', () => {
    givenUser(activeUser())
      .when(command('ActivateDbsAccess', {}, after(HOUR)))
      .thenState((state, produced) => {
        expect(produced).toEqual([{ type: 'DbsAccessActivated', data: { at: iso(HOUR) } }]);
        expect(state).toMatchObject({ dbsAccess: true });
      });
    const activated: UserEvent = { type: 'DbsAccessActivated', data: { at: iso(HOUR) } };
    givenUser([...activeUser(), activated])
      .when(command('ActivateDbsAccess', {}))
      .thenNothingHappened();
    givenUser([...activeUser(), activated])
      .when(command('CancelDbsAccess', {}, after(2 * HOUR)))
      .thenState((state, produced) => {
        expect(produced).toEqual([{ type: 'DbsAccessCancelled', data: { at: iso(2 * HOUR) } }]);
        expect(state).toMatchObject({ dbsAccess: false });
      });
    givenUser(activeUser()).when(command('CancelDbsAccess', {})).thenNothingHappened();
  });

  it('changes the role, and ignores the same role', () => {
    givenUser(activeUser())
      .when(command('ChangeRole', { role: 'financial_admin' }))
      .then([{ type: 'RoleChanged', data: { from: 'user', to: 'financial_admin', at: iso(0) } }]);
    givenUser(activeUser())
      .when(command('ChangeRole', { role: 'user' }))
      .thenNothingHappened();
  });
});

describe('DeleteAccount and PurgeAccount', () => {
  it('deletes the account when the user types YES and gives the password', () =>
    givenUser(activeUser())
      .when(command('DeleteAccount', { by: 'user', confirmation: 'YES', passwordValid: true }, after(2 * HOUR)))
      .thenState((state, produced) => {
        expect(produced).toEqual([deleted()]);
        expect(state.status).toBe('deleted');
        expect(activeEmail(state)).toBeNull();
      }));

  it('needs exactly YES', () => {
    for (const confirmation of ['yes', 'YES ', '', 'Y']) {
      givenUser(activeUser())
        .when(command('DeleteAccount', { by: 'user', confirmation, passwordValid: true }))
        .thenThrows(AccountErrors.confirmationRequired);
    }
  });

  it('needs the right password from the user', () =>
    givenUser(activeUser())
      .when(command('DeleteAccount', { by: 'user', confirmation: 'YES', passwordValid: false }))
      .thenThrows(AccountErrors.wrongPassword));

  it('lets staff delete without confirmation or password', () =>
    givenUser(activeUser())
      .when(command('DeleteAccount', { by: 'staff', staffId: 'staff-1' }, after(2 * HOUR)))
      .then([{ type: 'AccountDeleted', data: { by: 'staff', deleterId: 'staff-1', email: 'ada@example.com', at: iso(2 * HOUR) } }]));

  const everyCommandButPurge: UserCommand[] = [
    command('RegisterUser', {
      userId: USER_ID,
      email: 'a@b.co',
      passwordHash: 'h',
      locale: 'en_us',
      termsAccepted: true,
      registrationApp: null,
      userAgent: null,
      ip: null,
      confirmTokenHash: 'c',
    }),
    command('ResendConfirmation', { tokenHash: 't' }),
    command('ConfirmEmail', { tokenHash: 't' }),
    command('ResetPassword', { tokenHash: 't', passwordHash: 'h' }),
    command('ChangePassword', { currentPasswordValid: true, newPasswordHash: 'h', sameAsCurrent: false }),
    command('RequestEmailChange', { newEmail: 'n@b.co', passwordValid: true, tokenHash: 't' }),
    command('ConfirmEmailChange', { tokenHash: 't' }),
    command('UpdateProfile', { firstName: 'A' }),
    command('ChangeAccountSettings', { locale: 'nl' }),
    command('SetAvatar', { avatarId: 'a', mime: 'image/png', size: 1 }),
    command('AcceptTerms', {}),
    command('StartTotpEnrolment', { secretCiphertext: 's' }),
    command('IssueEmailCode', { codeHash: 'c', purpose: 'enable' }),
    command('EnableTwoFactor', { method: 'email', codeValid: true }),
    command('DisableTwoFactor', { codeValid: true }),
    command('RequestTwoFactorReset', { tokenHash: 't', passwordValid: true }),
    command('ResetTwoFactor', { tokenHash: 't' }),
    command('SuspendUser', {}),
    command('UnsuspendUser', {}),
    command('BlockUser', { until: null }),
    command('UnblockUser', {}),
    command('ChangeRole', { role: 'admin' }),
    command('DeleteAccount', { by: 'staff', staffId: 's' }),
  ];

  it('refuses every later command with USER_DELETED, sign-in and reset request aside', () => {
    for (const history of [
      [...activeUser(), deleted()],
      [...activeUser(), deleted(), { type: 'AccountPurged', data: { at: iso(3 * HOUR) } } as UserEvent],
    ]) {
      for (const c of everyCommandButPurge) givenUser(history).when(c).thenThrows(AccountErrors.alreadyDeleted);
      givenUser(history).when(command('SignIn', signInData())).thenThrows(AccountErrors.wrongCredentials);
      givenUser(history)
        .when(command('RequestPasswordReset', { tokenHash: 't' }))
        .thenNothingHappened();
    }
  });

  it('refuses every command but registration for an unknown user', () => {
    for (const c of everyCommandButPurge.slice(1)) givenUser([]).when(c).thenThrows(AccountErrors.userNotFound);
    givenUser([]).when(command('PurgeAccount', {})).thenThrows(AccountErrors.userNotFound);
  });

  it('purges a deleted account, leaving no personal data', () =>
    givenUser([...activeUser(), { type: 'ProfileUpdated', data: { changes: { firstName: 'Ada' } } }, deleted()])
      .when(command('PurgeAccount', {}, after(1000 * HOUR)))
      .thenState((state, produced) => {
        expect(produced).toEqual([{ type: 'AccountPurged', data: { at: iso(1000 * HOUR) } }]);
        expect(state).toEqual({ status: 'purged', id: USER_ID, deletedAt: after(2 * HOUR).getTime(), purgedAt: after(1000 * HOUR).getTime() });
      }));

  it('purges only deleted accounts, and only once', () => {
    givenUser(activeUser()).when(command('PurgeAccount', {})).thenThrows(CommonErrors.conflict);
    givenUser([...activeUser(), deleted(), { type: 'AccountPurged', data: { at: iso(3 * HOUR) } }])
      .when(command('PurgeAccount', {}))
      .thenNothingHappened();
  });
});

describe('evolve', () => {
  it('ignores events it does not know', () => {
    const state = stateOf(activeUser());
    expect(userDecider.evolve(state, { type: 'SomethingElse', data: {} } as unknown as UserEvent)).toBe(state);
  });

  it('ignores account events before registration', () => {
    expect(stateOf([confirmed(), { type: 'ProfileUpdated', data: { changes: { firstName: 'x' } } }])).toEqual({ status: 'unregistered' });
  });
});

describe('reservations', () => {
  const givenEmail = DeciderSpecification.for(emailReservationDecider, storable);
  const givenUsername = DeciderSpecification.for(usernameReservationDecider, storable);
  const emailCommand = (type: EmailReservationCommand['type'], userId: string): EmailReservationCommand => ({ type, data: { userId }, metadata: { now: T0 } });
  const usernameCommand = (type: UsernameReservationCommand['type'], userId: string): UsernameReservationCommand => ({
    type,
    data: { userId },
    metadata: { now: T0 },
  });

  it('reserves a free address for a user, idempotently', () => {
    givenEmail([])
      .when(emailCommand('ReserveEmail', 'u-1'))
      .then([{ type: 'EmailReserved', data: { userId: 'u-1', at: T0.toISOString() } }]);
    givenEmail([{ type: 'EmailReserved', data: { userId: 'u-1' } }])
      .when(emailCommand('ReserveEmail', 'u-1'))
      .thenNothingHappened();
  });

  it('refuses an address held by another user', () =>
    givenEmail([{ type: 'EmailReserved', data: { userId: 'u-1' } }])
      .when(emailCommand('ReserveEmail', 'u-2'))
      .thenThrows(AccountErrors.emailExists));

  it('releases only for the holder, after which another user may reserve', () => {
    const held = [{ type: 'EmailReserved', data: { userId: 'u-1' } } as const];
    givenEmail(held).when(emailCommand('ReleaseEmail', 'u-2')).thenNothingHappened();
    givenEmail(held)
      .when(emailCommand('ReleaseEmail', 'u-1'))
      .then([{ type: 'EmailReleased', data: { userId: 'u-1' } }]);
    givenEmail([...held, { type: 'EmailReleased', data: { userId: 'u-1' } }])
      .when(emailCommand('ReserveEmail', 'u-2'))
      .then([{ type: 'EmailReserved', data: { userId: 'u-2', at: T0.toISOString() } }]);
  });

  describe('an abandoned reservation (its holder never became an account)', () => {
    const reservedAt = (msBeforeT0: number) => new Date(T0.getTime() - msBeforeT0).toISOString();
    const takeOver = (abandonedHolderId?: string): EmailReservationCommand => ({
      type: 'ReserveEmail',
      data: { userId: 'u-2', ...(abandonedHolderId ? { abandonedHolderId } : {}) },
      metadata: { now: T0 },
    });
    const heldSince = (msBeforeT0: number) => [{ type: 'EmailReserved', data: { userId: 'u-1', at: reservedAt(msBeforeT0) } } as const];

    it('is taken over by the next sign-up once the window has passed', () =>
      givenEmail(heldSince(ABANDONED_RESERVATION_AFTER_MS))
        .when(takeOver('u-1'))
        .then([
          { type: 'EmailReleased', data: { userId: 'u-1' } },
          { type: 'EmailReserved', data: { userId: 'u-2', at: T0.toISOString() } },
        ]));

    it('stays with its holder inside the window, where the sign-up may still be in flight', () =>
      givenEmail(heldSince(ABANDONED_RESERVATION_AFTER_MS - 1))
        .when(takeOver('u-1'))
        .thenThrows(AccountErrors.emailExists));

    it('stays with its holder unless the command says that holder has no account', () => {
      givenEmail(heldSince(ABANDONED_RESERVATION_AFTER_MS * 10))
        .when(takeOver())
        .thenThrows(AccountErrors.emailExists);
      givenEmail(heldSince(ABANDONED_RESERVATION_AFTER_MS * 10))
        .when(takeOver('u-3'))
        .thenThrows(AccountErrors.emailExists);
    });

    it('cannot be taken over twice: the second of two racing sign-ups finds a fresh reservation', () =>
      givenEmail([
        ...heldSince(ABANDONED_RESERVATION_AFTER_MS * 10),
        { type: 'EmailReleased', data: { userId: 'u-1' } },
        { type: 'EmailReserved', data: { userId: 'u-2', at: T0.toISOString() } },
      ])
        .when({ type: 'ReserveEmail', data: { userId: 'u-3', abandonedHolderId: 'u-1' }, metadata: { now: T0 } })
        .thenThrows(AccountErrors.emailExists));

    it('counts a reservation recorded without its time as old', () =>
      givenEmail([{ type: 'EmailReserved', data: { userId: 'u-1' } }])
        .when(takeOver('u-1'))
        .then([
          { type: 'EmailReleased', data: { userId: 'u-1' } },
          { type: 'EmailReserved', data: { userId: 'u-2', at: T0.toISOString() } },
        ]));
  });

  it('reserves usernames the same way, answering USERNAME_TAKEN', () => {
    givenUsername([])
      .when(usernameCommand('ReserveUsername', 'u-1'))
      .then([{ type: 'UsernameReserved', data: { userId: 'u-1' } }]);
    givenUsername([{ type: 'UsernameReserved', data: { userId: 'u-1' } }])
      .when(usernameCommand('ReserveUsername', 'u-1'))
      .thenNothingHappened();
    givenUsername([{ type: 'UsernameReserved', data: { userId: 'u-1' } }])
      .when(usernameCommand('ReserveUsername', 'u-2'))
      .thenThrows(AccountErrors.usernameTaken);
    givenUsername([{ type: 'UsernameReserved', data: { userId: 'u-1' } }])
      .when(usernameCommand('ReleaseUsername', 'u-1'))
      .then([{ type: 'UsernameReleased', data: { userId: 'u-1' } }]);
  });
});

describe('event definitions', () => {
  it('registers every accounts event once', () => {
    expect(() => new EventRegistry().register(...accountEventDefinitions)).not.toThrow();
    expect(registry.types()).toHaveLength(accountEventDefinitions.length);
  });
});

describe('sign-in guards: trusted devices, the code step, resets', () => {
  const lockedFromStrangers = (at = HOUR): UserEvent[] => [
    ...[1, 2, 3, 4, 5].map((n) => signInFailed(at, n)),
    { type: 'UserLocked', data: { until: iso(at + SIGN_IN_LOCK_MS), failedAttempts: 5, at: iso(at), scope: 'password' } },
  ];
  const fromDevice = (deviceId: string, overrides: Partial<CommandData<'SignIn'>> = {}) => signInData({ deviceId, ...overrides });

  it('lets a trusted device with the right password in while strangers have locked the account', () =>
    givenUser([...activeUser(), ...lockedFromStrangers()])
      .when(command('SignIn', fromDevice('laptop'), after(HOUR + MINUTE)))
      .then([
        { type: 'SignInSucceeded', data: { sessionId: 'session-1', ip: '198.51.100.4', userAgent: 'Firefox', at: iso(HOUR + MINUTE), deviceId: 'laptop' } },
      ]));

  it('still refuses an untrusted browser with the right password while locked', () =>
    givenUser([...activeUser(), ...lockedFromStrangers()])
      .when(command('SignIn', signInData(), after(HOUR + MINUTE)))
      .thenThrows(AccountErrors.userLocked, { lockedUntil: iso(HOUR + SIGN_IN_LOCK_MS) }));

  it('counts the failures of a trusted device against that device only', () =>
    givenUser([
      ...activeUser(),
      ...[1, 2, 3, 4].map((n) => ({ ...signInFailed(HOUR, n), data: { ...signInFailed(HOUR, n).data, deviceId: 'laptop' } }) as UserEvent),
    ])
      .when(command('SignIn', fromDevice('laptop', { passwordValid: false }), after(HOUR + MINUTE)))
      .thenState((state, produced) => {
        expect(produced.map((e) => e.type)).toEqual(['SignInFailed', 'UserLocked']);
        expect(produced[1]).toMatchObject({ data: { deviceId: 'laptop', scope: 'password' } });
        expect(isLocked(state, after(HOUR + 2 * MINUTE), 'laptop')).toBe(true);
        expect(isLocked(state, after(HOUR + 2 * MINUTE))).toBe(false);
        expect(isLocked(state, after(HOUR + 2 * MINUTE), 'phone')).toBe(false);
      }));

  it('counts wrong codes apart from wrong passwords: four of each lock nothing', () =>
    givenUser([...activeUser(), ...totpEnabled(), ...[1, 2, 3, 4].map((n) => signInFailed(HOUR, n, 'two_factor'))])
      .when(command('SignIn', signInData({ passwordValid: false }), after(HOUR + MINUTE)))
      .thenState((_s, produced) =>
        expect(produced).toEqual([expect.objectContaining({ type: 'SignInFailed', data: expect.objectContaining({ reason: 'password', failedAttempts: 1 }) })]),
      ));

  it('locks the code step on the fifth wrong code, and tells only someone with the password', () => {
    const history = [
      ...activeUser(),
      ...totpEnabled(),
      ...[1, 2, 3, 4, 5].map((n) => signInFailed(HOUR, n, 'two_factor')),
      { type: 'UserLocked', data: { until: iso(HOUR + SIGN_IN_LOCK_MS), failedAttempts: 5, at: iso(HOUR), scope: 'two_factor' } } as UserEvent,
    ];
    givenUser(history)
      .when(command('SignIn', signInData(), after(HOUR + MINUTE)))
      .thenThrows(AccountErrors.userLocked, { lockedUntil: iso(HOUR + SIGN_IN_LOCK_MS) });
    givenUser(history)
      .when(command('SignIn', signInData({ passwordValid: false }), after(HOUR + MINUTE)))
      .thenState((_s, produced) => expect(signInOutcome(produced)).toMatchObject({ kind: 'rejected', error: { code: AccountErrors.wrongCredentials.code } }));
  });

  it('refuses an authenticator code of a step already used, and records the step of an accepted one', () => {
    const enabledAtStep = (step: number): UserEvent[] => [
      ...activeUser(),
      { type: 'TotpEnrolmentStarted', data: { secretCiphertext: 'enc-secret', at: iso(0) } },
      { type: 'TwoFactorEnabled', data: { method: 'totp', at: iso(0), totpStep: step } },
    ];
    givenUser(enabledAtStep(100))
      .when(command('SignIn', signInData({ twoFactorCodeValid: true, totpStep: 100 }), after(HOUR)))
      .thenState((_s, produced) => expect(produced[0]).toMatchObject({ type: 'SignInFailed', data: { reason: 'two_factor' } }));
    givenUser(enabledAtStep(100))
      .when(command('SignIn', signInData({ twoFactorCodeValid: true, totpStep: 101 }), after(HOUR)))
      .thenState((state, produced) => {
        expect(produced[0]).toMatchObject({ type: 'SignInSucceeded', data: { totpStep: 101 } });
        expect(state.status !== 'unregistered' && state.status !== 'purged' && state.twoFactor.lastTotpStep).toBe(101);
      });
    givenUser(enabledAtStep(100))
      .when(command('DisableTwoFactor', { codeValid: true, totpStep: 100 }))
      .thenThrows(AccountErrors.twoFactorIncorrect);
    givenUser(enabledAtStep(100))
      .when(command('DisableTwoFactor', { codeValid: true, totpStep: 101 }))
      .then([{ type: 'TwoFactorDisabled', data: { via: 'settings', at: iso(0) } }]);
  });

  it('remembers the step of the code that turned the authenticator on', () =>
    givenUser([...activeUser(), { type: 'TotpEnrolmentStarted', data: { secretCiphertext: 'enc-secret', at: iso(0) } }])
      .when(command('EnableTwoFactor', { method: 'totp', codeValid: true, totpStep: 42 }))
      .then([{ type: 'TwoFactorEnabled', data: { method: 'totp', at: iso(0), totpStep: 42 } }]));

  it('lifts the password lock with a completed reset, but not the code lock', () => {
    const resetRequested: UserEvent = { type: 'PasswordResetRequested', data: { tokenHash: 'reset-1', expiresAt: iso(HOUR + PASSWORD_RESET_TTL_MS) } };
    const codeLocked: UserEvent = {
      type: 'UserLocked',
      data: { until: iso(HOUR + SIGN_IN_LOCK_MS), failedAttempts: 5, at: iso(HOUR), scope: 'two_factor' },
    };
    givenUser([...activeUser(), ...lockedFromStrangers(), codeLocked, resetRequested])
      .when(command('ResetPassword', { tokenHash: 'reset-1', passwordHash: 'new-hash' }, after(HOUR + MINUTE)))
      .thenState((state, produced) => {
        expect(produced).toEqual([
          { type: 'PasswordChanged', data: { passwordHash: 'new-hash', via: 'reset', at: iso(HOUR + MINUTE) } },
          { type: 'UserUnlocked', data: { via: 'password_reset', at: iso(HOUR + MINUTE) } },
        ]);
        expect(isLocked(state, after(HOUR + MINUTE))).toBe(false);
        expect(signInLockedUntil(state, after(HOUR + MINUTE), 'two_factor')).toBe(after(HOUR + SIGN_IN_LOCK_MS).getTime());
      });
    givenUser([...activeUser(), resetRequested])
      .when(command('ResetPassword', { tokenHash: 'reset-1', passwordHash: 'new-hash' }, after(HOUR + MINUTE)))
      .then([{ type: 'PasswordChanged', data: { passwordHash: 'new-hash', via: 'reset', at: iso(HOUR + MINUTE) } }]);
  });
});

describe('sign-in through an OpenID Connect provider', () => {
  const providerData = (overrides: Partial<CommandData<'SignInWithProvider'>> = {}): CommandData<'SignInWithProvider'> => ({
    provider: 'google',
    sessionId: 'session-1',
    ip: '198.51.100.4',
    userAgent: 'Firefox',
    ...overrides,
  });

  it('given an account the provider created, when it signs in through the provider, then a session opens', () =>
    givenUser([registered({ passwordHash: null, authMethods: ['google'] }), confirmationRequested(), confirmed()])
      .when(command('SignInWithProvider', providerData(), after(HOUR)))
      .thenState((_state, produced) => expect(produced).toEqual([signedIn(HOUR)])));

  it('given a password account with TOTP, when it signs in through a provider, then the second factor is still asked', () =>
    givenUser([...activeUser(), ...totpEnabled()])
      .when(command('SignInWithProvider', providerData(), after(HOUR)))
      .thenState((_state, produced) => expect(produced.map((e) => e.type)).toEqual(['TwoFactorChallengeIssued'])));

  it('given a wrong second factor, when it signs in through a provider, then the failure counts toward the lockout', () =>
    givenUser([...activeUser(), ...totpEnabled()])
      .when(command('SignInWithProvider', providerData({ twoFactorCodeValid: false }), after(HOUR)))
      .thenState((_state, produced) => expect(produced).toMatchObject([{ type: 'SignInFailed', data: { reason: 'two_factor', failedAttempts: 1 } }])));

  it('given no account or an unconfirmed one, when signing in through a provider, then it is refused as the password sign-in would', () => {
    givenUser([]).when(command('SignInWithProvider', providerData())).thenThrows(AccountErrors.wrongCredentials);
    givenUser([registered(), confirmationRequested()]).when(command('SignInWithProvider', providerData())).thenThrows(AccountErrors.emailNotVerified);
  });
});
