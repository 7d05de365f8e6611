import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import type { SignInAnswer, UserInfo } from '../../api/types';
import { signinMachine, type SignInRequest } from './signin.machine';

const user = { id: 'u1', email: 'ann@example.com' } as UserInfo;

const start = (impl: (req: SignInRequest) => Promise<SignInAnswer>) => {
  const calls: SignInRequest[] = [];
  const actor = createActor(
    signinMachine.provide({
      actors: {
        signIn: fromPromise<SignInAnswer, SignInRequest>(({ input }) => {
          calls.push(input);
          return impl(input);
        }),
      },
    }),
  ).start();
  return { actor, calls };
};

describe('sign-in machine', () => {
  it('validates the credentials with the shared rules before calling the server', () => {
    const { actor, calls } = start(async () => ({ user }));
    actor.send({ type: 'SUBMIT', email: 'not-an-email', password: '' });
    const snap = actor.getSnapshot();
    expect(snap.value).toBe('credentials');
    expect(snap.context.fieldErrors).toEqual({ email: 'validation.email', password: 'validation.required' });
    expect(calls).toHaveLength(0);
  });

  it('signs in without 2FA: credentials -> submitting -> done with the user', async () => {
    const { actor, calls } = start(async () => ({ user }));
    actor.send({ type: 'SUBMIT', email: ' Ann@Example.com ', password: 'secret-1!' });
    expect(actor.getSnapshot().value).toBe('submitting');
    const snap = await waitFor(actor, (s) => s.status === 'done');
    expect(snap.value).toBe('done');
    expect(snap.output).toEqual({ user });
    expect(calls).toEqual([{ email: 'ann@example.com', password: 'secret-1!' }]);
  });

  it('asks for the code when the answer is twoFactorRequired, then sends it with the credentials', async () => {
    const { actor, calls } = start(async (req) => (req.code ? { user } : { twoFactorRequired: true, method: 'totp' }));
    actor.send({ type: 'SUBMIT', email: 'ann@example.com', password: 'pw' });
    let snap = await waitFor(actor, (s) => s.matches('twoFactor'));
    expect(snap.context.method).toBe('totp');

    actor.send({ type: 'SUBMIT_CODE', code: '12ab' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ code: 'validation.code' });
    expect(actor.getSnapshot().value).toBe('twoFactor');

    actor.send({ type: 'SUBMIT_CODE', code: '123456' });
    expect(actor.getSnapshot().value).toBe('submittingCode');
    snap = await waitFor(actor, (s) => s.status === 'done');
    expect(snap.output).toEqual({ user });
    expect(calls.at(-1)).toEqual({ email: 'ann@example.com', password: 'pw', code: '123456' });
  });

  it('stays on the code step with the error code when the code is wrong', async () => {
    const { actor } = start(async (req) => {
      if (!req.code) return { twoFactorRequired: true, method: 'email' };
      throw new ApiError('TWO_FACTOR_INCORRECT', 'Incorrect 2FA code', null, 401);
    });
    actor.send({ type: 'SUBMIT', email: 'ann@example.com', password: 'pw' });
    await waitFor(actor, (s) => s.matches('twoFactor'));
    actor.send({ type: 'SUBMIT_CODE', code: '000000' });
    const snap = await waitFor(actor, (s) => s.matches('twoFactor') && s.context.error !== null);
    expect(snap.context.error?.code).toBe('TWO_FACTOR_INCORRECT');
  });

  it('resends an e-mailed code by repeating the credentials without a code', async () => {
    const { actor, calls } = start(async () => ({ twoFactorRequired: true, method: 'email' }));
    actor.send({ type: 'SUBMIT', email: 'ann@example.com', password: 'pw' });
    await waitFor(actor, (s) => s.matches('twoFactor'));
    actor.send({ type: 'RESEND_CODE' });
    const snap = await waitFor(actor, (s) => s.matches('twoFactor') && s.context.codeResent);
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual({ email: 'ann@example.com', password: 'pw' });
    expect(snap.context.codeResent).toBe(true);
  });

  it('goes back to the credentials with the error code on wrong credentials, clearing the password', async () => {
    const { actor } = start(async () => {
      throw new ApiError('WRONG_CREDENTIALS', 'Wrong e-mail or password', null, 401);
    });
    actor.send({ type: 'SUBMIT', email: 'ann@example.com', password: 'pw' });
    const snap = await waitFor(actor, (s) => s.matches('credentials') && s.context.error !== null);
    expect(snap.context.error).toEqual({ code: 'WRONG_CREDENTIALS', message: 'Wrong e-mail or password', data: null });
    expect(snap.context.password).toBe('');
    expect(snap.context.lockedUntil).toBeNull();
  });

  it('keeps lockedUntil when the account is locked', async () => {
    const { actor } = start(async () => {
      throw new ApiError('USER_LOCKED', 'User locked', { lockedUntil: '2030-01-01T10:00:00.000Z' }, 423);
    });
    actor.send({ type: 'SUBMIT', email: 'ann@example.com', password: 'pw' });
    const snap = await waitFor(actor, (s) => s.context.error !== null);
    expect(snap.value).toBe('credentials');
    expect(snap.context.error?.code).toBe('USER_LOCKED');
    expect(snap.context.lockedUntil).toBe('2030-01-01T10:00:00.000Z');
  });

  it('returns to the credentials when the account gets locked during the code step', async () => {
    const { actor } = start(async (req) => {
      if (!req.code) return { twoFactorRequired: true, method: 'totp' };
      throw new ApiError('USER_LOCKED', 'User locked', { lockedUntil: '2030-01-01T10:00:00.000Z' }, 423);
    });
    actor.send({ type: 'SUBMIT', email: 'ann@example.com', password: 'pw' });
    await waitFor(actor, (s) => s.matches('twoFactor'));
    actor.send({ type: 'SUBMIT_CODE', code: '123456' });
    const snap = await waitFor(actor, (s) => s.matches('credentials'));
    expect(snap.context.lockedUntil).toBe('2030-01-01T10:00:00.000Z');
  });

  it('BACK leaves the code step for the credentials', async () => {
    const { actor } = start(async () => ({ twoFactorRequired: true, method: 'totp' }));
    actor.send({ type: 'SUBMIT', email: 'ann@example.com', password: 'pw' });
    await waitFor(actor, (s) => s.matches('twoFactor'));
    actor.send({ type: 'BACK' });
    expect(actor.getSnapshot().value).toBe('credentials');
    expect(actor.getSnapshot().context.password).toBe('');
  });
});
