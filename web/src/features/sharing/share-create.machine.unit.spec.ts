import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import type { Share, ShareInput } from './sharing.types';
import { emptyShareForm } from './sharing.validation';
import { shareCreateMachine } from './share-create.machine';

const NOW = new Date(2026, 10, 23, 12);
const created = { id: 's1', shareLinkId: 'L'.repeat(22), url: 'http://x/shares/LLL' } as Share;

const start = (impl: (input: ShareInput) => Promise<Share>) => {
  const calls: ShareInput[] = [];
  const actor = createActor(
    shareCreateMachine.provide({
      actors: {
        create: fromPromise<Share, ShareInput>(({ input }) => {
          calls.push(input);
          return impl(input);
        }),
      },
    }),
    { input: { itemIds: ['i1', 'i2'], title: 'Album', ownEmail: 'me@example.com', now: () => NOW } },
  ).start();
  return { actor, calls };
};

describe('share create machine', () => {
  it('checks the rules before sending: nothing goes out while a field is wrong', () => {
    const { actor, calls } = start(async () => created);
    expect(actor.getSnapshot().context.values.title).toBe('Album');
    actor.send({ type: 'SUBMIT', values: { ...emptyShareForm('Album'), kind: 'private', recipients: 'me@example.com' } });
    expect(actor.getSnapshot().value).toBe('edit');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      recipients: 'sharing.validation.ownEmail',
      message: 'sharing.validation.messageRequired',
      password: 'sharing.validation.passwordRequired',
    });
    expect(calls).toEqual([]);
  });

  it('creates the share with the selection and ends with its link', async () => {
    const { actor, calls } = start(async () => created);
    actor.send({ type: 'SUBMIT', values: { ...emptyShareForm('Album'), password: 'secret-pass', downloadable: false } });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().context.share).toBe(created);
    expect(calls).toEqual([{ itemIds: ['i1', 'i2'], title: 'Album', expiresAt: null, downloadable: false, requireLogin: false, esign: false, password: 'secret-pass' }]);
  });

  it('a refusal of a field comes back under it; any other above the form; the values stay', async () => {
    let answer: ApiError = new ApiError('OWN_EMAIL_RECIPIENT', 'own', null, 400);
    const { actor } = start(async () => {
      throw answer;
    });
    const values = { ...emptyShareForm('Album'), kind: 'private' as const, recipients: 'a@example.com', message: 'hi', password: 'secret-pass' };
    actor.send({ type: 'SUBMIT', values });
    await waitFor(actor, (s) => s.matches('edit') && Object.keys(s.context.fieldErrors).length > 0);
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ recipients: 'errors.OWN_EMAIL_RECIPIENT' });
    expect(actor.getSnapshot().context.error).toBeNull();

    answer = new ApiError('SHARE_LIMIT_REACHED', 'You have used all 5 shares of your plan this month', { limit: 5 }, 403);
    actor.send({ type: 'SUBMIT', values });
    await waitFor(actor, (s) => s.matches('edit') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toEqual({ code: 'SHARE_LIMIT_REACHED', message: 'You have used all 5 shares of your plan this month', data: { limit: 5 } });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
    expect(actor.getSnapshot().context.values).toEqual(values);
  });
});
