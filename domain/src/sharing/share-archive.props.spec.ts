import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { DomainError } from '../shared/errors';
import { checkSharedFileSize, decideShareArchiveHandOut, decideShareArchiveServe, sharedFileSizeProblem, type ShareArchiveBinding } from './share-archive';
import { SHARED_FILE_MAX_BYTES } from './sharing.rules';
import type { ShareRecord, ShareState } from './sharing.state';

/*
 * Invariants over any mix of shares, visits and archive tasks: an archive's URL goes only to the
 * visit of the share that made it, and its bytes leave only while that share, as it is now, still
 * lets that visit in under the password it was made under; a shared file over 10 MiB never leaves
 * without the permission.
 */

const NOW = new Date(Date.UTC(2026, 10, 27, 12));
const SHARES = ['s1', 's2', 's3'] as const;
const VISITS = ['v1', 'v2', 'owner-o1', 'owner-o2'] as const;
const USERS = [null, 'o1', 'o2', 'u1'] as const;
const EMAILS = [null, 'a@example.com', 'b@example.com'] as const;
const STAMPS = ['', 'p1', 'p2'] as const;

const binding = fc.record({
  shareId: fc.constantFrom(...SHARES),
  visitId: fc.constantFrom(...VISITS),
  email: fc.constantFrom(...EMAILS),
  userId: fc.constantFrom(...USERS),
  passwordStamp: fc.constantFrom(...STAMPS),
});

const share: fc.Arbitrary<ShareState> = fc.oneof(
  fc.constant<ShareState>({ status: 'none' }),
  fc
    .record({
      status: fc.constantFrom('active' as const, 'revoked' as const, 'deleted' as const),
      id: fc.constantFrom(...SHARES),
      ownerId: fc.constantFrom('o1', 'o2'),
      kind: fc.constantFrom('public' as const, 'private' as const),
      expiresInMinutes: fc.option(fc.integer({ min: -60, max: 60 }), { nil: null }),
      downloadable: fc.boolean(),
      requireLogin: fc.boolean(),
      passwordHash: fc.constantFrom(null, 'hash-1'),
      recipients: fc.subarray([
        { email: 'a@example.com', blocked: false },
        { email: 'b@example.com', blocked: true },
      ]),
    })
    .map(
      (r): ShareRecord => ({
        status: r.status,
        id: r.id,
        linkId: `link-${r.id}`,
        ownerId: r.ownerId,
        storageId: 'st',
        kind: r.kind,
        title: 't',
        description: null,
        message: null,
        expiresAt: r.expiresInMinutes === null ? null : new Date(NOW.getTime() + r.expiresInMinutes * 60_000).toISOString(),
        downloadable: r.downloadable,
        requireLogin: r.requireLogin,
        esign: false,
        passwordHash: r.passwordHash,
        recipients: r.recipients,
        items: [],
        totalSize: 0,
        createdAt: NOW.toISOString(),
        modifiedAt: NOW.toISOString(),
        revokedAt: null,
        deletedAt: null,
      }),
    ),
);

/** The rules written out plainly, as the oracle. */
const mayServe = (b: ShareArchiveBinding, s: ShareState, stamp: string): boolean => {
  if (s.status !== 'active' || s.id !== b.shareId) return false;
  if (s.expiresAt !== null && Date.parse(s.expiresAt) <= NOW.getTime()) return false;
  if (b.userId === s.ownerId) return true;
  if (s.requireLogin && !b.userId) return false;
  if (b.passwordStamp !== stamp) return false;
  if (s.kind === 'private' && !s.recipients.some((r) => r.email === b.email && !r.blocked)) return false;
  return s.downloadable;
};

describe('share archives', () => {
  test.prop([fc.option(binding, { nil: null }), fc.constantFrom(...SHARES), fc.constantFrom(...VISITS)])(
    'hand a URL only to the visit of the share that made the archive',
    (b, shareId, visitId) => {
      const verdict = decideShareArchiveHandOut(b, { shareId, visitId });
      expect(verdict.ok).toBe(b !== null && b.shareId === shareId && b.visitId === visitId);
      if (!verdict.ok) expect(verdict.error.code).toBe('TASK_NOT_FOUND');
    },
  );

  test.prop([binding, share, fc.constantFrom(...STAMPS)])('serve bytes only while the share still lets the visit in', (b, s, stamp) => {
    const verdict = decideShareArchiveServe(b, s, { now: NOW, passwordStamp: stamp });
    expect(verdict.ok).toBe(mayServe(b, s, stamp));
  });

  test.prop([binding, share, fc.constantFrom(...STAMPS), fc.constantFrom(...SHARES)])(
    'never serve one share through another, nor after revocation, deletion or expiry',
    (b, s, stamp, other) => {
      fc.pre(other !== b.shareId);
      const through = s.status === 'none' ? s : { ...s, id: other };
      expect(decideShareArchiveServe(b, through, { now: NOW, passwordStamp: stamp }).ok).toBe(false);
      if (s.status !== 'none') {
        const same = { ...s, id: b.shareId };
        expect(decideShareArchiveServe(b, { ...same, status: 'revoked' }, { now: NOW, passwordStamp: stamp }).ok).toBe(false);
        expect(decideShareArchiveServe(b, { ...same, status: 'deleted' }, { now: NOW, passwordStamp: stamp }).ok).toBe(false);
        expect(decideShareArchiveServe(b, { ...same, expiresAt: NOW.toISOString() }, { now: NOW, passwordStamp: stamp }).ok).toBe(false);
      }
    },
  );

  test.prop([fc.integer({ min: 0, max: 4 * SHARED_FILE_MAX_BYTES }), fc.boolean()])('let no file over 10 MiB out without the permission', (size, unlimited) => {
    const allowed = unlimited || size <= SHARED_FILE_MAX_BYTES;
    expect(sharedFileSizeProblem(size, unlimited) === null).toBe(allowed);
    const check = () => checkSharedFileSize({ id: 'f', size }, unlimited);
    if (allowed) expect(check).not.toThrow();
    else expect(check).toThrow(DomainError);
  });
});
