import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import type { Share, ShareInput } from './sharing.types';
import { emptyShareForm } from './sharing.validation';
import { shareCreateMachine, type PlanCount } from './share-create.machine';

const NOW = new Date(2026, 10, 23, 12);
const created = { id: 's1', shareLinkId: 'L'.repeat(22), url: 'http://x/shares/LLL' } as Share;

const start = (impl: (input: ShareInput) => Promise<Share>, usage?: () => Promise<PlanCount>) => {
  const calls: ShareInput[] = [];
  const actor = createActor(
    shareCreateMachine.provide({
      actors: {
        create: fromPromise<Share, ShareInput>(({ input }) => {
          calls.push(input);
          return impl(input);
        }),
        ...(usage ? { loadUsage: fromPromise<PlanCount>(() => usage()) } : {}),
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
    expect(calls).toEqual([
      { itemIds: ['i1', 'i2'], title: 'Album', expiresAt: null, downloadable: false, requireLogin: false, esign: false, password: 'secret-pass' },
    ]);
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
    expect(actor.getSnapshot().context.error).toEqual({
      code: 'SHARE_LIMIT_REACHED',
      message: 'You have used all 5 shares of your plan this month',
      data: { limit: 5 },
    });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
    expect(actor.getSnapshot().context.values).toEqual(values);
  });

  it("says the month's shares against the plan before anything is filled in", async () => {
    const { actor } = start(
      async () => created,
      async () => ({ count: 2, limit: 5 }),
    );
    await waitFor(actor, (s) => s.context.usage !== null);
    expect(actor.getSnapshot().context.usage).toEqual({ count: 2, limit: 5, left: 3, reached: false });
    const unlimited = start(
      async () => created,
      async () => ({ count: 7, limit: null }),
    ).actor;
    await waitFor(unlimited, (s) => s.context.usage !== null);
    expect(unlimited.getSnapshot().context.usage).toEqual({ count: 7, limit: null, left: null, reached: false });
  });

  it('past the limit nothing is sent: the refusal is said at once; the form works without the count', async () => {
    const { actor, calls } = start(
      async () => created,
      async () => ({ count: 5, limit: 5 }),
    );
    await waitFor(actor, (s) => s.context.usage !== null);
    const values = { ...emptyShareForm('Album'), password: 'secret-pass' };
    actor.send({ type: 'SUBMIT', values });
    expect(actor.getSnapshot().value).toBe('edit');
    expect(actor.getSnapshot().context.error).toMatchObject({ code: 'SHARE_LIMIT_REACHED', data: { limit: 5 } });
    expect(actor.getSnapshot().context.values).toEqual(values);
    expect(calls).toEqual([]);

    const unknown = start(
      async () => created,
      async () => Promise.reject(new Error('offline')),
    );
    unknown.actor.send({ type: 'SUBMIT', values });
    await waitFor(unknown.actor, (s) => s.status === 'done');
    expect(unknown.calls).toHaveLength(1);
  });

  it('asks for the count again when the server refused the share, so the limit another tab reached shows', async () => {
    let count = 4;
    const { actor } = start(
      async () => {
        count = 5;
        throw new ApiError('SHARE_LIMIT_REACHED', 'You have used all 5 shares of your plan this month', { limit: 5 }, 403);
      },
      async () => ({ count, limit: 5 }),
    );
    await waitFor(actor, (s) => s.context.usage !== null);
    actor.send({ type: 'SUBMIT', values: { ...emptyShareForm('Album'), password: 'secret-pass' } });
    await waitFor(actor, (s) => s.context.usage?.reached === true);
    expect(actor.getSnapshot().context.usage).toEqual({ count: 5, limit: 5, left: 0, reached: true });
  });
});
