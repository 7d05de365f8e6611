import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import { ApiError } from '../../api/errors';
import type { ShareCredentials } from '../sharing/share-link.api';
import type { Bookmark } from './bookmarks.api';
import { addBookmarkMachine } from './add-bookmark.machine';

const LINK = 'AbCdEfGhIjKlMnOpQrStUv';
const kept: Bookmark = {
  id: 'b1',
  shareId: 's1',
  shareLinkId: LINK,
  bookmarkListId: null,
  description: 'Tax papers',
  createdAt: '',
  modifiedAt: '',
  shareStatus: 'active',
  shareKind: 'public',
};

/** A share link with a password: adding needs the token that the right password hands out. */
const server = (opts: { password?: string; kind?: 'public' | 'private'; refuse?: ApiError } = {}) => {
  let token = false;
  const calls = { adds: 0, tried: [] as ShareCredentials[] };
  const actors = {
    add: fromPromise<Bookmark, { linkId: string; bookmarkListId: string | null }>(async () => {
      calls.adds++;
      if (opts.refuse) throw opts.refuse;
      if (opts.password && !token)
        throw new ApiError('SHARE_PROTECTED', 'This share is protected by a password', { kind: opts.kind ?? 'public', hasPassword: true }, 403);
      return kept;
    }),
    verify: fromPromise<void, { linkId: string; credentials: ShareCredentials }>(async ({ input }) => {
      calls.tried.push(input.credentials);
      if (input.credentials.password !== opts.password) throw new ApiError(5403, 'Wrong share password', null, 403);
      token = true;
    }),
  };
  return { actors, calls };
};

const start = (s: ReturnType<typeof server>) => {
  const actor = createActor(addBookmarkMachine.provide({ actors: s.actors }), {
    input: { linkId: LINK, bookmarkListId: null, viewerEmail: 'me@example.com' },
  }).start();
  return { actor, done: toPromise(actor) };
};
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('bookmarking a share by its link', () => {
  it('keeps a share the link lets in at once', async () => {
    const s = server();
    expect(await start(s).done).toEqual({ bookmark: kept, error: null });
    expect(s.calls).toEqual({ adds: 1, tried: [] });
  });

  it('asks a protected share its password, asks again after a wrong one, keeps it after the right one', async () => {
    const s = server({ password: 'Tax-secret-9', kind: 'private' });
    const run = start(s);
    await settle();
    expect(run.actor.getSnapshot().value).toBe('askingPassword');
    run.actor.send({ type: 'SUBMIT_PASSWORD', password: 'wrong' });
    await settle();
    expect(run.actor.getSnapshot().value).toBe('askingPassword');
    expect(run.actor.getSnapshot().context.error).toMatchObject({ code: '5403' });
    run.actor.send({ type: 'SUBMIT_PASSWORD', password: 'Tax-secret-9' });
    expect(await run.done).toEqual({ bookmark: kept, error: null });
    // a private share is tried with the signed-in user's e-mail
    expect(s.calls.tried).toEqual([
      { password: 'wrong', email: 'me@example.com' },
      { password: 'Tax-secret-9', email: 'me@example.com' },
    ]);
    expect(s.calls.adds).toBe(2);
  });

  it('ends with any other refusal', async () => {
    const s = server({ refuse: new ApiError('BOOKMARK_EXISTS', 'This share is already in your bookmarks', { bookmarkId: 'b0' }, 409) });
    expect(await start(s).done).toMatchObject({ bookmark: null, error: { code: 'BOOKMARK_EXISTS' } });
  });

  it('can be cancelled at the password', async () => {
    const s = server({ password: 'x' });
    const run = start(s);
    await settle();
    run.actor.send({ type: 'CANCEL' });
    expect(await run.done).toEqual({ bookmark: null, error: null });
  });
});
