import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import type { LockMethod } from './file-lock.api';
import { isCode, lockDialogMachine, type LockPurpose } from './file-lock.machine';

const start = (opts: { method?: LockMethod; submit?: (code: string) => Promise<void> } = {}) => {
  const log: string[] = [];
  const actor = createActor(
    lockDialogMachine.provide({
      actors: {
        askCode: fromPromise(async () => {
          log.push('ask');
          return { method: opts.method ?? 'email' };
        }),
        submit: fromPromise<void, { code: string; purpose: LockPurpose }>(({ input }) => {
          log.push(`${input.purpose}:${input.code}`);
          return opts.submit ? opts.submit(input.code) : Promise.resolve();
        }),
      },
    }),
    { input: { purpose: 'lock' } },
  ).start();
  return { actor, log };
};

describe('the verification-code dialog of the two-factor lock', () => {
  it('asks for a code, then submits it: asking -> entering -> submitting -> done', async () => {
    const { actor, log } = start({ method: 'totp' });
    await waitFor(actor, (s) => s.matches('entering'));
    expect(actor.getSnapshot().context.method).toBe('totp');
    actor.send({ type: 'SUBMIT', code: ' 123456 ' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(log).toEqual(['ask', 'lock:123456']);
  });

  it('a wrong code goes back to entering with its error; a code that is not six digits is not sent', async () => {
    const { actor, log } = start({
      submit: async (code) => (code === '111111' ? undefined : Promise.reject(new ApiError('TWO_FACTOR_INCORRECT', 'Incorrect 2FA code', null, 400))),
    });
    await waitFor(actor, (s) => s.matches('entering'));
    actor.send({ type: 'SUBMIT', code: '12345' });
    expect(actor.getSnapshot().value).toBe('entering');
    actor.send({ type: 'SUBMIT', code: '222222' });
    await waitFor(actor, (s) => s.matches('entering') && s.context.error !== null);
    expect(actor.getSnapshot().context.error?.code).toBe('TWO_FACTOR_INCORRECT');
    actor.send({ type: 'SUBMIT', code: '111111' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(log).toEqual(['ask', 'lock:222222', 'lock:111111']);
  });

  it('mails a new code on RESEND, and ends unfinished on CANCEL', async () => {
    const { actor, log } = start();
    await waitFor(actor, (s) => s.matches('entering'));
    actor.send({ type: 'RESEND' });
    await waitFor(actor, (s) => s.matches('entering'));
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(log).toEqual(['ask', 'ask']);
    expect(isCode('12a456')).toBe(false);
  });
});
