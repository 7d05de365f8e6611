import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import type { UserInfo } from '../../api/types';
import type { SsoAnswer, SsoRequest } from './sso.api';
import { ssoMachine } from './sso.machine';
import { authorizeHref, forgetRound, readRound, rememberRound } from './sso.round';

const user = { id: 'u1', email: 'a@example.com' } as UserInfo;

const start = (answers: ((request: SsoRequest) => Promise<SsoAnswer>)[]) => {
  const calls: { type: string; request: SsoRequest }[] = [];
  const actor = createActor(
    ssoMachine.provide({
      actors: {
        complete: fromPromise<SsoAnswer, { type: string; request: SsoRequest }>(({ input }) => {
          calls.push(input);
          const next = answers.shift();
          if (!next) throw new Error('no answer left');
          return next(input.request);
        }),
      },
    }),
    { input: { type: 'google', code: 'c0de', state: 'st4te' } },
  ).start();
  return { actor, calls };
};

describe('the return from a single sign-on provider', () => {
  it('posts the code and state, and ends signed in', async () => {
    const { actor, calls } = start([async () => ({ user })]);
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls).toEqual([{ type: 'google', request: { code: 'c0de', state: 'st4te' } }]);
    expect(actor.getSnapshot().output).toEqual({ user, signUp: null });
  });

  it('asks a two-factor account for its code: a malformed code is not sent, a wrong one shows its error, the right one signs in', async () => {
    const { actor, calls } = start([
      async () => ({ twoFactorRequired: true, method: 'totp', twoFactorToken: 'tok' }),
      async () => Promise.reject(new ApiError('TWO_FACTOR_INCORRECT', 'Incorrect 2FA code', null, 401)),
      async () => ({ user }),
    ]);
    await waitFor(actor, (s) => s.matches('twoFactor'));
    expect(actor.getSnapshot().context.method).toBe('totp');
    actor.send({ type: 'SUBMIT_CODE', code: '12' });
    expect(actor.getSnapshot().context.codeError).toBe('validation.code');
    expect(calls).toHaveLength(1);
    actor.send({ type: 'SUBMIT_CODE', code: '000000' });
    await waitFor(actor, (s) => s.matches('twoFactor') && s.context.error !== null);
    expect(actor.getSnapshot().context.error?.code).toBe('TWO_FACTOR_INCORRECT');
    actor.send({ type: 'SUBMIT_CODE', code: ' 123456 ' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls[2]).toEqual({ type: 'google', request: { code: '123456', twoFactorToken: 'tok' } });
    expect(actor.getSnapshot().output?.user).toBe(user);
  });

  it('hands a new address over to sign-up with the address the provider vouched for', async () => {
    const refusal = new ApiError(
      'VALIDATION_FAILED',
      'invalid',
      { email: 'new@example.com', signUp: true, fields: { termsAccepted: 'validation.terms' } },
      400,
    );
    const { actor } = start([async () => Promise.reject(refusal)]);
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual({ user: null, signUp: { email: 'new@example.com', reason: 'VALIDATION_FAILED' } });
  });

  it('ends with the error of an expired round or a refusing provider', async () => {
    const { actor } = start([async () => Promise.reject(new ApiError('SSO_STATE_INVALID', 'expired', null, 400))]);
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error?.code).toBe('SSO_STATE_INVALID');
    expect(actor.getSnapshot().output).toEqual({ user: null, signUp: null });
  });
});

describe('the round kept across the redirect', () => {
  it('is read until forgotten, and something not ours is ignored', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
    rememberRound({ redirect: '/files/storage', from: 'signup' }, storage);
    expect(readRound(storage)).toEqual({ redirect: '/files/storage', from: 'signup' });
    expect(readRound(storage)).toEqual({ redirect: '/files/storage', from: 'signup' });
    forgetRound(storage);
    expect(readRound(storage)).toBeNull();
    storage.setItem('axel.sso.round', '{"redirect":5}');
    expect(readRound(storage)).toBeNull();
  });

  it("starts at the server's authorize link with the terms choice and the interface language", () => {
    expect(authorizeHref({ authorizeUrl: '/api/sso/google/authorize' }, true, 'pt_br')).toBe('/api/sso/google/authorize?termsAccepted=true&locale=pt_br');
  });
});
