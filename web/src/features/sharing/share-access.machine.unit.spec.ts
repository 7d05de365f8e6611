import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import type { Page } from './sharing.api';
import type { ShareEntry, ShareGate, ShareSummary } from './sharing.types';
import type { ShareCredentials } from './share-link.api';
import { credentialNeeds, shareAccessMachine, type ListInput, type SummaryInput } from './share-access.machine';

const LINK = 'L'.repeat(22);
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

const refusal = (code: string | number, status: number, gate?: Partial<ShareGate>) =>
  new ApiError(
    code,
    String(code),
    gate ? { shareLinkId: LINK, kind: 'public', requireLogin: false, hasPassword: false, expiresAt: null, ...gate } : null,
    status,
  );

/**
 * A stand-in for the server's rule (docs/api-sharing.md): every call is let in by a valid token,
 * else by the credentials; the first call let in answers a token. Password "right-one";
 * recipient friend@example.com for a private share.
 */
const server = (gate: ShareGate, options: { entries?: (folderId: string | null) => ShareEntry[] } = {}) => {
  let token: string | null = null;
  const tokenIssued: string[] = [];
  const letIn = (credentials: ShareCredentials) => {
    if (token && !credentials.password) return;
    if (gate.kind === 'private') {
      if (!credentials.email) throw refusal('PRIVATE_SHARE_EMAIL_REQUIRED', 403, gate);
      if (credentials.email !== 'friend@example.com') throw refusal('PRIVATE_SHARE_RECIPIENT_ONLY', 403, gate);
    }
    if (gate.hasPassword) {
      if (!credentials.password) throw refusal('SHARE_PROTECTED', 403, gate);
      if (credentials.password !== 'right-one') throw refusal(5403, 403, gate);
    }
    token = `token-${tokenIssued.length + 1}`;
    tokenIssued.push(token);
  };
  return {
    tokenIssued,
    expireToken: () => (token = null),
    summary: async ({ credentials }: SummaryInput) => {
      letIn(credentials);
      return summary(gate);
    },
    list: async ({ credentials, folderId }: ListInput) => {
      letIn(credentials);
      return page(options.entries ? options.entries(folderId) : folderId ? [file] : [folder]);
    },
  };
};

const start = (
  impl: { summary: (i: SummaryInput) => Promise<ShareSummary>; list: (i: ListInput) => Promise<Page<ShareEntry>> },
  input: { routeKind?: 'public' | 'private'; viewerEmail?: string | null } = {},
) => {
  const calls: { summary: SummaryInput[]; list: ListInput[] } = { summary: [], list: [] };
  const actor = createActor(
    shareAccessMachine.provide({
      actors: {
        loadSummary: fromPromise<ShareSummary, SummaryInput>(({ input: i }) => {
          calls.summary.push(i);
          return impl.summary(i);
        }),
        listEntries: fromPromise<Page<ShareEntry>, ListInput>(({ input: i }) => {
          calls.list.push(i);
          return impl.list(i);
        }),
      },
    }),
    { input: { linkId: LINK, routeKind: input.routeKind ?? 'public', viewerEmail: input.viewerEmail ?? null } },
  ).start();
  const settled = () => waitFor(actor, (s) => !['summary', 'decide', 'listing'].includes(String(s.value)));
  return { actor, calls, settled };
};

const gate = (over: Partial<ShareGate> = {}): ShareGate => ({ kind: 'public', requireLogin: false, hasPassword: false, expiresAt: null, ...over });

describe('share access machine', () => {
  it('opens a share without a password straight to its root listing', async () => {
    const s = server(gate());
    const { actor, calls, settled } = start(s);
    await settled();
    expect(actor.getSnapshot().value).toBe('browsing');
    expect(actor.getSnapshot().context.entries).toEqual([folder]);
    expect(calls.list).toEqual([{ linkId: LINK, folderId: null, credentials: {} }]);
    expect(s.tokenIssued).toEqual(['token-1']);
  });

  it('asks for the password without an error first, shows a wrong one under the field, then opens once and never sends the password again', async () => {
    const s = server(gate({ hasPassword: true }));
    const { actor, calls, settled } = start(s);
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
    expect(actor.getSnapshot().context.summary?.title).toBe('Holiday');
    actor.send({ type: 'OPEN_FOLDER', entry: folder });
    await settled();
    expect(actor.getSnapshot().context.path).toEqual([folder]);
    expect(actor.getSnapshot().context.entries).toEqual([file]);
    // One visit: the password went out once, the calls after it carry none (the token stands for it).
    expect(s.tokenIssued).toEqual(['token-1']);
    expect(calls.list.map((c) => c.credentials)).toEqual([{}, {}]);
  });

  it('a token that expires while browsing returns to the dialog at the root, and the password opens again', async () => {
    const s = server(gate({ hasPassword: true }));
    const { actor, settled } = start(s);
    await settled();
    actor.send({ type: 'SUBMIT', credentials: { password: 'right-one' } });
    await settled();
    actor.send({ type: 'OPEN_FOLDER', entry: folder });
    await settled();
    s.expireToken();
    actor.send({ type: 'GO_TO', depth: 0 });
    await settled();
    expect(actor.getSnapshot().value).toBe('credentials');
    expect(actor.getSnapshot().context.path).toEqual([]);

    actor.send({ type: 'SUBMIT', credentials: { password: 'right-one' } });
    await settled();
    expect(actor.getSnapshot().value).toBe('browsing');
    // A download refused for its credential (the page reports it) goes back to the dialog too.
    actor.send({ type: 'REFUSED', error: refusal(5403, 403).toJSON() });
    expect(actor.getSnapshot().value).toBe('credentials');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ password: 'errors.5403' });
  });

  it('a private share sends the signed-in e-mail, refuses a wrong one under the e-mail field, and keeps the right one', async () => {
    const s = server(gate({ kind: 'private', hasPassword: true }));
    const { actor, calls, settled } = start(s, { routeKind: 'private', viewerEmail: 'stranger@example.com' });
    await settled();
    expect(calls.summary[0]!.credentials).toEqual({ email: 'stranger@example.com' });
    expect(actor.getSnapshot().value).toBe('credentials');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: 'errors.PRIVATE_SHARE_RECIPIENT_ONLY' });
    expect(credentialNeeds(actor.getSnapshot().context)).toEqual({ password: true, email: true });

    actor.send({ type: 'SUBMIT', credentials: { email: 'friend@example.com', password: 'right-one' } });
    await settled();
    expect(actor.getSnapshot().value).toBe('browsing');
    expect(actor.getSnapshot().context.credentials).toEqual({ email: 'friend@example.com' });
  });

  it('an anonymous visitor of a private share is asked for e-mail and password from the refusal alone', async () => {
    const s = server(gate({ kind: 'private', hasPassword: true }));
    const { actor, settled } = start(s, { routeKind: 'public' });
    await settled();
    expect(actor.getSnapshot().value).toBe('credentials');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
    expect(credentialNeeds(actor.getSnapshot().context)).toEqual({ password: true, email: true });
  });

  it('a login-required share sends an anonymous visitor to sign in; a signed-in one gets in', async () => {
    const { actor, calls, settled } = start({
      summary: async () => {
        throw refusal('SHARE_LOGIN_REQUIRED', 401, { requireLogin: true });
      },
      list: async () => page([file]),
    });
    await settled();
    expect(actor.getSnapshot().value).toBe('loginRequired');
    expect(calls.list).toEqual([]);

    const signedIn = start(server(gate({ requireLogin: true })), { viewerEmail: 'me@example.com' });
    await signedIn.settled();
    expect(signedIn.actor.getSnapshot().value).toBe('browsing');
  });

  it.each([
    ['LINK_EXPIRED', 410],
    ['LINK_BLOCKED', 410],
    ['SHARE_NOT_FOUND', 404],
    ['SHARE_RECIPIENT_BLOCKED', 403],
  ])('a %s link ends refused with that reason', async (code, status) => {
    const { actor, calls, settled } = start({
      summary: async () => {
        throw refusal(code, status);
      },
      list: async () => page([]),
    });
    await settled();
    expect(actor.getSnapshot().value).toBe('refused');
    expect(actor.getSnapshot().context.refusal?.code).toBe(code);
    expect(calls.list).toEqual([]);
  });

  it('a folder that fails keeps the visitor where they were, with the reason', async () => {
    const s = server(gate(), {
      entries: (folderId) => {
        if (folderId) throw refusal('FOLDER_NOT_FOUND', 404);
        return [folder];
      },
    });
    const { actor, settled } = start(s);
    await settled();
    actor.send({ type: 'OPEN_FOLDER', entry: folder });
    await settled();
    expect(actor.getSnapshot().value).toBe('browsing');
    expect(actor.getSnapshot().context.path).toEqual([]);
    expect(actor.getSnapshot().context.error?.code).toBe('FOLDER_NOT_FOUND');
  });
});
