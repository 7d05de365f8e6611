import type { CloudLockerEvent } from './devices.events';
import { CLAIM_WINDOW_MS } from './devices.identity';

export interface DeviceBinding {
  readonly ownerId: string;
  readonly storageId: string;
  readonly boundAt: string;
}

export interface OpenClaim {
  readonly userId: string;
  readonly expiresAt: string;
}

export interface CloudLockerState {
  readonly status: 'unknown' | 'registered' | 'deleted';
  readonly deviceId: string | null;
  readonly serial: string | null;
  readonly mac: string | null;
  readonly publicKey: string | null;
  readonly externalIp: string | null;
  readonly connectionCheckedAt: string | null;
  readonly binding: DeviceBinding | null;
  readonly sizeUsed: number;
  readonly sizeTotal: number;
  readonly sizeUpdatedAt: string | null;
  /** Open claims by code; expired ones are dropped as new ones open. */
  readonly claims: Readonly<Record<string, OpenClaim>>;
}

export const initialCloudLockerState = (): CloudLockerState => ({
  status: 'unknown',
  deviceId: null,
  serial: null,
  mac: null,
  publicKey: null,
  externalIp: null,
  connectionCheckedAt: null,
  binding: null,
  sizeUsed: 0,
  sizeTotal: 0,
  sizeUpdatedAt: null,
  claims: {},
});

const withoutExpired = (claims: Readonly<Record<string, OpenClaim>>, at: string) =>
  Object.fromEntries(Object.entries(claims).filter(([, c]) => c.expiresAt > at));

export const evolveCloudLocker = (state: CloudLockerState, event: CloudLockerEvent): CloudLockerState => {
  switch (event.type) {
    case 'CloudLockerRegistered': {
      const { deviceId, serial, mac, publicKey } = event.data;
      return { ...initialCloudLockerState(), status: 'registered', deviceId, serial, mac, publicKey };
    }
    case 'CloudLockerCheckedIn':
      return { ...state, externalIp: event.data.externalIp, connectionCheckedAt: event.data.at };
    case 'CloudLockerSizeReported':
      return { ...state, sizeUsed: event.data.sizeUsed, sizeTotal: event.data.sizeTotal, sizeUpdatedAt: event.data.at };
    case 'CloudLockerClaimOpened': {
      const { code, userId, expiresAt } = event.data;
      const openedAt = new Date(new Date(expiresAt).getTime() - CLAIM_WINDOW_MS).toISOString();
      return { ...state, claims: { ...withoutExpired(state.claims, openedAt), [code]: { userId, expiresAt } } };
    }
    case 'CloudLockerBound':
      return { ...state, binding: { ownerId: event.data.ownerId, storageId: event.data.storageId, boundAt: event.data.at }, claims: {} };
    case 'CloudLockerUnbound':
      return { ...state, binding: null };
    case 'CloudLockerDeleted':
      return { ...state, status: 'deleted', binding: null, claims: {} };
    default:
      return state;
  }
};

/** Online when a check-in was recorded within the window before `now`. */
export const isOnline = (connectionCheckedAt: string | Date | null, now: Date, windowMs: number): boolean =>
  connectionCheckedAt !== null && now.getTime() - new Date(connectionCheckedAt).getTime() < windowMs;
