import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import type { CloudLockerCommand } from './devices.commands';
import { cloudLockerDecider } from './devices.decide';
import type { CloudLockerEvent } from './devices.events';
import { CLAIM_WINDOW_MS, claimMessage, registrationMessage } from './devices.identity';
import type { CloudLockerState } from './devices.state';

/*
 * Whatever strangers do with a device's serial number and MAC address (open claims, sign codes
 * with their own keys, replay old codes late), in any order with the owner's and staff's actions:
 * - a device is bound by proof only to a user who opened a claim whose code the device's own key
 *   signed within that claim's window;
 * - a device is bound to at most one owner at a time, and nothing but its own events change it.
 */
const sign = (key: string, message: string) => `signed(${key}):${message}`;
const verify = (key: string, message: string, signature: string) => signature === sign(key, message);
const decider = cloudLockerDecider(verify);

const SERIAL = 'AXCL-0001';
const MAC = 'aa:bb:cc:dd:ee:01';
const DEVICE_KEY = 'device-key';
const users = ['owner', 'thief', 'other'];
const codes = ['CODE2345', 'CODE6789', 'CODEABCD'];
const T0 = Date.parse('2026-11-01T10:00:00Z');

const step = fc.record({ dt: fc.integer({ min: 0, max: CLAIM_WINDOW_MS / 2 }) });
const command = (now: Date): fc.Arbitrary<Omit<CloudLockerCommand, 'metadata'>> =>
  fc.oneof(
    fc.record({
      type: fc.constant('OpenClaim' as const),
      data: fc.record({ userId: fc.constantFrom(...users), serial: fc.constant(SERIAL), mac: fc.constant(MAC), code: fc.constantFrom(...codes) }),
    }),
    fc.record({
      type: fc.constant('ProveClaim' as const),
      data: fc
        .record({ code: fc.constantFrom(...codes), key: fc.constantFrom(DEVICE_KEY, 'thief-key'), storageId: fc.constantFrom('s1', 's2') })
        .map(({ code, key, storageId }) => ({ code, storageId, signature: sign(key, claimMessage('d1', code)) })),
    }),
    fc.record({
      type: fc.constant('StaffBind' as const),
      data: fc.record({ serial: fc.constant(SERIAL), mac: fc.constant(MAC), ownerId: fc.constantFrom(...users), storageId: fc.constant('s3') }),
    }),
    fc.record({
      type: fc.constant('Unbind' as const),
      data: fc.record({
        actor: fc.oneof(
          fc.constantFrom(...users).map((userId) => ({ kind: 'owner' as const, userId })),
          fc.constant({ kind: 'staff' as const, staffId: 'a1' }),
        ),
      }),
    }),
    fc.record({ type: fc.constant('CheckIn' as const), data: fc.record({ externalIp: fc.constantFrom('203.0.113.1', '203.0.113.2') }) }),
    fc.constant({ type: 'ReportSize' as const, data: { sizeUsed: now.getTime() % 100, sizeTotal: 100 } }),
  );

describe('CloudLocker binding', () => {
  it('binds by proof only to a claimant whose code the device signed in time; one owner at a time', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(step, fc.integer({ min: 0, max: 1000 })), { maxLength: 40 }),
        fc.infiniteStream(command(new Date(T0))),
        (steps, commands) => {
          let state: CloudLockerState = decider.initialState();
          const reg = decider.decide(
            {
              type: 'RegisterCloudLocker',
              data: {
                deviceId: 'd1',
                serial: SERIAL,
                mac: MAC,
                publicKey: DEVICE_KEY,
                signature: sign(DEVICE_KEY, registrationMessage(SERIAL, MAC, DEVICE_KEY)),
              },
              metadata: { now: new Date(T0) },
            },
            state,
          );
          state = reg.reduce(decider.evolve, state);
          const claims = new Map<string, { userId: string; expiresAt: number }>();
          let t = T0;
          const iterator = commands[Symbol.iterator]();
          for (const [{ dt }] of steps) {
            t += dt;
            const c = { ...iterator.next().value!, metadata: { now: new Date(t) } } as CloudLockerCommand;
            let events: CloudLockerEvent[] = [];
            try {
              events = decider.decide(c, state);
            } catch (error) {
              if (!(error instanceof DomainError)) throw error;
            }
            for (const e of events) {
              if (e.type === 'CloudLockerClaimOpened') claims.set(e.data.code, { userId: e.data.userId, expiresAt: Date.parse(e.data.expiresAt) });
              if (e.type === 'CloudLockerBound') {
                expect(state.binding).toBeNull();
                if (e.data.method === 'proof') {
                  expect(c.type).toBe('ProveClaim');
                  const proof = c.data as { code: string; signature: string };
                  expect(proof.signature).toBe(sign(DEVICE_KEY, claimMessage('d1', proof.code)));
                  const claim = claims.get(proof.code);
                  expect(claim?.userId).toBe(e.data.ownerId);
                  expect(t).toBeLessThan(claim!.expiresAt);
                } else expect(c.type).toBe('StaffBind');
              }
              state = decider.evolve(state, e);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
