import { assertNever, type Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { CloudLockerCommand, DeviceActor } from './devices.commands';
import { DeviceErrors } from './devices.errors';
import type { CloudLockerEvent } from './devices.events';
import {
  CHECK_IN_INTERVAL_MS,
  CLAIM_WINDOW_MS,
  claimMessage,
  MAX_OPEN_CLAIMS,
  normaliseClaimCode,
  normaliseMac,
  normaliseSerial,
  registrationMessage,
  type SignatureCheck,
} from './devices.identity';
import { evolveCloudLocker, initialCloudLockerState, type CloudLockerState } from './devices.state';

/** The device, when it is registered and its serial number and MAC address are these; else "not found". */
const matching = (state: CloudLockerState, serial: string, mac: string): CloudLockerState => {
  const s = normaliseSerial(serial);
  const m = normaliseMac(mac);
  if (state.status !== 'registered' || state.serial !== s || state.mac !== m) throw new DomainError(DeviceErrors.notFound);
  return state;
};

const registered = (state: CloudLockerState): CloudLockerState => {
  if (state.status !== 'registered') throw new DomainError(DeviceErrors.notFound);
  return state;
};

/** The owner may act on their own device only; staff reach any (the API checks their feature). */
const assertMayAct = (state: CloudLockerState, actor: DeviceActor) => {
  if (actor.kind === 'owner' && state.binding?.ownerId !== actor.userId) {
    throw new DomainError(state.binding ? DeviceErrors.notOwner : DeviceErrors.notBound);
  }
};

const by = (actor: DeviceActor) => (actor.kind === 'owner' ? ('owner' as const) : ('staff' as const));

/**
 * A CloudLocker's decider. Signatures are checked by `verify` (Ed25519 at the edge): binding by a
 * user needs the device's signature over the code their browser showed, so knowing a serial number
 * and MAC address (printed on the box, seen on the network) is never enough to take a device.
 */
export const cloudLockerDecider = (verify: SignatureCheck): Decider<CloudLockerCommand, CloudLockerEvent, CloudLockerState> => {
  const decide = (command: CloudLockerCommand, state: CloudLockerState): CloudLockerEvent[] => {
    const now = command.metadata.now;
    const at = now.toISOString();
    switch (command.type) {
      case 'RegisterCloudLocker': {
        const { deviceId, publicKey, signature } = command.data;
        const serial = normaliseSerial(command.data.serial);
        const mac = normaliseMac(command.data.mac);
        if (!verify(publicKey, registrationMessage(serial, mac, publicKey), signature)) throw new DomainError(DeviceErrors.proofInvalid);
        if (state.status === 'registered') {
          if (state.publicKey === publicKey && state.serial === serial && state.mac === mac) return [];
          throw new DomainError(DeviceErrors.alreadyRegistered);
        }
        return [{ type: 'CloudLockerRegistered', data: { deviceId, serial, mac, publicKey, at } }];
      }
      case 'CheckIn': {
        const s = registered(state);
        const { externalIp } = command.data;
        const last = s.connectionCheckedAt ? new Date(s.connectionCheckedAt).getTime() : null;
        if (s.externalIp === externalIp && last !== null && now.getTime() - last < CHECK_IN_INTERVAL_MS) return [];
        return [{ type: 'CloudLockerCheckedIn', data: { deviceId: s.deviceId!, externalIp, at } }];
      }
      case 'ReportSize': {
        const s = registered(state);
        const { sizeUsed, sizeTotal } = command.data;
        if (!Number.isSafeInteger(sizeUsed) || !Number.isSafeInteger(sizeTotal) || sizeUsed < 0 || sizeTotal < 0 || sizeUsed > sizeTotal) {
          throw new DomainError(DeviceErrors.invalidSize);
        }
        if (s.sizeUsed === sizeUsed && s.sizeTotal === sizeTotal && s.sizeUpdatedAt !== null) return [];
        return [{ type: 'CloudLockerSizeReported', data: { deviceId: s.deviceId!, sizeUsed, sizeTotal, at } }];
      }
      case 'OpenClaim': {
        const s = matching(state, command.data.serial, command.data.mac);
        if (s.binding) throw new DomainError(DeviceErrors.alreadyBound);
        const open = Object.values(s.claims).filter((c) => c.expiresAt > at);
        if (open.length >= MAX_OPEN_CLAIMS) throw new DomainError(DeviceErrors.claimExpired, { reason: 'too_many_open' });
        const expiresAt = new Date(now.getTime() + CLAIM_WINDOW_MS).toISOString();
        return [{ type: 'CloudLockerClaimOpened', data: { deviceId: s.deviceId!, userId: command.data.userId, code: command.data.code, expiresAt } }];
      }
      case 'ProveClaim': {
        const s = registered(state);
        const code = normaliseClaimCode(command.data.code);
        const claim = s.claims[code];
        if (!claim || claim.expiresAt <= at) throw new DomainError(DeviceErrors.claimExpired);
        if (!verify(s.publicKey!, claimMessage(s.deviceId!, code), command.data.signature)) throw new DomainError(DeviceErrors.proofInvalid);
        if (s.binding) throw new DomainError(DeviceErrors.alreadyBound);
        return [{ type: 'CloudLockerBound', data: { deviceId: s.deviceId!, ownerId: claim.userId, storageId: command.data.storageId, method: 'proof', at } }];
      }
      case 'StaffBind': {
        const s = matching(state, command.data.serial, command.data.mac);
        if (s.binding) {
          if (s.binding.ownerId === command.data.ownerId) return [];
          throw new DomainError(DeviceErrors.alreadyBound);
        }
        return [
          { type: 'CloudLockerBound', data: { deviceId: s.deviceId!, ownerId: command.data.ownerId, storageId: command.data.storageId, method: 'staff', at } },
        ];
      }
      case 'Unbind': {
        const s = registered(state);
        assertMayAct(s, command.data.actor);
        if (!s.binding) throw new DomainError(DeviceErrors.notBound);
        return [
          {
            type: 'CloudLockerUnbound',
            data: { deviceId: s.deviceId!, ownerId: s.binding.ownerId, storageId: s.binding.storageId, by: by(command.data.actor), at },
          },
        ];
      }
      case 'DeleteCloudLocker': {
        const s = registered(state);
        if (command.data.confirm.trim().toLowerCase() !== 'delete') throw new DomainError(DeviceErrors.confirmDelete);
        assertMayAct(s, command.data.actor);
        const actorKind = by(command.data.actor);
        const unbound: CloudLockerEvent[] = s.binding
          ? [{ type: 'CloudLockerUnbound', data: { deviceId: s.deviceId!, ownerId: s.binding.ownerId, storageId: s.binding.storageId, by: actorKind, at } }]
          : [];
        return [...unbound, { type: 'CloudLockerDeleted', data: { deviceId: s.deviceId!, by: actorKind, at } }];
      }
      default:
        return assertNever(command);
    }
  };
  return { initialState: initialCloudLockerState, evolve: evolveCloudLocker, decide };
};
