import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import { decideShareAccess } from './sharing.access';
import type { ShareCommand } from './sharing.commands';
import { shareDecider } from './sharing.decide';
import { SharingErrors } from './sharing.errors';
import { SHARED_FILE_MAX_BYTES } from './sharing.rules';
import { initialShareState, type ShareState } from './sharing.state';
import { createShareCommand, fileCandidate, runShare } from './sharing.testing';

const now = new Date('2026-11-23T10:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const DAY = 86_400_000;

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof DomainError ? error.code : error;
  }
  return null;
};
const created = (data: Parameters<typeof createShareCommand>[1] = {}) => shareDecider.decide(createShareCommand(now, data), initialShareState());
const privateData = { recipients: ['Ann@Example.com', 'bob@example.com'], message: 'For you', passwordHash: '$argon2id$hash' };
const cmd = (type: string, data: Record<string, unknown> = {}, at = now) =>
  ({ type, data: { actorId: 'owner-1', ...data }, metadata: { now: at } }) as ShareCommand;

describe('creating a share', () => {
  it('given picked items, when created, then a public share with their total size, active, without expiry', () => {
    const [event] = created({ items: [fileCandidate('a', 10), { id: 'd', kind: 'folder', name: 'docs', size: 30, fileCount: 2, largestFileSize: 20 }] });
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
    });
    const { state } = runShare([createShareCommand(now)]);
    expect(state.status).toBe('active');
  });

  it('refuses an empty folder, and a file over 10 MiB unless the plan has unlimited-shared-file-size', () => {
    expect(refusal(() => created({ items: [{ id: 'd', kind: 'folder', name: 'empty', size: 0, fileCount: 0, largestFileSize: 0 }] }))).toBe(
      'EMPTY_FOLDER_SHARE',
    );
    expect(refusal(() => created({ items: [fileCandidate('big', SHARED_FILE_MAX_BYTES + 1)] }))).toBe('SHARED_FILE_TOO_LARGE');
    expect(
      refusal(() => created({ items: [{ id: 'd', kind: 'folder', name: 'docs', size: 2e7, fileCount: 2, largestFileSize: SHARED_FILE_MAX_BYTES + 1 }] })),
    ).toBe('SHARED_FILE_TOO_LARGE');
    expect(created({ items: [fileCandidate('exact', SHARED_FILE_MAX_BYTES)] })).toHaveLength(1);
    expect(created({ items: [fileCandidate('big', SHARED_FILE_MAX_BYTES + 1)], unlimitedFileSize: true })).toHaveLength(1);
  });

  it('private shares: 1 to 10 addresses, not the sender, no duplicates; message, title and password required', () => {
    const [event] = created(privateData);
    expect(event).toMatchObject({ data: { kind: 'private', recipients: ['ann@example.com', 'bob@example.com'], message: 'For you' } });
    const many = Array.from({ length: 11 }, (_, i) => `r${i}@example.com`);
    expect(refusal(() => created({ ...privateData, recipients: many }))).toBe('TOO_MANY_RECIPIENTS');
    expect(created({ ...privateData, recipients: many.slice(0, 10) })).toHaveLength(1);
    expect(refusal(() => created({ ...privateData, recipients: ['OWNER@example.com'] }))).toBe('OWN_EMAIL_RECIPIENT');
    expect(refusal(() => created({ ...privateData, recipients: ['a@example.com', ' A@example.com'] }))).toBe('DUPLICATE_RECIPIENT');
    expect(refusal(() => created({ ...privateData, recipients: ['not-an-address'] }))).toBe('INVALID_RECIPIENT');
    expect(refusal(() => created({ ...privateData, message: ' ' }))).toBe('PRIVATE_SHARE_FIELDS_REQUIRED');
    expect(refusal(() => created({ ...privateData, passwordHash: null }))).toBe('PRIVATE_SHARE_FIELDS_REQUIRED');
    expect(refusal(() => created({ ...privateData, title: '' }))).toBe('PRIVATE_SHARE_FIELDS_REQUIRED');
  });

  it('checks title, notes and expiry', () => {
    expect(refusal(() => created({ title: 'Party 🎉' }))).toBe('INVALID_TITLE');
    expect(refusal(() => created({ title: '  ' }))).toBe('INVALID_TITLE');
    expect(refusal(() => created({ description: 'see http://x' }))).toBe('INVALID_NOTE');
    expect(refusal(() => created({ expiresAt: now.toISOString() }))).toBe('INVALID_EXPIRY');
    expect(created({ expiresAt: later(DAY).toISOString() })[0]).toMatchObject({ data: { expiresAt: later(DAY).toISOString() } });
  });

  it('an e-signature request needs a plan with eSign', () => {
    expect(refusal(() => created({ esign: true }))).toBe('ESIGN_NOT_IN_PLAN');
    expect(created({ esign: true, esignAllowed: true })[0]).toMatchObject({ data: { esign: true } });
  });

  it('a retried create of the same share appends nothing', () => {
    const { events } = runShare([createShareCommand(now), createShareCommand(now)]);
    expect(events).toHaveLength(1);
  });
});

describe('owner actions', () => {
  const base = () => runShare([createShareCommand(now, privateData)]).events;

  it('edits only what changed, moves the expiry, removes a public password; a private share keeps its password', () => {
    const pub = runShare([createShareCommand(now, { passwordHash: 'h' })]).events;
    const { events, state } = runShare(
      [cmd('EditShare', { changes: { title: 'Holiday photos', downloadable: false, expiresAt: later(3 * DAY).toISOString(), passwordHash: null } })],
      pub,
    );
    expect(events[1]).toMatchObject({ type: 'ShareEdited', data: { downloadable: false, passwordHash: null } });
    expect(events[1]!.data).not.toHaveProperty('title');
    expect(state).toMatchObject({ downloadable: false, passwordHash: null, expiresAt: later(3 * DAY).toISOString() });
    expect(runShare([cmd('EditShare', { changes: { downloadable: true } })], pub).events).toHaveLength(1);
    expect(runShare([cmd('EditShare', { changes: { passwordHash: null } })], base()).errors.map((e) => (e as DomainError).code)).toEqual([
      'PRIVATE_SHARE_FIELDS_REQUIRED',
    ]);
  });

  it('only the owner acts on a share; another user is told it does not exist', () => {
    const { errors } = runShare([cmd('RevokeShare', { actorId: 'someone' }), cmd('EditShare', { actorId: 'someone', changes: { title: 'x' } })], base());
    expect(errors.map((e) => (e as DomainError).code)).toEqual(['SHARE_NOT_FOUND', 'SHARE_NOT_FOUND']);
  });

  it('revocation is final: no edit, resend or block after it; revoking twice appends once', () => {
    const { events, errors, state } = runShare(
      [
        cmd('RevokeShare'),
        cmd('RevokeShare'),
        cmd('EditShare', { changes: { title: 'x' } }),
        cmd('ResendShare'),
        cmd('BlockRecipient', { email: 'ann@example.com' }),
      ],
      base(),
    );
    expect(events.map((e) => e.type)).toEqual(['ShareCreated', 'ShareRevoked']);
    expect(errors.map((e) => (e as DomainError).code)).toEqual(['SHARE_ALREADY_REVOKED', 'SHARE_ALREADY_REVOKED', 'SHARE_ALREADY_REVOKED']);
    expect(state.status).toBe('revoked');
  });

  it('blocks and unblocks a recipient, resends to the unblocked ones only', () => {
    const { events, state, errors } = runShare(
      [
        cmd('BlockRecipient', { email: 'ANN@example.com' }),
        cmd('BlockRecipient', { email: 'ann@example.com' }),
        cmd('ResendShare'),
        cmd('BlockRecipient', { email: 'stranger@example.com' }),
        cmd('UnblockRecipient', { email: 'ann@example.com' }),
      ],
      base(),
    );
    expect(events.map((e) => e.type)).toEqual(['ShareCreated', 'ShareRecipientBlocked', 'ShareRecipientsResent', 'ShareRecipientUnblocked']);
    expect(events[2]!.data).toMatchObject({ recipients: ['bob@example.com'] });
    expect(errors.map((e) => (e as DomainError).code)).toEqual(['RECIPIENT_NOT_FOUND']);
    expect(state.status !== 'none' && state.recipients).toEqual([
      { email: 'ann@example.com', blocked: false },
      { email: 'bob@example.com', blocked: false },
    ]);
  });

  it('recipients belong to private shares; a deleted share is gone for every command', () => {
    const pub = runShare([createShareCommand(now)]).events;
    expect(runShare([cmd('ResendShare'), cmd('BlockRecipient', { email: 'a@example.com' })], pub).errors.map((e) => (e as DomainError).code)).toEqual([
      'NOT_PRIVATE_SHARE',
      'NOT_PRIVATE_SHARE',
    ]);
    const { errors, state } = runShare([cmd('DeleteShare'), cmd('DeleteShare'), cmd('RevokeShare')], base());
    expect(state.status).toBe('deleted');
    expect(errors.map((e) => (e as DomainError).code)).toEqual(['SHARE_NOT_FOUND', 'SHARE_NOT_FOUND']);
  });

  it('a resend of an expired share is refused', () => {
    const events = runShare([createShareCommand(now, { ...privateData, expiresAt: later(DAY).toISOString() })]).events;
    expect(runShare([cmd('ResendShare', {}, later(2 * DAY))], events).errors.map((e) => (e as DomainError).code)).toEqual(['LINK_EXPIRED']);
  });
});

describe('decideShareAccess', () => {
  const stateOf = (data: Parameters<typeof createShareCommand>[1] = {}, extra: ShareCommand[] = []): ShareState =>
    runShare([createShareCommand(now, data), ...extra]).state;
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
    const events = runShare([createShareCommand(now, { expiresAt })]).events;
    expect(runShare([remind(7, expiresAt, later(3 * DAY))], events).events.at(-1)).toMatchObject({
      type: 'ShareExpiryReminded',
      data: { ownerId: 'owner-1', daysLeft: 7, expiresAt },
    });
    const moved = runShare([cmd('EditShare', { changes: { expiresAt: later(20 * DAY).toISOString() } }), remind(7, expiresAt)], events).events;
    expect(moved.map((e) => e.type)).toEqual(['ShareCreated', 'ShareEdited']);
    expect(runShare([cmd('RevokeShare'), remind(1, expiresAt)], events).events.map((e) => e.type)).toEqual(['ShareCreated', 'ShareRevoked']);
    expect(runShare([remind(1, expiresAt, later(11 * DAY))], events).events).toHaveLength(1);
  });
});

describe("forgetting a purged owner's shares", () => {
  it('forgets a share once, in any state, and nothing acts on it afterwards', () => {
    const forget = { type: 'ForgetShare', data: {}, metadata: { now } } as ShareCommand;
    for (const before of [[], [cmd('RevokeShare')], [cmd('DeleteShare')]]) {
      const { events, state, errors } = runShare([createShareCommand(now), ...before, forget, forget, cmd('RevokeShare')]);
      expect(events.filter((e) => e.type === 'ShareForgotten')).toHaveLength(1);
      expect(state).toMatchObject({ status: 'deleted', forgotten: true });
      expect(errors.map((e) => (e as DomainError).code)).toEqual(['SHARE_NOT_FOUND']);
    }
    expect(runShare([forget]).events).toEqual([]);
  });
});
