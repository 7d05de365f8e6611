import { generateKeyPairSync } from 'node:crypto';
import { CHECK_IN_INTERVAL_MS, ONLINE_WINDOW_MS } from '@axel/domain';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, useTestApp } from '../../testing/harness';
import { CloudLockerStandIn, DeviceCallError } from './device-stand-in';
import { DEVICE_HEADERS, deviceRequestMessage } from './devices.signatures';

const t = useTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });
const { signedInUser, signIn } = accountHelpers(t);

let seq = 0;
const nextSerial = () => `AXCL-${process.pid}-${++seq}`;
const nextMac = () =>
  `02:00:00:${(seq >> 8).toString(16).padStart(2, '0')}:${(seq & 0xff).toString(16).padStart(2, '0')}:${(process.pid & 0xff).toString(16).padStart(2, '0')}`;

/** A device as it leaves the factory: its own key, registered, its clock the server's. */
const newDevice = async (options: { serial?: string; mac?: string } = {}) => {
  const device = new CloudLockerStandIn({ baseUrl: t().url, serial: options.serial ?? nextSerial(), mac: options.mac ?? nextMac(), now: t().clock.now });
  const reg = await device.register();
  expect(reg.deviceId).toMatch(/^[0-9a-f-]{36}$/);
  return device;
};

const refusal = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    if (error instanceof DeviceCallError) return { status: error.status, code: error.body?.code };
    throw error;
  }
  throw new Error('the call was accepted');
};

const root = async () => (await signIn('root@axel.test', 'Root-pass-123')).http;

describe('binding a CloudLocker with proof of possession', () => {
  it("binds when the device signs the code its owner's browser shows; the device's storage is the owner's", async () => {
    const device = await newDevice();
    await device.checkIn({ sizeUsed: 1000, sizeTotal: 5_000_000 });
    const owner = await signedInUser();
    const opened = await owner.http.post(`/api/users/${owner.id}/drives/`, { serial: device.serial.toLowerCase(), mac: device.mac.toUpperCase() });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    expect(opened.body.driveId).toBe(device.deviceId);
    expect(opened.body.code).toMatch(/^[A-Z2-9]{8}$/);
    // nothing is bound until the device signs
    expect((await owner.http.get(`/api/users/${owner.id}/drives/`)).body.data).toEqual([]);

    const answer = await device.claim(opened.body.code);
    expect(answer.bound).toBe(true);
    const drives = await owner.http.get(`/api/users/${owner.id}/drives/`);
    expect(drives.body.data).toHaveLength(1);
    const drive = drives.body.data[0];
    expect(drive).toMatchObject({
      id: device.deviceId,
      serial: device.serial,
      mac: device.mac,
      bound: true,
      ownerId: owner.id,
      status: 'online',
      sizeTotal: 5_000_000,
    });
    expect(drive.storageId).toBe(answer.storageId);

    // the device's storage, through the same storage routes
    const storages = await owner.http.get(`/api/users/${owner.id}/storages/`);
    const cl = storages.body.data.find((s: { id: string }) => s.id === drive.storageId);
    expect(cl).toMatchObject({ type: 'cloudlocker', sizeTotal: 5_000_000 });
    const folder = await owner.http.post(`/api/users/${owner.id}/storages/${drive.storageId}/items/`, { label: 'folder', name: 'Photos' });
    expect(folder.status, JSON.stringify(folder.body)).toBe(201);

    // someone else cannot see or act on it
    const other = await signedInUser();
    expect((await other.http.get(`/api/users/${other.id}/drives/${device.deviceId}`)).status).toBe(404);
    expect((await other.http.get(`/api/users/${other.id}/storages/${drive.storageId}/items/`)).status).toBe(404);
    const again = await other.http.post(`/api/users/${other.id}/drives/`, { serial: device.serial, mac: device.mac });
    expect(again.body.code).toBe('CLOUDLOCKER_ALREADY_BOUND');
  });

  it('refuses a stranger who knows the serial and MAC but not the key', async () => {
    const device = await newDevice();
    const thief = await signedInUser();
    const opened = await thief.http.post(`/api/users/${thief.id}/drives/`, { serial: device.serial, mac: device.mac });
    expect(opened.status).toBe(201);
    // a device of their own with the same serial and MAC cannot register over the real one's key
    const impostor = new CloudLockerStandIn({ baseUrl: t().url, serial: device.serial, mac: device.mac, now: t().clock.now });
    expect(await refusal(impostor.register())).toEqual({ status: 409, code: 'CLOUDLOCKER_ALREADY_REGISTERED' });
    // nor sign the claim with another key, calling as the device
    impostor.deviceId = device.deviceId;
    expect(await refusal(impostor.claim(opened.body.code))).toMatchObject({ status: 401, code: 'CLOUDLOCKER_PROOF_INVALID' });
    // nor send a claim signed by another key inside a call it cannot sign either: unsigned calls are refused
    const path = `/api/devices/${device.deviceId}/claims/`;
    const body = { code: opened.body.code, signature: Buffer.alloc(64).toString('base64') };
    const unsigned = await new HttpClient(t().url).post(path, body);
    expect(unsigned.status).toBe(401);
    const other = generateKeyPairSync('ed25519').privateKey;
    const time = t().clock.now().toISOString();
    const forged = await new HttpClient(t().url).request('POST', path, body, {
      [DEVICE_HEADERS.time]: time,
      [DEVICE_HEADERS.signature]: (await import('node:crypto'))
        .sign(null, Buffer.from(deviceRequestMessage('POST', path, time, body)), other)
        .toString('base64'),
    });
    expect(forged.status).toBe(401);
    expect((await thief.http.get(`/api/users/${thief.id}/drives/`)).body.data).toEqual([]);
    // a wrong MAC is "not found", like an unknown serial
    const wrongMac = await thief.http.post(`/api/users/${thief.id}/drives/`, { serial: device.serial, mac: '02:ff:ff:ff:ff:ff' });
    expect(wrongMac.status).toBe(404);
    expect(wrongMac.body.code).toBe('CLOUDLOCKER_NOT_FOUND');
    expect((await thief.http.post(`/api/users/${thief.id}/drives/`, { serial: device.serial, mac: '' })).body.code).toBe('CLOUDLOCKER_MAC_REQUIRED');
    expect((await thief.http.post(`/api/users/${thief.id}/drives/`, { serial: ' ', mac: device.mac })).body.code).toBe('CLOUDLOCKER_SERIAL_REQUIRED');
  });

  it('refuses a code signed after the claim window', async () => {
    const device = await newDevice();
    const owner = await signedInUser();
    const opened = await owner.http.post(`/api/users/${owner.id}/drives/`, { serial: device.serial, mac: device.mac });
    t().clock.advance(11 * 60_000);
    expect(await refusal(device.claim(opened.body.code))).toEqual({ status: 410, code: 'CLOUDLOCKER_CLAIM_EXPIRED' });
  });
});

describe('check-ins and sizes', () => {
  it('a check-in sets the device online with its address and sizes; a silent device goes offline', async () => {
    const device = await newDevice();
    const owner = await signedInUser();
    const opened = await owner.http.post(`/api/users/${owner.id}/drives/`, { serial: device.serial, mac: device.mac });
    await device.claim(opened.body.code);
    const list = async (online?: boolean) =>
      (await owner.http.get(`/api/users/${owner.id}/drives/${online === undefined ? '' : `?online=${online}`}`)).body.data as {
        status: string;
        sizeUsed: number;
      }[];
    expect((await list())[0]!.status).toBe('offline');

    await device.checkIn({ sizeUsed: 123, sizeTotal: 1_000_000 });
    expect(await list(true)).toHaveLength(1);
    expect(await list(false)).toHaveLength(0);
    const drive = (await owner.http.get(`/api/users/${owner.id}/drives/${device.deviceId}`)).body;
    expect(drive).toMatchObject({ status: 'online', online: true, externalIp: '127.0.0.1', sizeUsed: 123, sizeTotal: 1_000_000 });
    expect(drive.sizeUpdatedAt).not.toBeNull();
    await device.reportSize(456, 2_000_000);
    expect((await owner.http.get(`/api/users/${owner.id}/drives/${device.deviceId}`)).body).toMatchObject({ sizeUsed: 456, sizeTotal: 2_000_000 });
    const storages = await owner.http.get(`/api/users/${owner.id}/storages/`);
    expect(storages.body.data.find((s: { id: string }) => s.id === drive.storageId).sizeTotal).toBe(2_000_000);
    expect((await refusal(device.reportSize(3, 2))).code).toBe('CLOUDLOCKER_SIZE_INVALID');

    // still online while it checks in; offline once it has been silent for the window
    t().clock.advance(CHECK_IN_INTERVAL_MS);
    await device.checkIn();
    t().clock.advance(ONLINE_WINDOW_MS - 1000);
    expect(await list(true)).toHaveLength(1);
    t().clock.advance(2000);
    expect(await list(true)).toHaveLength(0);
    expect(await list(false)).toHaveLength(1);
    expect((await list())[0]!.status).toBe('offline');
    await device.checkIn();
    expect((await list())[0]!.status).toBe('online');
  });

  it('refuses calls signed with a stale clock', async () => {
    const device = await newDevice();
    const stale = new CloudLockerStandIn({
      baseUrl: t().url,
      serial: device.serial,
      mac: device.mac,
      privateKeyPem: device.privateKeyPem,
      now: () => new Date(t().clock.now().getTime() - 10 * 60_000),
    });
    stale.deviceId = device.deviceId;
    expect(await refusal(stale.checkIn())).toMatchObject({ status: 401 });
    await device.checkIn();
  });
});

describe('unbinding and deleting', () => {
  it('the owner unbinds; delete needs the word typed; the storage goes with the binding', async () => {
    const device = await newDevice();
    const owner = await signedInUser();
    await device.claim((await owner.http.post(`/api/users/${owner.id}/drives/`, { serial: device.serial, mac: device.mac })).body.code);
    const storageId = (await owner.http.get(`/api/users/${owner.id}/drives/${device.deviceId}`)).body.storageId as string;
    const unbound = await owner.http.post(`/api/users/${owner.id}/drives/${device.deviceId}/unbind/`, {});
    expect(unbound.status, JSON.stringify(unbound.body)).toBe(200);
    expect((await owner.http.get(`/api/users/${owner.id}/drives/`)).body.data).toEqual([]);
    expect((await owner.http.get(`/api/users/${owner.id}/storages/${storageId}/items/`)).status).toBe(404);
    expect((await device.checkIn()).bound).toBe(false);

    await device.claim((await owner.http.post(`/api/users/${owner.id}/drives/`, { serial: device.serial, mac: device.mac })).body.code);
    const refused = await owner.http.delete(`/api/users/${owner.id}/drives/${device.deviceId}`, { confirm: 'yes' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('CLOUDLOCKER_CONFIRM_DELETE');
    expect((await owner.http.delete(`/api/users/${owner.id}/drives/${device.deviceId}`, { confirm: 'delete' })).status).toBe(200);
    expect((await owner.http.get(`/api/users/${owner.id}/drives/`)).body.data).toEqual([]);
    // a deleted device is unknown to the device API until it registers again (a factory reset)
    expect(await refusal(device.checkIn())).toMatchObject({ status: 404 });
  });
});

describe('the console: CloudLockers', () => {
  it('lists 10 a page with status, bound and search filters; staff bind by serial and MAC, unbind and delete; the history is the event log', async () => {
    const boss = await root();
    const marker = `AXCL-LIST-${process.pid}`;
    const devices: CloudLockerStandIn[] = [];
    for (let i = 0; i < 12; i++) devices.push(await newDevice({ serial: `${marker}-${i}` }));
    const owner = await signedInUser();

    const page1 = await boss.get(`/api/admin/drives/?search=${marker}`);
    expect(page1.status, JSON.stringify(page1.body)).toBe(200);
    expect(page1.body).toHaveLength(10);
    expect(page1.headers.get('x-total-count')).toBe('12');
    expect((await boss.get(`/api/admin/drives/?search=${marker}&page=2`)).body).toHaveLength(2);

    const bind = await boss.post('/api/admin/drives/', { serial: devices[0]!.serial, mac: devices[0]!.mac, ownerEmail: owner.email });
    expect(bind.status, JSON.stringify(bind.body)).toBe(201);
    expect(bind.body).toMatchObject({ bound: true, ownerId: owner.id, owner: owner.email });
    await devices[1]!.checkIn();

    const bound = await boss.get(`/api/admin/drives/?search=${marker}&bound=true`);
    expect(bound.body.map((d: { id: string }) => d.id)).toEqual([devices[0]!.deviceId]);
    expect((await boss.get(`/api/admin/drives/?search=${marker}&bound=false`)).headers.get('x-total-count')).toBe('11');
    const online = await boss.get(`/api/admin/drives/?search=${marker}&status=online`);
    expect(online.body.map((d: { id: string }) => d.id)).toEqual([devices[1]!.deviceId]);
    expect((await boss.get(`/api/admin/drives/?search=${marker}&status=offline`)).headers.get('x-total-count')).toBe('11');
    expect((await boss.get(`/api/admin/drives/?search=${encodeURIComponent(owner.email)}`)).body.map((d: { id: string }) => d.id)).toEqual([
      devices[0]!.deviceId,
    ]);
    // ra-data-simple-rest's dialect
    const ra = await boss.get(
      `/api/admin/drives/?range=${encodeURIComponent('[0,4]')}&filter=${encodeURIComponent(JSON.stringify({ q: marker, bound: false }))}`,
    );
    expect(ra.body).toHaveLength(5);
    expect(ra.headers.get('content-range')).toBe('drives 0-4/11');

    // the owner sees it; staff unbind it
    expect((await owner.http.get(`/api/users/${owner.id}/drives/`)).body.data).toHaveLength(1);
    expect((await boss.post(`/api/admin/drives/${devices[0]!.deviceId}/unbind/`, {})).body).toMatchObject({ bound: false, ownerId: null });
    expect((await boss.delete(`/api/admin/drives/${devices[0]!.deviceId}`, {})).body.code).toBe('CLOUDLOCKER_CONFIRM_DELETE');
    expect((await boss.delete(`/api/admin/drives/${devices[0]!.deviceId}`, { confirm: 'delete' })).status).toBe(200);

    const history = await boss.get(`/api/admin/drives/${devices[0]!.deviceId}/history`);
    expect(history.body.data.map((e: { type: string }) => e.type)).toEqual([
      'CloudLockerRegistered',
      'CloudLockerBound',
      'CloudLockerUnbound',
      'CloudLockerDeleted',
    ]);
    expect(history.body.data[1]).toMatchObject({ actorKind: 'staff', data: { method: 'staff', ownerId: owner.id } });

    // users are not staff
    expect((await owner.http.get('/api/admin/drives/')).status).toBe(403);
  });

  it('an admin without admin:cloudlocker:unbind cannot unbind', async () => {
    const boss = await root();
    const { uniqueEmail, PASSWORD } = accountHelpers(t);
    const email = uniqueEmail('money');
    expect((await boss.post('/api/admin/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, role: 'financial_admin' })).status).toBe(201);
    const money = (await signIn(email)).http;
    const device = await newDevice();
    const owner = await signedInUser();
    expect((await money.post('/api/admin/drives/', { serial: device.serial, mac: device.mac, ownerId: owner.id })).status).toBe(201);
    const refused = await money.post(`/api/admin/drives/${device.deviceId}/unbind/`, {});
    expect(refused.status).toBe(403);
    expect(refused.body.data).toEqual({ feature: 'admin:cloudlocker:unbind' });
  });
});
