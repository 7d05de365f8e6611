import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { shareCounterDecider, type ShareCounterEvent } from './share-counter';
import { decideShareAccess } from './sharing.access';
import type { ShareCommand } from './sharing.commands';
import { createShareCommand, runShare } from './sharing.testing';

/*
 * Whatever the owner does to a share, in any order and at any time:
 * - a share is never readable at or after its expiry, nor after revocation or deletion, by anyone
 *   with any credential (revocation and deletion are final);
 * - a private share is never readable by an e-mail outside its recipients;
 * - the monthly counter never lets more shares through than the plan allows, however concurrent
 *   creates interleave their reads and appends.
 */

const T0 = Date.parse('2026-11-01T00:00:00Z');
const HOUR = 3_600_000;
const recipients = ['ann@example.com', 'bob@example.com', 'cy@example.com'];
const emails = [...recipients, 'ANN@example.com', 'eve@example.com', 'owner@example.com', 'mallory@example.org'];

const at = fc.integer({ min: 0, max: 400 }).map((h) => new Date(T0 + h * HOUR));
const expiry = fc.option(
  fc.integer({ min: 1, max: 400 }).map((h) => new Date(T0 + h * HOUR).toISOString()),
  { nil: null },
);
const actor = fc.constantFrom('owner-1', 'owner-1', 'owner-1', 'other');

const ownerCommand: fc.Arbitrary<ShareCommand> = fc.oneof(
  fc.record({
    type: fc.constant('EditShare' as const),
    data: fc.record({
      actorId: actor,
      changes: fc.record(
        { expiresAt: expiry, downloadable: fc.boolean(), requireLogin: fc.boolean(), passwordHash: fc.option(fc.constant('h2'), { nil: null }) },
        { requiredKeys: [] },
      ),
    }),
    metadata: at.map((now) => ({ now })),
  }),
  fc.record({
    type: fc.constantFrom('RevokeShare' as const, 'DeleteShare' as const, 'ResendShare' as const),
    data: fc.record({ actorId: actor }),
    metadata: at.map((now) => ({ now })),
  }),
  fc.record({
    type: fc.constantFrom('BlockRecipient' as const, 'UnblockRecipient' as const),
    data: fc.record({ actorId: actor, email: fc.constantFrom(...emails) }),
    metadata: at.map((now) => ({ now })),
  }),
);

const viewer = fc.record({
  userId: fc.option(fc.constantFrom('owner-1', 'u2', 'u3'), { nil: null }),
  email: fc.option(fc.constantFrom(...emails), { nil: null }),
});
const passwordOk = fc.option(fc.boolean(), { nil: null });

describe('share access invariants', () => {
  it('never readable at or after expiry, nor after revocation or deletion, by anyone', () => {
    fc.assert(
      fc.property(fc.boolean(), expiry, fc.array(ownerCommand, { maxLength: 12 }), at, viewer, passwordOk, (isPrivate, expiresAt, commands, now, who, pw) => {
        const create = createShareCommand(new Date(T0), { expiresAt, ...(isPrivate ? { recipients, message: 'hi', passwordHash: 'h' } : {}) });
        const { events, state } = runShare([create, ...commands]);
        const verdict = decideShareAccess(state, { now, viewer: who, passwordOk: pw });
        if (state.status === 'none') return;
        const ended = events.some((e) => e.type === 'ShareRevoked' || e.type === 'ShareDeleted');
        if (ended) expect(verdict.ok).toBe(false);
        if (state.expiresAt !== null && now.getTime() >= Date.parse(state.expiresAt)) expect(verdict.ok).toBe(false);
        if (verdict.ok) expect(state.status).toBe('active');
      }),
      { numRuns: 500 },
    );
  });

  it('a private share is never readable by an e-mail outside its recipients (unless the owner signs in)', () => {
    fc.assert(
      fc.property(fc.array(ownerCommand, { maxLength: 12 }), at, viewer, passwordOk, (commands, now, who, pw) => {
        const { state } = runShare([createShareCommand(new Date(T0), { recipients: recipients.slice(0, 2), message: 'hi', passwordHash: 'h' }), ...commands]);
        const verdict = decideShareAccess(state, { now, viewer: who, passwordOk: pw });
        if (!verdict.ok || who.userId === 'owner-1') return;
        const email = who.email?.toLowerCase();
        expect(['ann@example.com', 'bob@example.com']).toContain(email);
        expect(state.status !== 'none' && state.recipients.find((r) => r.email === email)?.blocked).toBe(false);
        expect(pw).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('probing the recipients', () => {
  it('without the right password, the answer for a private share is the same whatever e-mail is given', () => {
    fc.assert(
      fc.property(fc.array(ownerCommand, { maxLength: 12 }), at, viewer, fc.constantFrom(null, false), (commands, now, who, pw) => {
        const { state } = runShare([createShareCommand(new Date(T0), { recipients: recipients.slice(0, 2), message: 'hi', passwordHash: 'h' }), ...commands]);
        if (who.userId === 'owner-1') return;
        const answers = emails.map((email) => decideShareAccess(state, { now, viewer: { ...who, email }, passwordOk: pw }));
        const asked = decideShareAccess(state, { now, viewer: { ...who, email: null }, passwordOk: pw });
        for (const answer of answers) expect(answer).toEqual(asked);
      }),
      { numRuns: 300 },
    );
  });
});

describe('monthly counter under concurrency', () => {
  /*
   * Clients each create one share: read the stream (events and revision), decide, append if the
   * revision is still the one read, else read again. The scheduler interleaves reads and appends
   * in any order, as parallel requests do.
   */
  it('never counts more shares than the plan allows, and refuses only when the plan is used up', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.nat(), { minLength: 200, maxLength: 200 }),
        (used, limit, clients, schedule) => {
          const now = new Date(T0);
          let stream: ShareCounterEvent[] = [];
          for (let i = 0; i < used; i++)
            stream.push({ type: 'ShareCounted', data: { shareId: `old${i}`, userId: 'u', period: '2026-11', countedAt: now.toISOString() } });
          type Client = { shareId: string; read: { revision: number; events: ShareCounterEvent[] } | null; outcome: 'pending' | 'passed' | 'refused' };
          const cs: Client[] = Array.from({ length: clients }, (_, i) => ({ shareId: `new${i}`, read: null, outcome: 'pending' }));
          let step = 0;
          while (cs.some((c) => c.outcome === 'pending')) {
            const pending = cs.filter((c) => c.outcome === 'pending');
            const c = pending[(schedule[step++ % schedule.length] ?? 0) % pending.length]!;
            if (!c.read) {
              c.read = { revision: stream.length, events: stream };
              continue;
            }
            try {
              const events = shareCounterDecider.decide(
                { type: 'CountShare', data: { shareId: c.shareId, userId: 'u', limit }, metadata: { now } },
                fold(shareCounterDecider, c.read.events),
              );
              if (c.read.revision !== stream.length) {
                c.read = null; // wrong expected revision: read again
                continue;
              }
              stream = [...stream, ...events];
              c.outcome = 'passed';
            } catch (error) {
              expect(error).toBeInstanceOf(DomainError);
              expect((error as DomainError).code).toBe('SHARE_LIMIT_REACHED');
              c.outcome = 'refused';
            }
          }
          const passed = cs.filter((c) => c.outcome === 'passed').length;
          if (limit !== null) {
            expect(stream.length).toBeLessThanOrEqual(Math.max(limit, used));
            expect(passed).toBe(Math.min(clients, Math.max(0, limit - used)));
          } else expect(passed).toBe(clients);
        },
      ),
      { numRuns: 300 },
    );
  });
});
