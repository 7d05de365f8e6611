import { defineErrors } from '../shared/errors';

/**
 * CloudLocker devices (spec rules-calls-errors.md §5: serial number and MAC address required,
 * typing `delete` confirms removal). A serial and MAC that do not match a registered device answer
 * the same "not found" as an unknown serial, so the pair cannot be probed one half at a time.
 */
export const DeviceErrors = defineErrors({
  serialRequired: { code: 'CLOUDLOCKER_SERIAL_REQUIRED', status: 400, message: 'CloudLocker serial number is required' },
  macRequired: { code: 'CLOUDLOCKER_MAC_REQUIRED', status: 400, message: 'CloudLocker MAC address is required' },
  invalidSerial: { code: 'CLOUDLOCKER_SERIAL_INVALID', status: 400, message: 'This is not a CloudLocker serial number' },
  invalidMac: { code: 'CLOUDLOCKER_MAC_INVALID', status: 400, message: 'This is not a MAC address' },
  notFound: { code: 'CLOUDLOCKER_NOT_FOUND', status: 404, message: 'No CloudLocker with this serial number and MAC address' },
  alreadyRegistered: { code: 'CLOUDLOCKER_ALREADY_REGISTERED', status: 409, message: 'This CloudLocker is registered with another key' },
  alreadyBound: { code: 'CLOUDLOCKER_ALREADY_BOUND', status: 409, message: 'This CloudLocker is already bound' },
  notBound: { code: 'CLOUDLOCKER_NOT_BOUND', status: 409, message: 'This CloudLocker is not bound' },
  claimExpired: { code: 'CLOUDLOCKER_CLAIM_EXPIRED', status: 410, message: 'This code has expired: start binding again' },
  proofInvalid: { code: 'CLOUDLOCKER_PROOF_INVALID', status: 403, message: 'The device could not prove it holds its key' },
  notOwner: { code: 'CLOUDLOCKER_NOT_OWNER', status: 403, message: 'This CloudLocker is bound to someone else' },
  confirmDelete: { code: 'CLOUDLOCKER_CONFIRM_DELETE', status: 400, message: 'Type delete to confirm' },
  invalidSize: { code: 'CLOUDLOCKER_SIZE_INVALID', status: 400, message: 'Size used cannot exceed the size total' },
});
