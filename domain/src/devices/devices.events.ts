import { z } from 'zod';
import { defineEvent, type EventOf } from '../shared/events';

/** One stream per CloudLocker; its id derives from the serial number, so a device has one stream for life. */
export const cloudLockerStreamName = (deviceId: string) => `cloudlocker-${deviceId}`;
export const deviceIdOfStream = (streamName: string) => streamName.slice('cloudlocker-'.length);

/** How a device came to its owner: the owner's browser and the device's signature, or a staff member. */
export const BIND_METHODS = ['proof', 'staff'] as const;
export type BindMethod = (typeof BIND_METHODS)[number];

/**
 * The device announced itself with its Ed25519 public key (SPKI, base64), signed by that key. A
 * device that was deleted may register again (a factory reset) with a new key.
 */
export const CloudLockerRegistered = defineEvent(
  'CloudLockerRegistered',
  z.object({ deviceId: z.string(), serial: z.string(), mac: z.string(), publicKey: z.string(), at: z.string() }),
);
/** A check-in: recorded when the address changes or the last recorded one is older than the check-in interval. */
export const CloudLockerCheckedIn = defineEvent('CloudLockerCheckedIn', z.object({ deviceId: z.string(), externalIp: z.string(), at: z.string() }), {
  personal: ['externalIp'],
});
export const CloudLockerSizeReported = defineEvent(
  'CloudLockerSizeReported',
  z.object({ deviceId: z.string(), sizeUsed: z.number().int().nonnegative(), sizeTotal: z.number().int().nonnegative(), at: z.string() }),
);
/**
 * A signed-in user typed the serial number and MAC address and was shown `code`: the device that
 * signs it before `expiresAt` binds to that user. The code is a bearer secret while the window is open.
 */
export const CloudLockerClaimOpened = defineEvent(
  'CloudLockerClaimOpened',
  z.object({ deviceId: z.string(), userId: z.string(), code: z.string(), expiresAt: z.string() }),
  { secret: ['code'] },
);
export const CloudLockerBound = defineEvent(
  'CloudLockerBound',
  z.object({ deviceId: z.string(), ownerId: z.string(), storageId: z.string(), method: z.enum(BIND_METHODS), at: z.string() }),
);
export const CloudLockerUnbound = defineEvent(
  'CloudLockerUnbound',
  z.object({ deviceId: z.string(), ownerId: z.string(), storageId: z.string(), by: z.enum(['owner', 'staff']), at: z.string() }),
);
export const CloudLockerDeleted = defineEvent('CloudLockerDeleted', z.object({ deviceId: z.string(), by: z.enum(['owner', 'staff']), at: z.string() }));

export const cloudLockerEventDefinitions = [
  CloudLockerRegistered,
  CloudLockerCheckedIn,
  CloudLockerSizeReported,
  CloudLockerClaimOpened,
  CloudLockerBound,
  CloudLockerUnbound,
  CloudLockerDeleted,
];

export type CloudLockerEvent =
  | EventOf<typeof CloudLockerRegistered>
  | EventOf<typeof CloudLockerCheckedIn>
  | EventOf<typeof CloudLockerSizeReported>
  | EventOf<typeof CloudLockerClaimOpened>
  | EventOf<typeof CloudLockerBound>
  | EventOf<typeof CloudLockerUnbound>
  | EventOf<typeof CloudLockerDeleted>;
