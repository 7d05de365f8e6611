import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import { ApiError } from '../../api/errors';
import type { ShareCredentials } from '../sharing/share-link.api';
import type { ShareSummary } from '../sharing/sharing.types';
import { openBookmarkMachine, type OpenBookmarkInput } from './open-bookmark.machine';

const LINK = 'AbCdEfGhIjKlMnOpQrStUv';
const summary = (over: Partial<ShareSummary> = {}): ShareSummary => ({
  title: 'Photos',
  kind: 'public',
  requireLogin: false,
  hasPassword: false,
  downloadable: true,
  expiresAt: null,
  ...over,
});

const start = (opts: { summary: () => Promise<ShareSummary>; password?: string; input?: Partial<OpenBookmarkInput> }) => {
  const tried: ShareCredentials[] = [];
  const actor = createActor(
    openBookmarkMachine.provide({
      actors: {
        summary: fromPromise(opts.summary),
        verify: fromPromise<void, { linkId: string; credentials: ShareCredentials }>(async ({ input }) => {
          tried.push(input.credentials);
          if (input.credentials.password !== opts.password) throw new ApiError(5403, 'Wrong share password', null, 403);
        }),
      },
    }),
    { input: { linkId: LINK, viewerEmail: 'me@example.com', ...opts.input } },
  ).start();
  return { actor, tried, done: toPromise(actor) };
};

const settle = () => new Promise((r) => setTimeout(r, 0));
/** What the share link answers a visit without its password: the gate, not the contents. */
const protectedShare =
  (kind: 'public' | 'private' = 'public') =>
  async (): Promise<ShareSummary> => {
    throw new ApiError(
      'SHARE_PROTECTED',
      'This share is protected by a password',
      { shareLinkId: LINK, kind, requireLogin: false, hasPassword: true, expiresAt: null },
      403,
    );
  };

describe('opening a bookmark', () => {
  it('opens a share without a password at once, public or private', async () => {
    expect(await start({ summary: async () => summary() }).done).toEqual({ outcome: 'open', path: `/shares/${LINK}` });
    expect(await start({ summary: async () => summary({ kind: 'private' }) }).done).toEqual({ outcome: 'open', path: `/private-share/${LINK}` });
  });

  it('asks the password of a protected share, and opens it when the password is right', async () => {
    const run = start({ summary: protectedShare(), password: 'correct horse' });
    await settle();
    expect(run.actor.getSnapshot().value).toBe('askingPassword');
    run.actor.send({ type: 'SUBMIT', password: '' });
    expect(run.actor.getSnapshot().value).toBe('askingPassword');
    run.actor.send({ type: 'SUBMIT', password: 'correct horse' });
    expect(await run.done).toEqual({ outcome: 'open', path: `/shares/${LINK}` });
    expect(run.tried).toEqual([{ password: 'correct horse' }]);
  });

  it('returns to the list with the message when the password is wrong (403 or 5403)', async () => {
    const run = start({ summary: protectedShare('private'), password: 'right one' });
    await settle();
    run.actor.send({ type: 'SUBMIT', password: 'wrong one' });
    const out = await run.done;
    expect(out).toMatchObject({ outcome: 'back', error: { code: '5403', message: 'Wrong share password' } });
    expect(run.actor.getSnapshot().context.kind).toBe('private');
    // a private share is tried with the signed-in user's e-mail
    expect(run.tried).toEqual([{ password: 'wrong one', email: 'me@example.com' }]);
  });

  it('does not ask when the share lets the tab in (its token still holds)', async () => {
    const run = start({ summary: async () => summary({ hasPassword: true }) });
    expect(await run.done).toEqual({ outcome: 'open', path: `/shares/${LINK}` });
    expect(run.tried).toEqual([]);
  });

  it('returns to the list when the link is refused (revoked, expired, gone)', async () => {
    const out = await start({
      summary: async () => {
        throw new ApiError('LINK_BLOCKED', 'This link is blocked', null, 410);
      },
    }).done;
    expect(out).toMatchObject({ outcome: 'back', error: { code: 'LINK_BLOCKED' } });
  });

  it('can be cancelled at the password prompt', async () => {
    const run = start({ summary: protectedShare() });
    await settle();
    run.actor.send({ type: 'CANCEL' });
    expect(await run.done).toEqual({ outcome: 'cancelled' });
    expect(run.tried).toEqual([]);
  });
});
