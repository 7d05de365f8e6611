import { generateKeyPairSync, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { claimMessage, normaliseClaimCode, normaliseMac, normaliseSerial, registrationMessage } from '@axel/domain';
import { DEVICE_HEADERS, deviceRequestMessage } from './devices.signatures';

/*
 * A CloudLocker stand-in: the real device is hardware we cannot run here, so this speaks the device
 * API exactly as the firmware does (Ed25519 key, signed calls, check-ins, sizes, claims). It is a
 * development and test tool (`npm run device -- --serial … --mac …`), never part of the product.
 */

export interface DeviceAnswer {
  readonly bound: boolean;
  readonly storageId: string | null;
  readonly checkInIntervalMs: number;
}

export class DeviceCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: { code?: string | number; message?: string } | null,
  ) {
    super(`device API answered ${status}: ${body?.code ?? ''} ${body?.message ?? ''}`);
  }
}

export interface StandInOptions {
  readonly baseUrl: string;
  readonly serial: string;
  readonly mac: string;
  /** The device's Ed25519 private key (PKCS#8 PEM); a new one when absent. */
  readonly privateKeyPem?: string;
  /** The device's clock (tests move it with the server's). */
  readonly now?: () => Date;
}

export class CloudLockerStandIn {
  readonly serial: string;
  readonly mac: string;
  readonly privateKey: KeyObject;
  readonly publicKey: string;
  deviceId: string | null = null;
  private readonly baseUrl: string;
  private readonly now: () => Date;

  constructor(options: StandInOptions) {
    this.baseUrl = options.baseUrl.replace(/\/$/, '');
    this.serial = normaliseSerial(options.serial);
    this.mac = normaliseMac(options.mac);
    this.privateKey = options.privateKeyPem ? createPrivateKey(options.privateKeyPem) : generateKeyPairSync('ed25519').privateKey;
    this.publicKey = createPublicKey(this.privateKey).export({ format: 'der', type: 'spki' }).toString('base64');
    this.now = options.now ?? (() => new Date());
  }

  get privateKeyPem(): string {
    return this.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  }

  private signText(text: string): string {
    return sign(null, Buffer.from(text, 'utf8'), this.privateKey).toString('base64');
  }

  private async call<T>(method: string, path: string, body: unknown, signed: boolean): Promise<T> {
    const time = this.now().toISOString();
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', 'user-agent': 'cloudlocker-stand-in' };
    if (signed) {
      headers[DEVICE_HEADERS.time] = time;
      headers[DEVICE_HEADERS.signature] = this.signText(deviceRequestMessage(method, path, time, body));
    }
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body: JSON.stringify(body) });
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as unknown) : null;
    if (!res.ok) throw new DeviceCallError(res.status, parsed as { code?: string; message?: string } | null);
    return parsed as T;
  }

  /** Registers the key (signed by itself); repeating it with the same key changes nothing. */
  async register(): Promise<DeviceAnswer & { deviceId: string }> {
    const signature = this.signText(registrationMessage(this.serial, this.mac, this.publicKey));
    const answer = await this.call<DeviceAnswer & { deviceId: string }>(
      'POST',
      '/api/devices/',
      { serial: this.serial, mac: this.mac, publicKey: this.publicKey, signature },
      false,
    );
    this.deviceId = answer.deviceId;
    return answer;
  }

  private id(): string {
    if (!this.deviceId) throw new Error('register the device first');
    return this.deviceId;
  }

  checkIn(sizes?: { sizeUsed: number; sizeTotal: number }): Promise<DeviceAnswer> {
    return this.call('POST', `/api/devices/${this.id()}/check-ins/`, sizes ?? {}, true);
  }

  reportSize(sizeUsed: number, sizeTotal: number): Promise<DeviceAnswer> {
    return this.call('PUT', `/api/devices/${this.id()}/size/`, { sizeUsed, sizeTotal }, true);
  }

  /** Signs the code the owner's browser shows (typed on the device or scanned from its QR code). */
  claim(code: string): Promise<DeviceAnswer> {
    const normalised = normaliseClaimCode(code);
    return this.call('POST', `/api/devices/${this.id()}/claims/`, { code: normalised, signature: this.signText(claimMessage(this.id(), normalised)) }, true);
  }
}
