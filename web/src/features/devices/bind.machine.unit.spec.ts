import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import { bindMachine, claimDeadline, secondsLeft } from './bind.machine';
import type { Drive, OpenedClaim } from './devices.api';

const DRIVE_ID = '0b9d1c43-6f0f-4a55-9d55-2f2b3c4d5e6f';
const boundDrive: Drive = {
  id: DRIVE_ID,
  serial: 'AXCL-0001',
  mac: 'aa:bb:cc:dd:ee:01',
  status: 'online',
  online: true,
  connectionCheckedAt: null,
  bound: true,
  boundAt: '2026-11-28T09:00:00.000Z',
  sizeUsed: 0,
  sizeTotal: 1000,
  storageId: 'storage-1',
};

const start = (opts: { open?: (serial: string, mac: string) => Promise<OpenedClaim>; check?: (round: number) => Promise<Drive | null> }) => {
  let clock = Date.parse('2026-11-28T09:00:00.000Z');
  const calls: string[] = [];
  let rounds = 0;
  const actor = createActor(
    bindMachine.provide({
      delays: { poll: 5 },
      actors: {
        openClaim: fromPromise<OpenedClaim, { userId: string; serial: string; mac: string }>(({ input }) => {
          calls.push(`open ${input.userId} ${input.serial} ${input.mac}`);
          return opts.open
            ? opts.open(input.serial, input.mac)
            : Promise.resolve({ driveId: DRIVE_ID, code: 'ABCD2345', expiresAt: new Date(clock + 600_000).toISOString() });
        }),
        checkBound: fromPromise<Drive | null, { userId: string; driveId: string }>(({ input }) => {
          calls.push(`check ${input.driveId}`);
          return opts.check ? opts.check(++rounds) : Promise.resolve(null);
        }),
      },
    }),
    { input: { userId: 'u1', now: () => clock } },
  ).start();
  return { actor, calls, advance: (ms: number) => (clock += ms) };
};

describe('binding a CloudLocker', () => {
  it('shows the code the server answers and keeps asking until the device has signed it', async () => {
    const { actor, calls } = start({ check: async (round) => (round < 3 ? null : boundDrive) });
    actor.send({ type: 'SUBMIT', serial: ' AXCL-0001 ', mac: 'aa:bb:cc:dd:ee:01' });
    await waitFor(actor, (s) => s.matches('waiting'));
    expect(actor.getSnapshot().context.claim?.code).toBe('ABCD2345');
    await waitFor(actor, (s) => s.matches('bound'));
    expect(actor.getSnapshot().context.drive?.storageId).toBe('storage-1');
    expect(calls).toEqual(['open u1 AXCL-0001 aa:bb:cc:dd:ee:01', `check ${DRIVE_ID}`, `check ${DRIVE_ID}`, `check ${DRIVE_ID}`]);
  });

  it('a refused serial and MAC go back to the form with the server error', async () => {
    const { actor } = start({
      open: async () => Promise.reject(new ApiError('CLOUDLOCKER_NOT_FOUND', 'No CloudLocker with this serial number and MAC address', null, 404)),
    });
    actor.send({ type: 'SUBMIT', serial: 'AXCL-0001', mac: 'aa:bb:cc:dd:ee:02' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(actor.getSnapshot().context.error?.code).toBe('CLOUDLOCKER_NOT_FOUND');
    expect(actor.getSnapshot().context.claim).toBeNull();
  });

  it('when the claim window passes before the device signs, the claim expires and RETRY starts again', async () => {
    const { actor, calls, advance } = start({});
    actor.send({ type: 'SUBMIT', serial: 'AXCL-0001', mac: 'aa:bb:cc:dd:ee:01' });
    await waitFor(actor, (s) => s.matches('waiting'));
    await waitFor(actor, () => calls.length >= 2);
    advance(600_000);
    await waitFor(actor, (s) => s.matches('expired'));
    const checks = calls.length;
    await new Promise((r) => setTimeout(r, 30));
    expect(calls.length).toBe(checks);
    actor.send({ type: 'RETRY' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.claim).toBeNull();
  });

  it('a failed look is shown while the code stays valid, and cleared by the next one', async () => {
    const { actor } = start({
      check: async (round) => (round === 1 ? Promise.reject(new ApiError('NETWORK_ERROR', 'Network error')) : round < 3 ? null : boundDrive),
    });
    actor.send({ type: 'SUBMIT', serial: 'AXCL-0001', mac: 'aa:bb:cc:dd:ee:01' });
    await waitFor(actor, (s) => s.context.error?.code === 'NETWORK_ERROR');
    expect(actor.getSnapshot().matches('expired')).toBe(false);
    await waitFor(actor, (s) => s.matches('bound'));
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});

describe('the time left to sign the code', () => {
  const now = Date.parse('2026-11-28T09:00:00.000Z');
  it('counts the server’s expiry on this browser’s clock, the whole window when the clocks disagree', () => {
    expect(claimDeadline(new Date(now + 300_000).toISOString(), now)).toBe(now + 300_000);
    expect(claimDeadline(new Date(now - 5_000).toISOString(), now)).toBe(now + 600_000);
    expect(claimDeadline(new Date(now + 3_600_000).toISOString(), now)).toBe(now + 600_000);
    expect(claimDeadline('not a date', now)).toBe(now + 600_000);
  });
  it('rounds up to whole seconds and stops at zero', () => {
    expect(secondsLeft(now + 1_500, now)).toBe(2);
    expect(secondsLeft(now - 1_000, now)).toBe(0);
  });
});
