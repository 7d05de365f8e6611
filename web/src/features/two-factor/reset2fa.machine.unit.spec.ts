import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import { reset2faConfirmMachine } from './reset2fa.machine';

const start = (token: string, opts: { check?: () => Promise<void>; confirm?: () => Promise<void> } = {}) => {
  const log: string[] = [];
  const actor = createActor(
    reset2faConfirmMachine.provide({
      actors: {
        checkLink: fromPromise<void, { token: string }>(({ input }) => {
          log.push(`check:${input.token}`);
          return opts.check ? opts.check() : Promise.resolve();
        }),
        confirm: fromPromise<void, { token: string }>(({ input }) => {
          log.push(`confirm:${input.token}`);
          return opts.confirm ? opts.confirm() : Promise.resolve();
        }),
      },
    }),
    { input: { token } },
  ).start();
  return { actor, log };
};

const refuse =
  (code: string, status = 400) =>
  async () => {
    throw new ApiError(code, code, null, status);
  };

describe('two-factor reset link machine', () => {
  it('checks the link first, then confirms: checking -> ready -> confirming -> done', async () => {
    const { actor, log } = start('tok');
    expect(actor.getSnapshot().value).toBe('checking');
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'CONFIRM' });
    expect(actor.getSnapshot().value).toBe('confirming');
    await waitFor(actor, (s) => s.matches('done'));
    expect(log).toEqual(['check:tok', 'confirm:tok']);
  });

  it('a used, expired or garbled link goes straight to invalid, without offering the button', async () => {
    for (const [code, shown] of [
      ['LINK_INVALID', 'LINK_INVALID'],
      ['LINK_EXPIRED', 'LINK_EXPIRED'],
      ['VALIDATION_FAILED', 'LINK_INVALID'],
    ] as const) {
      const { actor, log } = start('garbage', { check: refuse(code) });
      const snap = await waitFor(actor, (s) => !s.matches('checking'));
      expect(snap.value, code).toBe('invalid');
      expect(snap.context.error?.code).toBe(shown);
      actor.send({ type: 'CONFIRM' });
      expect(log).toEqual(['check:garbage']);
    }
  });

  it('a link spent between the check and the confirmation ends in invalid', async () => {
    const { actor } = start('tok', { confirm: refuse('LINK_INVALID') });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'CONFIRM' });
    const snap = await waitFor(actor, (s) => s.matches('invalid'));
    expect(snap.context.error?.code).toBe('LINK_INVALID');
  });

  it('another failure keeps the button and shows the error, cleared by the next attempt', async () => {
    let fail = true;
    const { actor } = start('tok', {
      check: refuse('NETWORK_ERROR', 0),
      confirm: async () => {
        if (fail) throw new ApiError('RATE_LIMITED', 'slow down', null, 429);
      },
    });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'CONFIRM' });
    let snap = await waitFor(actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(snap.context.error?.code).toBe('RATE_LIMITED');
    fail = false;
    actor.send({ type: 'CONFIRM' });
    expect(actor.getSnapshot().context.error).toBeNull();
    snap = await waitFor(actor, (s) => s.matches('done'));
    expect(snap.value).toBe('done');
  });
});
