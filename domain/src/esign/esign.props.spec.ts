import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import type { EsignCommand } from './esign.commands';
import { esignPackageDecider } from './esign.decide';
import type { EsignEvent } from './esign.events';
import type { EsignPackageState } from './esign.state';

/*
 * Whatever the owner and the signers do, in any order:
 * - statuses move only along draft -> awaiting_signatures -> completed, with archived in between
 *   and back to where it was;
 * - no signature and no finish is ever recorded once the package is completed or archived;
 * - the package is completed exactly when every field of every signer is filled (and every signer
 *   finished), and never without a seal.
 */

const metadata = { now: new Date('2026-11-28T05:00:00Z') };
const signerIds = ['s1', 's2', 's3'];
const pinIds = ['p1', 'p2', 'p3', 'p4'];
const origin = { ip: null, userAgent: null };
const seal = { documentSha256: 'd', originalSha256: { e1: 'a' } };

const c = <T extends EsignCommand['type']>(type: T) => fc.constant(type);
const command: fc.Arbitrary<EsignCommand> = fc
  .oneof(
    fc.record({
      type: c('AddEntry'),
      data: fc.constant({ entryId: 'e1', fileId: null, name: 'a.pdf', mime: 'application/pdf', size: 1, sha256: 'a', pageCount: 2 }),
    }),
    fc.record({
      type: c('AddSigner'),
      data: fc
        .record({ n: fc.integer({ min: 1, max: 3 }), order: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }) })
        .map(({ n, order }) => ({ signerId: `s${n}`, linkId: `l${n}`, name: `S${n}`, email: `s${n}@example.com`, color: n, order })),
    }),
    fc.record({ type: c('RemoveSigner'), data: fc.record({ signerId: fc.constantFrom(...signerIds) }) }),
    fc.record({
      type: c('PlacePin'),
      data: fc.record({
        pinId: fc.constantFrom(...pinIds),
        entryId: fc.constant('e1'),
        signerId: fc.constantFrom(...signerIds),
        kind: fc.constantFrom('signature' as const, 'date' as const),
        page: fc.constantFrom(1, 2),
        x: fc.constant(0.1),
        y: fc.constant(0.1),
        width: fc.constant(0.2),
        height: fc.constant(0.1),
      }),
    }),
    fc.record({ type: c('RemovePin'), data: fc.record({ pinId: fc.constantFrom(...pinIds) }) }),
    fc.record({ type: c('SendPackage'), data: fc.constant({ passwordHash: 'h' }) }),
    fc.record({
      type: c('Sign'),
      data: fc.record({ signerId: fc.constantFrom(...signerIds) }).map((d) => ({ ...d, signature: { type: 'typed' as const, text: 'Me' }, ...origin })),
    }),
    fc.record({
      type: c('FinishSigning'),
      data: fc
        .record({ signerId: fc.constantFrom(...signerIds), sealed: fc.boolean() })
        .map(({ signerId, sealed }) => ({ signerId, seal: sealed ? seal : null, ...origin })),
    }),
    fc.record({ type: c('ArchivePackage'), data: fc.constant({}) }),
    fc.record({ type: c('UnarchivePackage'), data: fc.constant({}) }),
  )
  .map((cmd) => ({ ...cmd, metadata }) as EsignCommand);

const ALLOWED = new Set(['draft>awaiting_signatures', 'awaiting_signatures>completed', 'draft>archived', 'awaiting_signatures>archived', 'completed>archived']);

const run = (commands: EsignCommand[]) => {
  let state: EsignPackageState = esignPackageDecider.initialState();
  state = esignPackageDecider.evolve(state, { type: 'EsignPackageCreated', data: { packageId: 'x', ownerId: 'u', name: 'X', message: null } });
  const steps: { before: EsignPackageState; events: EsignEvent[]; after: EsignPackageState }[] = [];
  for (const cmd of commands) {
    try {
      const events = esignPackageDecider.decide(cmd, state);
      const after = events.reduce(esignPackageDecider.evolve, state);
      steps.push({ before: state, events, after });
      state = after;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return { state, steps };
};

const everyPinFilled = (s: EsignPackageState) => Object.values(s.pins).every((p) => p.filled);
const everyoneFinished = (s: EsignPackageState) => Object.values(s.signers).every((x) => x.finishedAt !== null);

describe('e-sign package decider', () => {
  it('moves only along allowed transitions; archived returns to where it was', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), (commands) => {
        for (const { before, after } of run(commands).steps) {
          if (before.status === after.status) continue;
          if (before.status === 'archived') expect(after.status).toBe(before.archivedFrom);
          else expect(ALLOWED.has(`${before.status}>${after.status}`), `${before.status}>${after.status}`).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('records no signature or finish once completed or archived', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), (commands) => {
        for (const { before, events } of run(commands).steps) {
          if (before.status !== 'completed' && before.status !== 'archived') continue;
          expect(events.filter((e) => e.type === 'EsignSignerSigned' || e.type === 'EsignSignerFinished')).toEqual([]);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('completes exactly when every field of every signer is filled and every signer finished, always with a seal', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 60 }), (commands) => {
        for (const { before, events, after } of run(commands).steps) {
          const completes = events.some((e) => e.type === 'EsignPackageCompleted');
          if (before.status === 'awaiting_signatures') {
            expect(completes).toBe(everyPinFilled(after) && everyoneFinished(after));
          }
          if (completes) expect(events.find((e) => e.type === 'EsignPackageCompleted')!.data).toMatchObject({ documentSha256: 'd' });
          if (after.status === 'completed' || after.archivedFrom === 'completed') {
            expect(everyPinFilled(after) && everyoneFinished(after)).toBe(true);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('reaches completion when every signer signs and finishes in turn', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(signerIds, { minLength: 1 }), fc.boolean(), (signers, ordered) => {
        const setup: EsignCommand[] = [
          { type: 'AddEntry', data: { entryId: 'e1', fileId: null, name: 'a.pdf', mime: 'application/pdf', size: 1, sha256: 'a', pageCount: 1 }, metadata },
          ...signers.flatMap((id, i): EsignCommand[] => [
            {
              type: 'AddSigner',
              data: { signerId: id, linkId: `l-${id}`, name: id, email: `${id}@example.com`, color: i + 1, order: ordered ? i + 1 : null },
              metadata,
            },
            {
              type: 'PlacePin',
              data: { pinId: `p-${id}`, entryId: 'e1', signerId: id, kind: 'signature', page: 1, x: 0, y: 0, width: 0.1, height: 0.1 },
              metadata,
            },
          ]),
          { type: 'SendPackage', data: { passwordHash: 'h' }, metadata },
          ...signers.flatMap((id): EsignCommand[] => [
            { type: 'Sign', data: { signerId: id, signature: { type: 'typed', text: id }, ...origin }, metadata },
            { type: 'FinishSigning', data: { signerId: id, seal, ...origin }, metadata },
          ]),
        ];
        const { state } = run(setup);
        expect(state.status).toBe('completed');
      }),
      { numRuns: 100 },
    );
  });
});
