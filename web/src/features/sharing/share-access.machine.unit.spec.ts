import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import type { Page } from './sharing.api';
import type { ShareEntry, ShareSummary } from './sharing.types';
import { credentialNeeds, shareAccessMachine, type ListInput } from './share-access.machine';

const summary = (over: Partial<ShareSummary> = {}): ShareSummary => ({
  title: 'Holiday',
  kind: 'public',
  requireLogin: false,
  hasPassword: false,
  downloadable: true,
  expiresAt: null,
  ...over,
});
const folder: ShareEntry = { id: 'f1', name: 'Album', label: 'folder', size: 0 };
const file: ShareEntry = { id: 'e1', name: 'a.txt', label: 'file', size: 3 };
const page = (data: ShareEntry[]): Page<ShareEntry> => ({ data, totalCount: data.length });

const refusal = (code: string | number, status: number) => new ApiError(code, String(code), null, status);

const start = (
  info: ShareSummary | ApiError,
  list: (input: ListInput) => Promise<Page<ShareEntry>>,
  input: { routeKind?: 'public' | 'private'; viewerEmail?: string | null } = {},
) => {
  const calls: ListInput[] = [];
  const actor = createActor(
    shareAccessMachine.provide({
      actors: {
        loadSummary: fromPromise(async () => {
          if (info instanceof ApiError) throw info;
          return info;
        }),
        listEntries: fromPromise<Page<ShareEntry>, ListInput>(({ input: i }) => {
          calls.push(i);
          return list(i);
        }),
      },
    }),
    { input: { linkId: 'L'.repeat(22), routeKind: input.routeKind ?? 'public', viewerEmail: input.viewerEmail ?? null } },
  ).start();
  const settled = () => waitFor(actor, (s) => !['summary', 'decide', 'listing'].includes(String(s.value)));
  return { actor, calls, settled };
};

describe('share access machine', () => {
  it('opens a share without a password straight to its root listing', async () => {
    const { actor, calls, settled } = start(summary(), async () => page([folder, file]));
    await settled();
    expect(actor.getSnapshot().value).toBe('browsing');
    expect(actor.getSnapshot().context.entries).toEqual([folder, file]);
    expect(calls).toEqual([{ linkId: 'L'.repeat(22), folderId: null, credentials: {} }]);
  });

  it('asks for the password without an error first, shows the wrong password under the field, then opens and stops sending the password', async () => {
    const { actor, calls, settled } = start(summary({ hasPassword: true }), async ({ credentials, folderId }) => {
      if (folderId) return page([file]);
      if (!credentials.password) throw refusal('SHARE_PROTECTED', 403);
      if (credentials.password !== 'right-one') throw refusal(5403, 403);
      return page([folder]);
    });
    await settled();
    expect(actor.getSnapshot().value).toBe('credentials');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
    expect(credentialNeeds(actor.getSnapshot().context)).toEqual({ password: true, email: false });

    actor.send({ type: 'SUBMIT', credentials: { password: 'wrong-one' } });
    await settled();
    expect(actor.getSnapshot().value).toBe('credentials');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ password: 'errors.5403' });

    actor.send({ type: 'SUBMIT', credentials: { password: 'right-one' } });
    await settled();
    expect(actor.getSnapshot().value).toBe('browsing');
    actor.send({ type: 'OPEN_FOLDER', entry: folder });
    await settled();
    expect(actor.getSnapshot().context.path).toEqual([folder]);
    expect(actor.getSnapshot().context.entries).toEqual([file]);
    // The token now stands for the password: the folder call carries none.
    expect(calls.at(-1)).toEqual({ linkId: 'L'.repeat(22), folderId: 'f1', credentials: {} });
  });

  it('a wrong or expired credential while browsing returns to the dialog at the root', async () => {
    let tokenValid = true;
    const { actor, settled } = start(summary({ hasPassword: true }), async ({ folderId }) => {
      if (!tokenValid) throw refusal(5403, 403);
      return page(folderId ? [file] : [folder]);
    });
    await settled();
    actor.send({ type: 'OPEN_FOLDER', entry: folder });
    await settled();
    tokenValid = false;
    actor.send({ type: 'GO_TO', depth: 0 });
    await settled();
    expect(actor.getSnapshot().value).toBe('credentials');
    expect(actor.getSnapshot().context.path).toEqual([]);
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ password: 'errors.5403' });

    tokenValid = true;
    actor.send({ type: 'SUBMIT', credentials: { password: 'again' } });
    await settled();
    actor.send({ type: 'REFUSED', error: refusal(5403, 403).toJSON() });
    expect(actor.getSnapshot().value).toBe('credentials');
  });

  it('a private share sends the signed-in e-mail, and a wrong e-mail is refused under the e-mail field', async () => {
    const { actor, calls, settled } = start(
      summary({ kind: 'private', hasPassword: true }),
      async ({ credentials }) => {
        if (!credentials.email) throw refusal('PRIVATE_SHARE_EMAIL_REQUIRED', 403);
        if (credentials.email !== 'friend@example.com') throw refusal('PRIVATE_SHARE_RECIPIENT_ONLY', 403);
        if (credentials.password !== 'secret-pass') throw refusal('SHARE_PROTECTED', 403);
        return page([file]);
      },
      { routeKind: 'private', viewerEmail: 'stranger@example.com' },
    );
    await settled();
    expect(calls[0]!.credentials).toEqual({ email: 'stranger@example.com' });
    expect(actor.getSnapshot().value).toBe('credentials');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: 'errors.PRIVATE_SHARE_RECIPIENT_ONLY' });
    expect(credentialNeeds(actor.getSnapshot().context)).toEqual({ password: true, email: true });

    actor.send({ type: 'SUBMIT', credentials: { email: 'friend@example.com', password: 'secret-pass' } });
    await settled();
    expect(actor.getSnapshot().value).toBe('browsing');
    // The e-mail stays (the token is bound to it); the password does not.
    expect(actor.getSnapshot().context.credentials).toEqual({ email: 'friend@example.com' });
  });

  it('a login-required share sends an anonymous visitor to sign in before any listing', async () => {
    const { actor, calls, settled } = start(summary({ requireLogin: true }), async () => page([file]));
    await settled();
    expect(actor.getSnapshot().value).toBe('loginRequired');
    expect(calls).toEqual([]);

    const signedIn = start(summary({ requireLogin: true }), async () => page([file]), { viewerEmail: 'me@example.com' });
    await signedIn.settled();
    expect(signedIn.actor.getSnapshot().value).toBe('browsing');
  });

  it.each([
    ['LINK_EXPIRED', 410],
    ['LINK_BLOCKED', 410],
    ['SHARE_NOT_FOUND', 404],
  ])('a %s link ends refused with that reason', async (code, status) => {
    const { actor, settled } = start(refusal(code, status), async () => page([]));
    await settled();
    expect(actor.getSnapshot().value).toBe('refused');
    expect(actor.getSnapshot().context.refusal?.code).toBe(code);
  });

  it('a blocked recipient is refused, and a folder that fails keeps the visitor where they were', async () => {
    const blocked = start(summary(), async () => {
      throw refusal('SHARE_RECIPIENT_BLOCKED', 403);
    });
    await blocked.settled();
    expect(blocked.actor.getSnapshot().value).toBe('refused');

    const { actor, settled } = start(summary(), async ({ folderId }) => {
      if (folderId) throw refusal('FOLDER_NOT_FOUND', 404);
      return page([folder]);
    });
    await settled();
    actor.send({ type: 'OPEN_FOLDER', entry: folder });
    await settled();
    expect(actor.getSnapshot().value).toBe('browsing');
    expect(actor.getSnapshot().context.path).toEqual([]);
    expect(actor.getSnapshot().context.error?.code).toBe('FOLDER_NOT_FOUND');
  });
});
