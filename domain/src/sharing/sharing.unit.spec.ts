import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import { DeciderSpecification } from '../shared/decider.testing';
import { decideShareAccess } from './sharing.access';
import type { ShareCommand } from './sharing.commands';
import { shareDecider } from './sharing.decide';
import { SharingErrors } from './sharing.errors';
import { SHARED_FILE_MAX_BYTES } from './sharing.rules';
import { initialShareState, type ShareState } from './sharing.state';
import type { ShareEvent } from './sharing.events';
import { createShareCommand, fileCandidate } from './sharing.testing';

const now = new Date('2026-11-23T10:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const DAY = 86_400_000;

const given = DeciderSpecification.for(shareDecider);
const history = (commands: ShareCommand[], before: ShareEvent[] = []) => DeciderSpecification.history(shareDecider, commands, before);
const create = (data: Parameters<typeof createShareCommand>[1] = {}) => given([]).when(createShareCommand(now, data));
const privateData = { recipients: ['Ann@Example.com', 'bob@example.com'], message: 'For you', passwordHash: '$argon2id$hash' };
const cmd = (type: string, data: Record<string, unknown> = {}, at = now) =>
  ({ type, data: { actorId: 'owner-1', ...data }, metadata: { now: at } }) as ShareCommand;
const typesOf = (events: ShareEvent[]) => events.map((e) => e.type);
const one = (events: ShareEvent[]) => expect(events).toHaveLength(1);

describe('creating a share', () => {
  it('given picked items, when created, then a public share with their total size, active, without expiry', () => {
    create({ items: [fileCandidate('a', 10), { id: 'd', kind: 'folder', name: 'docs', size: 30, fileCount: 2, largestFileSize: 20 }] }).then(([event]) =>
      expect(event).toMatchObject({
        type: 'ShareCreated',
        data: {
          kind: 'public',
          totalSize: 40,
          expiresAt: null,
          recipients: [],
          items: [
            { id: 'a', kind: 'file' },
            { id: 'd', kind: 'folder', name: 'docs', size: 30 },
          ],
        },
      }),
    );
    create().thenState((state) => expect(state.status).toBe('active'));
  });

  it('refuses an empty folder, and a file over 10 MiB unless the plan has unlimited-shared-file-size', () => {
    create({ items: [{ id: 'd', kind: 'folder', name: 'empty', size: 0, fileCount: 0, largestFileSize: 0 }] }).thenThrows(SharingErrors.emptyFolder);
    create({ items: [fileCandidate('big', SHARED_FILE_MAX_BYTES + 1)] }).thenThrows(SharingErrors.fileTooLarge);
    create({ items: [{ id: 'd', kind: 'folder', name: 'docs', size: 2e7, fileCount: 2, largestFileSize: SHARED_FILE_MAX_BYTES + 1 }] }).thenThrows(
      SharingErrors.fileTooLarge,
    );
    create({ items: [fileCandidate('exact', SHARED_FILE_MAX_BYTES)] }).then(one);
    create({ items: [fileCandidate('big', SHARED_FILE_MAX_BYTES + 1)], unlimitedFileSize: true }).then(one);
  });

  it('private shares: 1 to 10 addresses, not the sender, no duplicates; message, title and password required', () => {
    create(privateData).then(([event]) =>
      expect(event).toMatchObject({ data: { kind: 'private', recipients: ['ann@example.com', 'bob@example.com'], message: 'For you' } }),
    );
    const many = Array.from({ length: 11 }, (_, i) => `r${i}@example.com`);
    create({ ...privateData, recipients: many }).thenThrows(SharingErrors.tooManyRecipients);
    create({ ...privateData, recipients: many.slice(0, 10) }).then(one);
    create({ ...privateData, recipients: ['OWNER@example.com'] }).thenThrows(SharingErrors.ownEmailRecipient);
    create({ ...privateData, recipients: ['a@example.com', ' A@example.com'] }).thenThrows(SharingErrors.duplicateRecipient);
    create({ ...privateData, recipients: ['not-an-address'] }).thenThrows(SharingErrors.invalidRecipient);
    create({ ...privateData, message: ' ' }).thenThrows(SharingErrors.privateFieldsRequired);
    create({ ...privateData, passwordHash: null }).thenThrows(SharingErrors.privateFieldsRequired);
    create({ ...privateData, title: '' }).thenThrows(SharingErrors.privateFieldsRequired);
  });

  it('checks title, notes and expiry', () => {
    create({ title: 'Party 🎉' }).thenThrows(SharingErrors.invalidTitle);
    create({ title: '  ' }).thenThrows(SharingErrors.invalidTitle);
    create({ description: 'see http://x' }).thenThrows(SharingErrors.invalidNote);
    create({ expiresAt: now.toISOString() }).thenThrows(SharingErrors.invalidExpiry);
    create({ expiresAt: later(DAY).toISOString() }).then(([event]) => expect(event).toMatchObject({ data: { expiresAt: later(DAY).toISOString() } }));
  });

  it('an e-signature request needs a plan with eSign', () => {
    create({ esign: true }).thenThrows(SharingErrors.esignNotInPlan);
    create({ esign: true, esignAllowed: true }).then(([event]) => expect(event).toMatchObject({ data: { esign: true } }));
  });

  it('a retried create of the same share appends nothing', () => {
    create().then(one);
    given(history([createShareCommand(now)]))
      .when(createShareCommand(now))
      .thenNothingHappened();
  });
});

describe('owner actions', () => {
  const base = () => history([createShareCommand(now, privateData)]);

  it('edits only what changed, moves the expiry, removes a public password; a private share keeps its password', () => {
    const pub = history([createShareCommand(now, { passwordHash: 'h' })]);
    given(pub)
      .when(cmd('EditShare', { changes: { title: 'Holiday photos', downloadable: false, expiresAt: later(3 * DAY).toISOString(), passwordHash: null } }))
      .thenState((state, events) => {
        expect(events[0]).toMatchObject({ type: 'ShareEdited', data: { downloadable: false, passwordHash: null } });
        expect(events[0]!.data).not.toHaveProperty('title');
        expect(state).toMatchObject({ downloadable: false, passwordHash: null, expiresAt: later(3 * DAY).toISOString() });
      });
    given(pub)
      .when(cmd('EditShare', { changes: { downloadable: true } }))
      .thenNothingHappened();
    given(base())
      .when(cmd('EditShare', { changes: { passwordHash: null } }))
      .thenThrows(SharingErrors.privateFieldsRequired);
  });

  it('only the owner acts on a share; another user is told it does not exist', () => {
    given(base())
      .when(cmd('RevokeShare', { actorId: 'someone' }))
      .thenThrows(SharingErrors.shareNotFound);
    given(base())
      .when(cmd('EditShare', { actorId: 'someone', changes: { title: 'x' } }))
      .thenThrows(SharingErrors.shareNotFound);
  });

  it('revocation is final: no edit, resend or block after it; revoking twice appends once', () => {
    given(base())
      .when(cmd('RevokeShare'))
      .thenState((state, events) => {
        expect(typesOf(events)).toEqual(['ShareRevoked']);
        expect(state.status).toBe('revoked');
      });
    const revoked = history([cmd('RevokeShare')], base());
    given(revoked).when(cmd('RevokeShare')).thenNothingHappened();
    given(revoked)
      .when(cmd('EditShare', { changes: { title: 'x' } }))
      .thenThrows(SharingErrors.alreadyRevoked);
    given(revoked).when(cmd('ResendShare')).thenThrows(SharingErrors.alreadyRevoked);
    given(revoked)
      .when(cmd('BlockRecipient', { email: 'ann@example.com' }))
      .thenThrows(SharingErrors.alreadyRevoked);
  });

  it('blocks and unblocks a recipient, resends to the unblocked ones only', () => {
    given(base())
      .when(cmd('BlockRecipient', { email: 'ANN@example.com' }))
      .then((events) => expect(typesOf(events)).toEqual(['ShareRecipientBlocked']));
    const blocked = history([cmd('BlockRecipient', { email: 'ANN@example.com' })], base());
    given(blocked)
      .when(cmd('BlockRecipient', { email: 'ann@example.com' }))
      .thenNothingHappened();
    given(blocked)
      .when(cmd('ResendShare'))
      .then((events) => {
        expect(typesOf(events)).toEqual(['ShareRecipientsResent']);
        expect(events[0]!.data).toMatchObject({ recipients: ['bob@example.com'] });
      });
    const resent = history([cmd('ResendShare')], blocked);
    given(resent)
      .when(cmd('BlockRecipient', { email: 'stranger@example.com' }))
      .thenThrows(SharingErrors.recipientNotFound);
    given(resent)
      .when(cmd('UnblockRecipient', { email: 'ann@example.com' }))
      .thenState((state, events) => {
        expect(typesOf(events)).toEqual(['ShareRecipientUnblocked']);
        expect(state.status !== 'none' && state.recipients).toEqual([
          { email: 'ann@example.com', blocked: false },
          { email: 'bob@example.com', blocked: false },
        ]);
      });
  });

  it('recipients belong to private shares; a deleted share is gone for every command', () => {
    const pub = history([createShareCommand(now)]);
    given(pub).when(cmd('ResendShare')).thenThrows(SharingErrors.notPrivate);
    given(pub)
      .when(cmd('BlockRecipient', { email: 'a@example.com' }))
      .thenThrows(SharingErrors.notPrivate);
    given(base())
      .when(cmd('DeleteShare'))
      .thenState((state) => expect(state.status).toBe('deleted'));
    const deleted = history([cmd('DeleteShare')], base());
    given(deleted).when(cmd('DeleteShare')).thenThrows(SharingErrors.shareNotFound);
    given(deleted).when(cmd('RevokeShare')).thenThrows(SharingErrors.shareNotFound);
  });

  it('a resend of an expired share is refused', () => {
    given(history([createShareCommand(now, { ...privateData, expiresAt: later(DAY).toISOString() })]))
      .when(cmd('ResendShare', {}, later(2 * DAY)))
      .thenThrows(SharingErrors.linkExpired);
  });
});

describe('decideShareAccess', () => {
  const stateOf = (data: Parameters<typeof createShareCommand>[1] = {}, extra: ShareCommand[] = []): ShareState =>
    fold(shareDecider, history([createShareCommand(now, data), ...extra]));
  const code = (state: ShareState, input: Partial<Parameters<typeof decideShareAccess>[1]> = {}) => {
    const verdict = decideShareAccess(state, { now, viewer: {}, ...input });
    return verdict.ok ? 'ok' : verdict.error.code;
  };

  it('answers each refusal of the catalogue, in order', () => {
    expect(code(initialShareState())).toBe('SHARE_NOT_FOUND');
    expect(code(stateOf({}, [cmd('RevokeShare')]))).toBe('LINK_BLOCKED');
    expect(code(stateOf({}, [cmd('DeleteShare')]))).toBe('SHARE_NOT_FOUND');
    expect(code(stateOf({ expiresAt: later(DAY).toISOString() }), { now: later(DAY) })).toBe('LINK_EXPIRED');
    expect(code(stateOf({ requireLogin: true }))).toBe('SHARE_LOGIN_REQUIRED');
    expect(code(stateOf({ requireLogin: true }), { viewer: { userId: 'u2' } })).toBe('ok');
    const priv = stateOf(privateData, [cmd('BlockRecipient', { email: 'bob@example.com' })]);
    // the password first: without it, a recipient, a stranger and a blocked recipient hear the same
    expect(code(priv)).toBe('SHARE_PROTECTED');
    for (const email of ['ANN@example.com', 'eve@example.com', 'bob@example.com']) {
      expect(code(priv, { viewer: { email } })).toBe('SHARE_PROTECTED');
      expect(code(priv, { viewer: { email }, passwordOk: false })).toBe(SharingErrors.wrongPassword.code);
    }
    expect(code(priv, { passwordOk: true })).toBe('PRIVATE_SHARE_EMAIL_REQUIRED');
    expect(code(priv, { viewer: { email: 'eve@example.com' }, passwordOk: true })).toBe('PRIVATE_SHARE_RECIPIENT_ONLY');
    expect(code(priv, { viewer: { email: 'bob@example.com' }, passwordOk: true })).toBe('SHARE_RECIPIENT_BLOCKED');
    expect(code(priv, { viewer: { email: 'ann@example.com' }, passwordOk: true })).toBe('ok');
    expect(code(stateOf())).toBe('ok');
  });

  it('the owner opens their live share without password or recipient checks, but not a revoked or expired one', () => {
    const priv = stateOf({ ...privateData, expiresAt: later(DAY).toISOString() });
    expect(code(priv, { viewer: { userId: 'owner-1' } })).toBe('ok');
    expect(code(priv, { viewer: { userId: 'owner-1' }, now: later(DAY) })).toBe('LINK_EXPIRED');
  });
});

describe('expiry reminders', () => {
  const remind = (daysLeft: number, expiresAt: string, at = now) =>
    ({ type: 'RemindShareExpiry', data: { daysLeft, expiresAt }, metadata: { now: at } }) as ShareCommand;
  const expiresAt = later(10 * DAY).toISOString();

  it('reminds while the share still expires then; never after an edit moved it, a revocation, or the expiry', () => {
    const events = history([createShareCommand(now, { expiresAt })]);
    given(events)
      .when(remind(7, expiresAt, later(3 * DAY)))
      .then((reminded) =>
        expect(reminded.at(-1)).toMatchObject({
          type: 'ShareExpiryReminded',
          data: { ownerId: 'owner-1', daysLeft: 7, expiresAt },
        }),
      );
    const move = cmd('EditShare', { changes: { expiresAt: later(20 * DAY).toISOString() } });
    given(events)
      .when(move)
      .then((edited) => expect(typesOf(edited)).toEqual(['ShareEdited']));
    given(history([move], events))
      .when(remind(7, expiresAt))
      .thenNothingHappened();
    given(events)
      .when(cmd('RevokeShare'))
      .then((revoked) => expect(typesOf(revoked)).toEqual(['ShareRevoked']));
    given(history([cmd('RevokeShare')], events))
      .when(remind(1, expiresAt))
      .thenNothingHappened();
    given(events)
      .when(remind(1, expiresAt, later(11 * DAY)))
      .thenNothingHappened();
  });
});

describe("forgetting a purged owner's shares", () => {
  it('forgets a share once, in any state, and nothing acts on it afterwards', () => {
    const forget = { type: 'ForgetShare', data: {}, metadata: { now } } as ShareCommand;
    for (const before of [[], [cmd('RevokeShare')], [cmd('DeleteShare')]]) {
      const share = history([createShareCommand(now), ...before]);
      given(share)
        .when(forget)
        .thenState((state, events) => {
          expect(events.filter((e) => e.type === 'ShareForgotten')).toHaveLength(1);
          expect(state).toMatchObject({ status: 'deleted', forgotten: true });
        });
      const forgotten = history([forget], share);
      given(forgotten).when(forget).thenNothingHappened();
      given(forgotten).when(cmd('RevokeShare')).thenThrows(SharingErrors.shareNotFound);
    }
    given([]).when(forget).thenNothingHappened();
  });
});
