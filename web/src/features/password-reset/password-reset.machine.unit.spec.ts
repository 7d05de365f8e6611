import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import { passwordResetMachine, type SetPasswordRequest } from './password-reset.machine';

const start = (
  token: string | null,
  setPassword: (r: SetPasswordRequest) => Promise<void> = async () => undefined,
  checkLink: (token: string) => Promise<void> = async () => undefined,
) => {
  const requests: string[] = [];
  const sets: SetPasswordRequest[] = [];
  const checks: string[] = [];
  const actor = createActor(
    passwordResetMachine.provide({
      actors: {
        checkLink: fromPromise<void, { token: string }>(({ input }) => {
          checks.push(input.token);
          return checkLink(input.token);
        }),
        requestReset: fromPromise<void, { email: string }>(async ({ input }) => {
          requests.push(input.email);
        }),
        setPassword: fromPromise<void, SetPasswordRequest>(({ input }) => {
          sets.push(input);
          return setPassword(input);
        }),
      },
    }),
    { input: { token } },
  ).start();
  return { actor, requests, sets, checks };
};

describe('password reset machine', () => {
  it('without a token: request -> requesting -> sent', async () => {
    const { actor, requests } = start(null);
    expect(actor.getSnapshot().value).toBe('request');
    actor.send({ type: 'REQUEST', email: 'bad' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: 'validation.email' });
    actor.send({ type: 'REQUEST', email: 'Ann@Example.com' });
    expect(actor.getSnapshot().value).toBe('requesting');
    await waitFor(actor, (s) => s.matches('sent'));
    expect(requests).toEqual(['ann@example.com']);
  });

  it('with a token: checking -> form -> submitting -> done', async () => {
    const { actor, sets, checks } = start('tok123');
    expect(actor.getSnapshot().value).toBe('checking');
    await waitFor(actor, (s) => s.matches('form'));
    expect(checks).toEqual(['tok123']);
    actor.send({ type: 'SUBMIT', password: 'abc', passwordConfirmation: 'abc' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ password: 'validation.passwordLength' });
    actor.send({ type: 'SUBMIT', password: 'New-pass-1', passwordConfirmation: 'New-pass-1' });
    expect(actor.getSnapshot().value).toBe('submitting');
    const snap = await waitFor(actor, (s) => s.status === 'done');
    expect(snap.value).toBe('done');
    expect(sets).toEqual([{ token: 'tok123', password: 'New-pass-1', passwordConfirmation: 'New-pass-1' }]);
  });

  it('checks the link before showing the form: a used, expired or garbled link goes straight to expired, no form', async () => {
    for (const [code, shown] of [
      ['LINK_EXPIRED', 'LINK_EXPIRED'],
      ['LINK_INVALID', 'LINK_INVALID'],
      ['VALIDATION_FAILED', 'LINK_INVALID'],
    ] as const) {
      const { actor, sets } = start('garbage', undefined, async () => {
        throw new ApiError(code, 'link', null, 400);
      });
      const snap = await waitFor(actor, (s) => !s.matches('checking'));
      expect(snap.value, code).toBe('expired');
      expect(snap.context.error?.code).toBe(shown);
      actor.send({ type: 'SUBMIT', password: 'New-pass-1', passwordConfirmation: 'New-pass-1' });
      expect(actor.getSnapshot().value).toBe('expired');
      expect(sets).toEqual([]);
      actor.send({ type: 'REQUEST_NEW_LINK' });
      expect(actor.getSnapshot().value).toBe('request');
      expect(actor.getSnapshot().context.error).toBeNull();
    }
  });

  it('shows the form when the check itself fails for another reason; the server checks again on submit', async () => {
    const { actor } = start('tok', undefined, async () => {
      throw new ApiError('NETWORK_ERROR', 'offline');
    });
    const snap = await waitFor(actor, (s) => !s.matches('checking'));
    expect(snap.value).toBe('form');
    expect(snap.context.error).toBeNull();
  });

  it('a link spent between the check and the submit ends in expired, from where a new link can be requested', async () => {
    for (const code of ['LINK_EXPIRED', 'LINK_INVALID']) {
      const { actor } = start('old', async () => {
        throw new ApiError(code, 'link', null, 400);
      });
      await waitFor(actor, (s) => s.matches('form'));
      actor.send({ type: 'SUBMIT', password: 'New-pass-1', passwordConfirmation: 'New-pass-1' });
      const snap = await waitFor(actor, (s) => s.matches('expired'));
      expect(snap.context.error?.code).toBe(code);
      actor.send({ type: 'REQUEST_NEW_LINK' });
      expect(actor.getSnapshot().value).toBe('request');
      expect(actor.getSnapshot().context.token).toBeNull();
    }
  });

  it('server validation errors return to the form next to the fields', async () => {
    const { actor } = start('tok', async () => {
      throw new ApiError('VALIDATION_FAILED', 'invalid', { fields: { password: 'validation.passwordMix' } }, 400);
    });
    await waitFor(actor, (s) => s.matches('form'));
    actor.send({ type: 'SUBMIT', password: 'New-pass-1', passwordConfirmation: 'New-pass-1' });
    const snap = await waitFor(actor, (s) => s.matches('form') && Object.keys(s.context.fieldErrors).length > 0);
    expect(snap.context.fieldErrors).toEqual({ password: 'validation.passwordMix' });
  });
});
