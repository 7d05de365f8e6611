import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { EmailReservationCommand, UserCommand } from './accounts.commands';
import { emailReservationDecider, signInOutcome, userDecider } from './accounts.decide';
import { AccountErrors } from './accounts.errors';
import type { EmailReservationEvent, UserEvent } from './accounts.events';
import { activeEmail, isExistingUser, isLocked, type ReservationState, type UserState } from './accounts.state';
import { countFailure, lockedUntilAt, type SignInGuard } from './sign-in-guard';
import {
  EMAIL_CHANGE_TTL_MS,
  EMAIL_CONFIRMATION_TTL_MS,
  FAILED_SIGN_IN_WINDOW_MS,
  MAX_FAILED_SIGN_INS,
  PASSWORD_RESET_TTL_MS,
  SIGN_IN_LOCK_MS,
  TWO_FACTOR_RESET_TTL_MS,
  VERIFICATION_CODE_TTL_MS,
} from './accounts.validation';

const T0 = new Date('2026-03-02T09:00:00.000Z').getTime();
const MINUTE = 60_000;

type CommandType = UserCommand['type'];
type CommandData<T extends CommandType> = Extract<UserCommand, { type: T }>['data'];
const command = <T extends CommandType>(type: T, data: CommandData<T>, now: number): UserCommand =>
  ({ type, data, metadata: { now: new Date(now) } }) as UserCommand;

/** An event history the tests grow by running commands, as the command handler would. */
class History {
  readonly events: UserEvent[] = [];
  get state(): UserState {
    return fold(userDecider, this.events);
  }
  /** Runs a command; answers its events, or the DomainError it was refused with. */
  run(cmd: UserCommand): UserEvent[] | DomainError {
    try {
      const produced = userDecider.decide(cmd, this.state);
      this.events.push(...produced);
      return produced;
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  }
  must(cmd: UserCommand): UserEvent[] {
    const result = this.run(cmd);
    if (result instanceof DomainError) throw new Error(`${cmd.type} was refused: ${String(result.code)}`);
    return result;
  }
}

const ORIGINAL_EMAIL = 'ada@example.com';

const registeredUser = (at: number, confirm = true): History => {
  const history = new History();
  history.must(
    command(
      'RegisterUser',
      {
        userId: 'u-prop',
        email: ORIGINAL_EMAIL,
        passwordHash: 'hash',
        locale: 'en_us',
        termsAccepted: true,
        registrationApp: 'web',
        userAgent: null,
        ip: null,
        confirmTokenHash: 'confirm',
      },
      at,
    ),
  );
  if (confirm) history.must(command('ConfirmEmail', { tokenHash: 'confirm' }, at));
  return history;
};

const signInData = (passwordValid: boolean, twoFactorCodeValid?: boolean): CommandData<'SignIn'> => ({
  passwordValid,
  ...(twoFactorCodeValid === undefined ? {} : { twoFactorCodeValid }),
  emailCodeHash: 'mailed-code',
  sessionId: 's',
  ip: null,
  userAgent: null,
});

describe('lockout', () => {
  // Weighted toward wrong passwords and short pauses, so that locks actually happen.
  const mostlyFalse = fc.oneof({ arbitrary: fc.constant(false), weight: 3 }, { arbitrary: fc.constant(true), weight: 1 });
  const advance = fc.record({
    kind: fc.constant('advance' as const),
    ms: fc.oneof(fc.integer({ min: 0, max: 3 * MINUTE }), fc.integer({ min: 0, max: 20 * MINUTE })),
  });
  const attempt = fc.record({
    kind: fc.constant('signIn' as const),
    passwordValid: mostlyFalse,
    code: fc.option(fc.boolean(), { nil: undefined }),
    /** null: a browser without a device cookie of the account. */
    device: fc.constantFrom(null, null, 'device-a', 'device-b'),
  });
  const step = fc.oneof({ arbitrary: advance, weight: 1 }, { arbitrary: attempt, weight: 3 });

  const withTwoFactor = (history: History) => {
    history.must(command('StartTotpEnrolment', { secretCiphertext: 'secret' }, T0));
    history.must(command('EnableTwoFactor', { method: 'totp', codeValid: true }, T0));
  };

  it('locks each guard (scope and browser) at its fifth failure in a row within the window, and never lets a locked one in', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(step, { maxLength: 80 }), (withTotp, steps) => {
        const history = registeredUser(T0);
        if (withTotp) withTwoFactor(history);
        let now = T0;
        // An independent model of the rule: one counter and one lock per scope and browser.
        const model = new Map<string, { failures: number[]; lockedUntil: number }>();
        const guard = (scope: string, device: string | null) => {
          const key = `${scope}/${device}`;
          if (!model.has(key)) model.set(key, { failures: [], lockedUntil: -Infinity });
          return model.get(key)!;
        };
        const fail = (scope: string, device: string | null) => {
          const g = guard(scope, device);
          g.failures = [...g.failures.filter((t) => t > now - FAILED_SIGN_IN_WINDOW_MS), now];
          if (g.failures.length < MAX_FAILED_SIGN_INS) return false;
          g.lockedUntil = now + SIGN_IN_LOCK_MS;
          g.failures = [];
          return true;
        };
        for (const s of steps) {
          if (s.kind === 'advance') {
            now += s.ms;
            continue;
          }
          expect(isLocked(history.state, new Date(now), s.device)).toBe(now < guard('password', s.device).lockedUntil);
          const result = history.run(command('SignIn', { ...signInData(s.passwordValid, s.code), deviceId: s.device }, now));
          const passwordLocked = now < guard('password', s.device).lockedUntil;
          const codeLocked = withTotp && s.passwordValid && now < guard('two_factor', s.device).lockedUntil;
          if (passwordLocked || codeLocked) {
            expect(result).toBeInstanceOf(DomainError);
            expect((result as DomainError).code).toBe(AccountErrors.userLocked.code);
            continue;
          }
          expect(result).not.toBeInstanceOf(DomainError);
          const outcome = signInOutcome(result as UserEvent[]);
          const failedScope = !s.passwordValid ? 'password' : withTotp && s.code === false ? 'two_factor' : null;
          const challenged = failedScope === null && withTotp && s.code === undefined;
          if (failedScope) {
            const locks = fail(failedScope, s.device);
            const expected = locks
              ? AccountErrors.userLocked.code
              : failedScope === 'password'
                ? AccountErrors.wrongCredentials.code
                : AccountErrors.twoFactorIncorrect.code;
            expect(outcome.kind === 'rejected' && outcome.error.code).toBe(expected);
          } else if (challenged) {
            expect(outcome.kind).toBe('two_factor_required');
          } else {
            guard('password', s.device).failures = [];
            guard('two_factor', s.device).failures = [];
            expect(outcome.kind).toBe('signed_in');
          }
        }
      }),
    );
  });

  const untrustedAttempt = attempt.map((a) => ({ ...a, device: null }));

  it('never refuses a trusted device with the right password because of failures elsewhere', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(fc.oneof(advance, untrustedAttempt), { maxLength: 60 }), (withTotp, steps) => {
        const history = registeredUser(T0);
        if (withTotp) withTwoFactor(history);
        let now = T0;
        for (const s of steps) {
          if (s.kind === 'advance') now += s.ms;
          else history.run(command('SignIn', { ...signInData(s.passwordValid, s.code), deviceId: null }, now));
        }
        const trusted = history.run(command('SignIn', { ...signInData(true, withTotp ? true : undefined), deviceId: 'owners-laptop' }, now));
        expect(trusted).not.toBeInstanceOf(DomainError);
        expect(signInOutcome(trusted as UserEvent[]).kind).toBe('signed_in');
      }),
    );
  });

  it('never lets an untrusted browser into a locked account, whatever it sends', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(advance, attempt), { maxLength: 40 }),
        fc.boolean(),
        fc.option(fc.boolean(), { nil: undefined }),
        fc.integer({ min: 0, max: SIGN_IN_LOCK_MS - 1 }),
        (before, passwordValid, code, wait) => {
          const history = registeredUser(T0);
          let now = T0;
          for (const s of before) {
            if (s.kind === 'advance') now += s.ms;
            else history.run(command('SignIn', { ...signInData(s.passwordValid, s.code), deviceId: s.device }, now));
          }
          // lock it now from untrusted browsers: past any lock the history left (a lock lasts
          // SIGN_IN_LOCK_MS from its last failure, and attempts while locked do not extend it)
          now += SIGN_IN_LOCK_MS;
          let locked: UserEvent[] | DomainError = [];
          for (let i = 0; i < MAX_FAILED_SIGN_INS && !(locked instanceof DomainError); i++) {
            locked = history.run(command('SignIn', { ...signInData(false), deviceId: null }, now));
          }
          const result = history.run(command('SignIn', { ...signInData(passwordValid, code), deviceId: null }, now + wait));
          expect(result).toBeInstanceOf(DomainError);
          expect((result as DomainError).code).toBe(AccountErrors.userLocked.code);
        },
      ),
    );
  });

  it('locks an address without an account exactly as it locks an account, so the answers cannot tell them apart', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(advance, fc.constant({ kind: 'wrong' as const })), { maxLength: 60 }), (steps) => {
        const history = registeredUser(T0);
        let unknown: SignInGuard | undefined;
        let now = T0;
        for (const s of steps) {
          if (s.kind === 'advance') {
            now += s.ms;
            continue;
          }
          const result = history.run(command('SignIn', signInData(false), now));
          const known =
            result instanceof DomainError
              ? { code: result.code, data: result.data }
              : (({ error }) => ({ code: error.code, data: error.data }))(signInOutcome(result) as { error: DomainError });
          const lockedUntil = lockedUntilAt(unknown, now);
          let answer: { code: string | number; data: unknown };
          if (lockedUntil !== null) {
            answer = { code: AccountErrors.userLocked.code, data: { lockedUntil: new Date(lockedUntil).toISOString() } };
          } else {
            const counted = countFailure(unknown, now);
            unknown = counted.guard;
            answer =
              counted.lockedUntil === null
                ? { code: AccountErrors.wrongCredentials.code, data: undefined }
                : { code: AccountErrors.userLocked.code, data: { lockedUntil: new Date(counted.lockedUntil).toISOString() } };
          }
          expect(answer).toEqual(known);
        }
      }),
    );
  });

  it('lifts every password lock with a completed reset, and only then', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(advance, attempt), { maxLength: 40 }), (steps) => {
        const history = registeredUser(T0);
        let now = T0;
        for (const s of steps) {
          if (s.kind === 'advance') now += s.ms;
          else history.run(command('SignIn', { ...signInData(s.passwordValid, s.code), deviceId: s.device }, now));
        }
        history.must(command('RequestPasswordReset', { tokenHash: 'reset' }, now));
        history.must(command('ResetPassword', { tokenHash: 'reset', passwordHash: 'new-hash' }, now));
        for (const device of [null, 'device-a', 'device-b']) {
          expect(isLocked(history.state, new Date(now), device)).toBe(false);
          const result = history.run(command('SignIn', { ...signInData(true), deviceId: device }, now));
          expect(signInOutcome(result as UserEvent[]).kind).toBe('signed_in');
        }
      }),
    );
  });
});

describe('authenticator codes', () => {
  it('accepts each time step at most once, and only newer ones, at sign-in', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 30 }), (codeSteps) => {
        const history = registeredUser(T0);
        history.must(command('StartTotpEnrolment', { secretCiphertext: 'secret' }, T0));
        history.must(command('EnableTwoFactor', { method: 'totp', codeValid: true, totpStep: 5 }, T0));
        let last = 5;
        codeSteps.forEach((totpStep, i) => {
          const now = T0 + i * 1000;
          const result = history.run(command('SignIn', { ...signInData(true, true), totpStep }, now));
          if (result instanceof DomainError) {
            expect(result.code).toBe(AccountErrors.userLocked.code);
            return;
          }
          const outcome = signInOutcome(result);
          if (totpStep > last) {
            expect(outcome.kind).toBe('signed_in');
            last = totpStep;
          } else {
            expect(outcome.kind).toBe('rejected');
          }
        });
      }),
    );
  });
});

describe('exactly one active e-mail', () => {
  const emails = ['ada@example.com', 'lovelace@example.com', 'countess@example.org'];
  const tokens = ['t1', 't2', 't3'];

  it('holds for any sequence of events', () => {
    const email = fc.constantFrom(...emails);
    const at = fc.integer({ min: 0, max: 1000 }).map((m) => new Date(T0 + m * MINUTE).toISOString());
    const event: fc.Arbitrary<UserEvent> = fc.oneof(
      fc.record({
        type: fc.constant('EmailChangeRequested' as const),
        data: fc.record({ newEmail: email, tokenHash: fc.constantFrom(...tokens), expiresAt: at }),
      }),
      fc.record({ type: fc.constant('EmailChanged' as const), data: fc.record({ oldEmail: email, newEmail: email, at }) }),
      fc.record({ type: fc.constant('EmailConfirmed' as const), data: fc.record({ email, at }) }),
      fc.record({
        type: fc.constant('EmailConfirmationRequested' as const),
        data: fc.record({ email, tokenHash: fc.constantFrom(...tokens), expiresAt: at }),
      }),
      fc.record({ type: fc.constant('UserSuspended' as const), data: fc.record({ reason: fc.constant(null), at }) }),
      fc.record({ type: fc.constant('UserUnsuspended' as const), data: fc.record({ at }) }),
      fc.record({ type: fc.constant('ProfileUpdated' as const), data: fc.record({ changes: fc.record({ contactEmail: email }) }) }),
      fc.record({
        type: fc.constant('AccountDeleted' as const),
        data: fc.record({ by: fc.constant('user' as const), deleterId: fc.constant('u-prop'), email, at }),
      }),
      fc.record({ type: fc.constant('AccountPurged' as const), data: fc.record({ at }) }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        let state = registeredUser(T0, false).state;
        let expected = ORIGINAL_EMAIL;
        let gone = false;
        for (const e of events) {
          state = userDecider.evolve(state, e);
          // A purge only ever follows a deletion; on a live account it changes nothing.
          if (e.type === 'AccountDeleted') gone = true;
          if (e.type === 'EmailChanged' && !gone) expected = e.data.newEmail;
          if (gone) {
            expect(activeEmail(state)).toBeNull();
          } else {
            expect(isExistingUser(state)).toBe(true);
            expect(activeEmail(state)).toBe(expected);
          }
        }
      }),
    );
  });

  it('changes only through a confirmed, current, unexpired link, whatever the commands', () => {
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('request' as const),
        newEmail: fc.constantFrom(...emails),
        passwordValid: fc.boolean(),
        token: fc.constantFrom(...tokens),
      }),
      fc.record({ kind: fc.constant('confirm' as const), token: fc.constantFrom(...tokens) }),
      fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 30 * 60 * MINUTE }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const history = registeredUser(T0);
        let now = T0;
        let expected = ORIGINAL_EMAIL;
        let pending: { newEmail: string; token: string; expiresAt: number } | null = null;
        for (const s of steps) {
          if (s.kind === 'advance') {
            now += s.ms;
          } else if (s.kind === 'request') {
            const result = history.run(command('RequestEmailChange', { newEmail: s.newEmail, passwordValid: s.passwordValid, tokenHash: s.token }, now));
            if (!(result instanceof DomainError)) pending = { newEmail: s.newEmail, token: s.token, expiresAt: now + EMAIL_CHANGE_TTL_MS };
            else expect(s.newEmail === expected || !s.passwordValid).toBe(true);
          } else {
            const result = history.run(command('ConfirmEmailChange', { tokenHash: s.token }, now));
            const acceptable = pending !== null && pending.token === s.token && now < pending.expiresAt;
            expect(!(result instanceof DomainError)).toBe(acceptable);
            if (acceptable && pending) {
              expected = pending.newEmail;
              pending = null;
            }
          }
          expect(activeEmail(history.state)).toBe(expected);
        }
      }),
    );
  });
});

describe('links and codes expire', () => {
  type Case = {
    ttl: number;
    /** Issues the link or code at T0. */
    setup: (history: History) => void;
    /** Uses it at `now`; true when it was accepted. */
    use: (history: History, now: number) => boolean;
  };
  const accepted = (result: UserEvent[] | DomainError): boolean => !(result instanceof DomainError);
  const enableEmailTwoFactor = (h: History): void => {
    h.must(command('IssueEmailCode', { codeHash: 'c-enable', purpose: 'enable' }, T0));
    h.must(command('EnableTwoFactor', { method: 'email', codeValid: true }, T0));
  };
  const cases: Record<string, Case> = {
    emailConfirmation: {
      ttl: EMAIL_CONFIRMATION_TTL_MS,
      setup: () => undefined,
      use: (h, now) => accepted(h.run(command('ConfirmEmail', { tokenHash: 'confirm' }, now))),
    },
    passwordReset: {
      ttl: PASSWORD_RESET_TTL_MS,
      setup: (h) => h.must(command('RequestPasswordReset', { tokenHash: 'reset' }, T0)),
      use: (h, now) => accepted(h.run(command('ResetPassword', { tokenHash: 'reset', passwordHash: 'new' }, now))),
    },
    emailChange: {
      ttl: EMAIL_CHANGE_TTL_MS,
      setup: (h) => h.must(command('RequestEmailChange', { newEmail: 'new@example.com', passwordValid: true, tokenHash: 'chg' }, T0)),
      use: (h, now) => accepted(h.run(command('ConfirmEmailChange', { tokenHash: 'chg' }, now))),
    },
    twoFactorReset: {
      ttl: TWO_FACTOR_RESET_TTL_MS,
      setup: (h) => {
        enableEmailTwoFactor(h);
        h.must(command('RequestTwoFactorReset', { tokenHash: 'r2fa', passwordValid: true }, T0));
      },
      use: (h, now) => accepted(h.run(command('ResetTwoFactor', { tokenHash: 'r2fa' }, now))),
    },
    enableCode: {
      ttl: VERIFICATION_CODE_TTL_MS,
      setup: (h) => h.must(command('IssueEmailCode', { codeHash: 'c', purpose: 'enable' }, T0)),
      use: (h, now) => accepted(h.run(command('EnableTwoFactor', { method: 'email', codeValid: true }, now))),
    },
    disableCode: {
      ttl: VERIFICATION_CODE_TTL_MS,
      setup: (h) => {
        enableEmailTwoFactor(h);
        h.must(command('IssueEmailCode', { codeHash: 'c', purpose: 'disable' }, T0));
      },
      use: (h, now) => accepted(h.run(command('DisableTwoFactor', { codeValid: true }, now))),
    },
    signInCode: {
      ttl: VERIFICATION_CODE_TTL_MS,
      setup: (h) => {
        enableEmailTwoFactor(h);
        h.must(command('SignIn', signInData(true), T0));
      },
      use: (h, now) => {
        const result = h.run(command('SignIn', signInData(true, true), now));
        return accepted(result) && signInOutcome(result as UserEvent[]).kind === 'signed_in';
      },
    },
  };

  it('accepts each link or code only before its expiry', () => {
    const delay = (ttl: number) => fc.oneof(fc.integer({ min: 0, max: 2 * ttl }), fc.constantFrom(0, ttl - 1, ttl, ttl + 1));
    const scenario = fc.constantFrom(...Object.keys(cases)).chain((name) => fc.tuple(fc.constant(name), delay(cases[name]!.ttl)));
    fc.assert(
      fc.property(scenario, ([name, wait]) => {
        const c = cases[name]!;
        const history = registeredUser(T0, name !== 'emailConfirmation');
        c.setup(history);
        expect(c.use(history, T0 + wait)).toBe(wait < c.ttl);
      }),
      { numRuns: 300 },
    );
  });
});

describe('password reset links', () => {
  const tokens = ['r1', 'r2', 'r3'];
  const step = fc.oneof(
    fc.record({ kind: fc.constant('request' as const), token: fc.constantFrom(...tokens) }),
    fc.record({ kind: fc.constant('reset' as const), token: fc.constantFrom(...tokens) }),
    fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 40 * MINUTE }) }),
  );

  it('work once, only while they are the newest, and only within the hour', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const history = registeredUser(T0);
        let now = T0;
        let outstanding: { token: string; expiresAt: number } | null = null;
        for (const s of steps) {
          if (s.kind === 'advance') {
            now += s.ms;
          } else if (s.kind === 'request') {
            history.must(command('RequestPasswordReset', { tokenHash: s.token }, now));
            outstanding = { token: s.token, expiresAt: now + PASSWORD_RESET_TTL_MS };
          } else {
            const result = history.run(command('ResetPassword', { tokenHash: s.token, passwordHash: `p-${now}` }, now));
            const expected = outstanding !== null && outstanding.token === s.token && now < outstanding.expiresAt;
            expect(!(result instanceof DomainError)).toBe(expected);
            if (expected) outstanding = null;
          }
        }
        // Replaying the whole history never shows one issued link used twice.
        let issued = 0;
        const usedPerIssue = new Map<number, number>();
        for (const e of history.events) {
          if (e.type === 'PasswordResetRequested') issued += 1;
          if (e.type === 'PasswordChanged') usedPerIssue.set(issued, (usedPerIssue.get(issued) ?? 0) + 1);
        }
        for (const uses of usedPerIssue.values()) expect(uses).toBe(1);
      }),
    );
  });
});

describe('e-mail reservations', () => {
  it('never let a second user hold a reserved address', () => {
    const step = fc.record({ kind: fc.constantFrom('ReserveEmail' as const, 'ReleaseEmail' as const), userId: fc.constantFrom('a', 'b', 'c') });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const events: EmailReservationEvent[] = [];
        for (const s of steps) {
          const state: ReservationState = fold(emailReservationDecider, events);
          const cmd: EmailReservationCommand = { type: s.kind, data: { userId: s.userId }, metadata: { now: new Date(T0) } };
          if (s.kind === 'ReserveEmail' && state.status === 'held' && state.userId !== s.userId) {
            expect(() => emailReservationDecider.decide(cmd, state)).toThrow(DomainError);
            continue;
          }
          events.push(...emailReservationDecider.decide(cmd, state));
          const after = fold(emailReservationDecider, events);
          if (s.kind === 'ReserveEmail') expect(after).toMatchObject({ status: 'held', userId: s.userId });
        }
      }),
    );
  });
});
