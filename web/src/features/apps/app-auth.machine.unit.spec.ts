import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import { appAuthMachine, type AppAuthInput } from './app-auth.machine';

const run = async (input: AppAuthInput, connect: (code: string) => Promise<void> = async () => undefined) => {
  const codes: string[] = [];
  const machine = appAuthMachine.provide({
    actors: {
      connect: fromPromise<void, { code: string }>(async ({ input: i }) => {
        codes.push(i.code);
        await connect(i.code);
      }),
    },
  });
  const actor = createActor(machine, { input }).start();
  const done = await waitFor(actor, (s) => s.status === 'done');
  return { state: done.value, error: done.context.error, codes };
};

describe('the app callback page', () => {
  it('posts the code once and is connected', async () => {
    expect(await run({ code: 'c1', providerError: null, signedIn: true })).toEqual({ state: 'connected', error: null, codes: ['c1'] });
  });

  it('shows the refusal of the server, with its code', async () => {
    const refused = await run({ code: 'c1', providerError: null, signedIn: true }, async () => {
      throw new ApiError('APP_AUTHORIZATION_REFUSED', 'refused', null, 400);
    });
    expect(refused.state).toBe('failed');
    expect(refused.error?.code).toBe('APP_AUTHORIZATION_REFUSED');
  });

  it('posts nothing when the user said no at the provider, came back without a code, or is signed out', async () => {
    expect(await run({ code: null, providerError: 'access_denied', signedIn: true })).toMatchObject({ state: 'refused', codes: [] });
    expect(await run({ code: null, providerError: null, signedIn: true })).toMatchObject({ state: 'refused', codes: [] });
    expect(await run({ code: 'c1', providerError: null, signedIn: false })).toMatchObject({ state: 'signedOut', codes: [] });
  });
});
