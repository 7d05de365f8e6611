import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../shared/decider.testing';
import type { CloudLockerCommand } from './devices.commands';
import { cloudLockerDecider } from './devices.decide';
import { DeviceErrors } from './devices.errors';
import type { CloudLockerEvent } from './devices.events';
import { isOnline } from './devices.state';
import { CHECK_IN_INTERVAL_MS, CLAIM_WINDOW_MS, claimMessage, normaliseMac, normaliseSerial, ONLINE_WINDOW_MS, registrationMessage } from './devices.identity';

/** Signatures as a keyed tag: what Ed25519 gives at the edge, reduced to "only the key's holder can make it". */
const sign = (key: string, message: string) => `signed(${key}):${message}`;
const verify = (key: string, message: string, signature: string) => signature === sign(key, message);

const T0 = new Date('2026-11-01T10:00:00Z');
const at = (ms: number) => ({ now: new Date(T0.getTime() + ms) });
const cmd = <T extends CloudLockerCommand['type']>(type: T, data: Extract<CloudLockerCommand, { type: T }>['data'], ms = 0) =>
  ({ type, data, metadata: at(ms) }) as CloudLockerCommand;

const KEY = 'device-key';
const SERIAL = 'AXCL-0001';
const MAC = 'aa:bb:cc:dd:ee:01';
const registered: CloudLockerEvent = {
  type: 'CloudLockerRegistered',
  data: { deviceId: 'd1', serial: SERIAL, mac: MAC, publicKey: KEY, at: T0.toISOString() },
};
const claimOpened = (userId: string, code: string, ms = 0): CloudLockerEvent => ({
  type: 'CloudLockerClaimOpened',
  data: { deviceId: 'd1', userId, code, expiresAt: new Date(T0.getTime() + ms + CLAIM_WINDOW_MS).toISOString() },
});
const bound = (ownerId: string): CloudLockerEvent => ({
  type: 'CloudLockerBound',
  data: { deviceId: 'd1', ownerId, storageId: 's1', method: 'proof', at: T0.toISOString() },
});

const given = DeciderSpecification.for(cloudLockerDecider(verify));

describe('CloudLocker identity', () => {
  it('reads serial numbers and MAC addresses however they are typed, and requires both', () => {
    expect(normaliseSerial(' axcl-0001 ')).toBe('AXCL-0001');
    expect(normaliseMac('AA-BB-CC-DD-EE-01')).toBe(MAC);
    expect(normaliseMac('aabbccddee01')).toBe(MAC);
    expect(() => normaliseSerial('  ')).toThrow(DeviceErrors.serialRequired.message);
    expect(() => normaliseMac('')).toThrow(DeviceErrors.macRequired.message);
    expect(() => normaliseMac('aa:bb:cc:dd:ee')).toThrow(DeviceErrors.invalidMac.message);
    expect(() => normaliseSerial('a/b')).toThrow(DeviceErrors.invalidSerial.message);
  });
});

describe('CloudLocker registration and check-ins', () => {
  it('registers a key the device proves it holds, once', () => {
    const signature = sign(KEY, registrationMessage(SERIAL, MAC, KEY));
    given([])
      .when(cmd('RegisterCloudLocker', { deviceId: 'd1', serial: 'axcl-0001', mac: 'AA:BB:CC:DD:EE:01', publicKey: KEY, signature }))
      .then([registered]);
    given([registered])
      .when(cmd('RegisterCloudLocker', { deviceId: 'd1', serial: SERIAL, mac: MAC, publicKey: KEY, signature }))
      .thenNothingHappened();
    given([])
      .when(cmd('RegisterCloudLocker', { deviceId: 'd1', serial: SERIAL, mac: MAC, publicKey: KEY, signature: 'forged' }))
      .thenThrows(DeviceErrors.proofInvalid);
    const other = 'other-key';
    given([registered])
      .when(
        cmd('RegisterCloudLocker', {
          deviceId: 'd1',
          serial: SERIAL,
          mac: MAC,
          publicKey: other,
          signature: sign(other, registrationMessage(SERIAL, MAC, other)),
        }),
      )
      .thenThrows(DeviceErrors.alreadyRegistered);
  });

  it('records a check-in when the address changes or the last one is an interval old; online within the window', () => {
    const checkedIn: CloudLockerEvent = { type: 'CloudLockerCheckedIn', data: { deviceId: 'd1', externalIp: '203.0.113.5', at: T0.toISOString() } };
    given([registered])
      .when(cmd('CheckIn', { externalIp: '203.0.113.5' }))
      .then([checkedIn]);
    given([registered, checkedIn])
      .when(cmd('CheckIn', { externalIp: '203.0.113.5' }, 60_000))
      .thenNothingHappened();
    given([registered, checkedIn])
      .when(cmd('CheckIn', { externalIp: '203.0.113.9' }, 60_000))
      .then((events) => expect(events[0]!.data).toMatchObject({ externalIp: '203.0.113.9' }));
    given([registered, checkedIn])
      .when(cmd('CheckIn', { externalIp: '203.0.113.5' }, CHECK_IN_INTERVAL_MS))
      .then((events) => expect(events).toHaveLength(1));
    given([])
      .when(cmd('CheckIn', { externalIp: '203.0.113.5' }))
      .thenThrows(DeviceErrors.notFound);
    expect(isOnline(T0.toISOString(), at(ONLINE_WINDOW_MS - 1).now, ONLINE_WINDOW_MS)).toBe(true);
    expect(isOnline(T0.toISOString(), at(ONLINE_WINDOW_MS).now, ONLINE_WINDOW_MS)).toBe(false);
    expect(isOnline(null, T0, ONLINE_WINDOW_MS)).toBe(false);
  });

  it('keeps sizes with used never above total', () => {
    given([registered])
      .when(cmd('ReportSize', { sizeUsed: 10, sizeTotal: 100 }))
      .then([{ type: 'CloudLockerSizeReported', data: { deviceId: 'd1', sizeUsed: 10, sizeTotal: 100, at: T0.toISOString() } }]);
    given([registered])
      .when(cmd('ReportSize', { sizeUsed: 101, sizeTotal: 100 }))
      .thenThrows(DeviceErrors.invalidSize);
    given([registered])
      .when(cmd('ReportSize', { sizeUsed: -1, sizeTotal: 100 }))
      .thenThrows(DeviceErrors.invalidSize);
  });
});

describe('binding a CloudLocker', () => {
  it('opens a claim window for a matching serial and MAC; a wrong pair is not found', () => {
    given([registered])
      .when(cmd('OpenClaim', { userId: 'u1', serial: SERIAL, mac: MAC, code: 'ABCD2345' }))
      .then([claimOpened('u1', 'ABCD2345')]);
    given([registered])
      .when(cmd('OpenClaim', { userId: 'u1', serial: SERIAL, mac: 'aa:bb:cc:dd:ee:02', code: 'X' }))
      .thenThrows(DeviceErrors.notFound);
    given([registered])
      .when(cmd('OpenClaim', { userId: 'u1', serial: SERIAL, mac: '', code: 'X' }))
      .thenThrows(DeviceErrors.macRequired);
    given([registered, bound('u2')])
      .when(cmd('OpenClaim', { userId: 'u1', serial: SERIAL, mac: MAC, code: 'X' }))
      .thenThrows(DeviceErrors.alreadyBound);
  });

  it("binds to the claim's user when the device signs the code within the window", () => {
    const signature = sign(KEY, claimMessage('d1', 'ABCD2345'));
    given([registered, claimOpened('u1', 'ABCD2345')])
      .when(cmd('ProveClaim', { code: 'abcd-2345', signature, storageId: 's1' }, 60_000))
      .then([{ type: 'CloudLockerBound', data: { deviceId: 'd1', ownerId: 'u1', storageId: 's1', method: 'proof', at: at(60_000).now.toISOString() } }]);
    given([registered, claimOpened('u1', 'ABCD2345')])
      .when(cmd('ProveClaim', { code: 'ABCD2345', signature, storageId: 's1' }, CLAIM_WINDOW_MS))
      .thenThrows(DeviceErrors.claimExpired);
  });

  it('refuses a claim signed by another key: serial and MAC alone never bind', () => {
    given([registered, claimOpened('thief', 'ABCD2345')])
      .when(cmd('ProveClaim', { code: 'ABCD2345', signature: sign('thief-key', claimMessage('d1', 'ABCD2345')), storageId: 's1' }))
      .thenThrows(DeviceErrors.proofInvalid);
    given([registered, claimOpened('thief', 'ABCD2345')])
      .when(cmd('ProveClaim', { code: 'ZZZZ2345', signature: sign(KEY, claimMessage('d1', 'ZZZZ2345')), storageId: 's1' }))
      .thenThrows(DeviceErrors.claimExpired);
  });

  it('lets staff bind by serial and MAC', () => {
    given([registered])
      .when(cmd('StaffBind', { serial: SERIAL, mac: MAC, ownerId: 'u1', storageId: 's1' }))
      .then((events) => expect(events[0]).toMatchObject({ type: 'CloudLockerBound', data: { ownerId: 'u1', method: 'staff' } }));
    given([registered, bound('u1')])
      .when(cmd('StaffBind', { serial: SERIAL, mac: MAC, ownerId: 'u1', storageId: 's1' }))
      .thenNothingHappened();
    given([registered, bound('u1')])
      .when(cmd('StaffBind', { serial: SERIAL, mac: MAC, ownerId: 'u2', storageId: 's2' }))
      .thenThrows(DeviceErrors.alreadyBound);
  });
});

describe('unbinding and deleting', () => {
  it('unbinds by the owner or staff, never by another user', () => {
    given([registered, bound('u1')])
      .when(cmd('Unbind', { actor: { kind: 'owner', userId: 'u1' } }))
      .then([{ type: 'CloudLockerUnbound', data: { deviceId: 'd1', ownerId: 'u1', storageId: 's1', by: 'owner', at: T0.toISOString() } }]);
    given([registered, bound('u1')])
      .when(cmd('Unbind', { actor: { kind: 'owner', userId: 'u2' } }))
      .thenThrows(DeviceErrors.notOwner);
    given([registered, bound('u1')])
      .when(cmd('Unbind', { actor: { kind: 'staff', staffId: 'a1' } }))
      .then((events) => expect(events[0]!.data).toMatchObject({ by: 'staff' }));
    given([registered])
      .when(cmd('Unbind', { actor: { kind: 'staff', staffId: 'a1' } }))
      .thenThrows(DeviceErrors.notBound);
  });

  it('deletes only when delete is typed, unbinding first', () => {
    given([registered, bound('u1')])
      .when(cmd('DeleteCloudLocker', { actor: { kind: 'owner', userId: 'u1' }, confirm: 'delete' }))
      .then((events) => expect(events.map((e) => e.type)).toEqual(['CloudLockerUnbound', 'CloudLockerDeleted']));
    given([registered, bound('u1')])
      .when(cmd('DeleteCloudLocker', { actor: { kind: 'owner', userId: 'u1' }, confirm: 'yes' }))
      .thenThrows(DeviceErrors.confirmDelete);
    given([registered])
      .when(cmd('DeleteCloudLocker', { actor: { kind: 'staff', staffId: 'a1' }, confirm: 'delete' }))
      .thenState((state) => expect(state.status).toBe('deleted'));
  });
});
