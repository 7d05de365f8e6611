import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import { canonicalJson } from './secure-fetch.certificate';
import { admitUpload, secureFetchCounterDecider } from './secure-fetch.decide';
import type { SecureFetchCounterEvent } from './secure-fetch.events';
import { receivedFile, SecureFetchHistory } from './secure-fetch.testing';

const HOUR = 3_600_000;
const start = new Date('2026-05-04T10:00:00.000Z');

const step = fc.oneof(
  fc.record({ op: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 3 * HOUR }) }),
  fc.record({ op: fc.constant('revoke' as const) }),
  fc.record({ op: fc.constant('submit' as const), n: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ op: fc.constant('pay' as const) }),
  fc.record({ op: fc.constant('collect' as const) }),
);

describe('secure fetch invariants', () => {
  it('a link is never admitted, nor submitted to, after it was used, revoked or expired', () => {
    fc.assert(
      fc.property(fc.option(fc.integer({ min: 1, max: 4 * HOUR }), { nil: null }), fc.array(step, { maxLength: 25 }), (expiresIn, steps) => {
        const h = new SecureFetchHistory(start);
        const expiresAt = expiresIn === null ? null : new Date(start.getTime() + expiresIn);
        h.create({ expiresAt: expiresAt?.toISOString() ?? null });
        let ended = false;
        for (const s of steps) {
          if (s.op === 'wait') h.now = new Date(h.now.getTime() + s.ms);
          if (expiresAt && h.now >= expiresAt) ended = true;
          let admitted = true;
          try {
            admitUpload(h.state, { size: 1, maxSize: null }, h.now);
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
            admitted = false;
          }
          expect(admitted).toBe(!ended);
          if (s.op === 'revoke') {
            h.run('RevokeSecureFetch', {});
            ended = true;
          }
          if (s.op === 'submit') {
            const before = h.events.length;
            const result = h.run('SubmitSecureFetch', { storageId: 's', folderId: 'f', files: [receivedFile(s.n)], metadata: null, maxSize: null });
            if (ended) expect(result instanceof DomainError || h.events.length === before).toBe(true);
            else ended = true;
          }
          if (s.op === 'pay') h.run('StartSecureFetchPayment', { certificateId: null, lastOpened: {}, canonicalSha256: 'd'.repeat(64) });
          if (s.op === 'collect') h.run('CollectUnpaidFiles', {});
        }
      }),
    );
  });

  it('files are never both paid for and collected, whatever the order of pay, refusal and collection', () => {
    const op = fc.constantFrom('start' as const, 'fail' as const, 'record' as const, 'collect' as const);
    fc.assert(
      fc.property(fc.array(op, { maxLength: 20 }), (ops) => {
        const h = new SecureFetchHistory(start);
        h.create();
        h.run('SubmitSecureFetch', { storageId: 's', folderId: 'f', files: [receivedFile(1)], metadata: null, maxSize: null });
        for (const o of ops) {
          if (o === 'start') h.run('StartSecureFetchPayment', { certificateId: null, lastOpened: {}, canonicalSha256: 'd'.repeat(64) });
          if (o === 'fail') h.run('FailSecureFetchPayment', { refusedWith: 'INSUFFICIENT_CONFIRMED_TOKENS' });
          if (o === 'record') h.run('RecordSecureFetchPayment', { txId: 'tx', amount: 300_000 });
          if (o === 'collect') h.run('CollectUnpaidFiles', {});
        }
        const types = h.events.map((e) => e.type);
        expect(types.includes('SecureFetchPaid') && types.includes('SecureFetchFilesCollected')).toBe(false);
        expect(types.filter((t) => t === 'SecureFetchPaid').length).toBeLessThanOrEqual(1);
        expect(types.filter((t) => t === 'SecureFetchFilesCollected').length).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('the monthly counter never exceeds the plan, whatever the interleaving of parallel creates', () => {
    // each create reads the stream at some revision and appends with that expected revision: a stale
    // read is refused by the store and retried on the fresh state, as the command handler does
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8 }), fc.array(fc.nat({ max: 11 }), { minLength: 1, maxLength: 60 }), (limit, schedule) => {
        const events: SecureFetchCounterEvent[] = [];
        const readAt = new Map<number, number>();
        const done = new Set<number>();
        for (const who of schedule) {
          if (done.has(who)) continue;
          if (!readAt.has(who)) {
            readAt.set(who, events.length);
            continue;
          }
          const revision = readAt.get(who)!;
          readAt.delete(who);
          if (revision !== events.length) continue; // wrong expected revision: read again
          const state = events.slice(0, revision).reduce(secureFetchCounterDecider.evolve, secureFetchCounterDecider.initialState());
          try {
            events.push(
              ...secureFetchCounterDecider.decide({ type: 'CountSecureFetch', data: { fetchId: `f${who}`, limit }, metadata: { now: start } }, state),
            );
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
          }
          done.add(who);
        }
        expect(events.length).toBeLessThanOrEqual(limit);
        expect(new Set(events.map((e) => e.data.fetchId)).size).toBe(events.length);
      }),
    );
  });

  it('the canonical form is stable under key order', () => {
    const shuffle = (value: unknown, seed: number): unknown => {
      if (Array.isArray(value)) return value.map((v, i) => shuffle(v, seed + i));
      if (value && typeof value === 'object') {
        const entries = Object.entries(value);
        const rotated = entries.map((_, i) => entries[(i + seed) % entries.length]!);
        return Object.fromEntries(rotated.reverse().map(([k, v]) => [k, shuffle(v, seed + 1)]));
      }
      return value;
    };
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat({ max: 50 }), (value, seed) => {
        const json = canonicalJson(value as never);
        expect(canonicalJson(shuffle(value, seed) as never)).toBe(json);
        expect(canonicalJson(JSON.parse(json) as never)).toBe(json);
      }),
    );
  });
});
