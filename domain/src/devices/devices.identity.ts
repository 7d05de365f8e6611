import { DomainError } from '../shared/errors';
import { DeviceErrors } from './devices.errors';

/** A device checks in this often; a check-in is recorded when the last recorded one is at least this old. */
export const CHECK_IN_INTERVAL_MS = 5 * 60_000;
/** Online while a check-in was recorded within this window: three missed check-ins make a device offline. */
export const ONLINE_WINDOW_MS = 3 * CHECK_IN_INTERVAL_MS;
/** How long a code shown in the binding dialog can be signed by the device. */
export const CLAIM_WINDOW_MS = 10 * 60_000;
/** Open claims kept per device: a stranger opening claims cannot push out the owner's. */
export const MAX_OPEN_CLAIMS = 20;
/** Admin CloudLocker lists (spec §9). */
export const ADMIN_DRIVES_PAGE_SIZE = 10;

const SERIAL = /^[A-Z0-9][A-Z0-9-]{3,63}$/;
const MAC = /^([0-9a-f]{2})[:-]?([0-9a-f]{2})[:-]?([0-9a-f]{2})[:-]?([0-9a-f]{2})[:-]?([0-9a-f]{2})[:-]?([0-9a-f]{2})$/;

/** A serial number as printed, spaces dropped and letters upper-cased (`ax-cl 0001` is `AX-CL0001`). */
export const normaliseSerial = (raw: string): string => {
  const serial = raw.replace(/\s+/g, '').toUpperCase();
  if (!serial) throw new DomainError(DeviceErrors.serialRequired);
  if (!SERIAL.test(serial)) throw new DomainError(DeviceErrors.invalidSerial);
  return serial;
};

/** A MAC address as `aa:bb:cc:dd:ee:ff`, whether typed with colons, hyphens or nothing between the pairs. */
export const normaliseMac = (raw: string): string => {
  const typed = raw.trim().toLowerCase();
  if (!typed) throw new DomainError(DeviceErrors.macRequired);
  const m = MAC.exec(typed);
  if (!m) throw new DomainError(DeviceErrors.invalidMac);
  return m.slice(1, 7).join(':');
};

/** What a device signs to register its key: the key proves it is held, and is tied to this serial and MAC. */
export const registrationMessage = (serial: string, mac: string, publicKey: string): string => `axel-cloudlocker-register\n${serial}\n${mac}\n${publicKey}`;

/** What a device signs to claim the code the owner's browser shows. */
export const claimMessage = (deviceId: string, code: string): string => `axel-cloudlocker-claim\n${deviceId}\n${code}`;

/** The check of an Ed25519 signature by a device's key; done at the edge (node:crypto), given to the decider. */
export type SignatureCheck = (publicKey: string, message: string, signature: string) => boolean;

/** Claim codes as shown to the user: 8 letters and digits without the look-alikes 0/O and 1/I. */
export const CLAIM_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const normaliseClaimCode = (raw: string): string => raw.replace(/[\s-]+/g, '').toUpperCase();
