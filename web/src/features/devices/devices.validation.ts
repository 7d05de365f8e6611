import { normaliseMac, normaliseSerial } from '@axel/domain/devices/devices.identity';
import { z } from 'zod';

const accepts = (normalise: (raw: string) => string) => (raw: string) => {
  try {
    normalise(raw);
    return true;
  } catch {
    return false;
  }
};

/**
 * The bind dialog's fields, checked as the server checks them (spec §5: serial number and MAC
 * address required): the messages are the server's own codes, so a field reads the same either way.
 */
export const bindSchema = z.object({
  serial: z
    .string()
    .refine((s) => s.trim() !== '', 'errors.CLOUDLOCKER_SERIAL_REQUIRED')
    .refine((s) => s.trim() === '' || accepts(normaliseSerial)(s), 'errors.CLOUDLOCKER_SERIAL_INVALID'),
  mac: z
    .string()
    .refine((s) => s.trim() !== '', 'errors.CLOUDLOCKER_MAC_REQUIRED')
    .refine((s) => s.trim() === '' || accepts(normaliseMac)(s), 'errors.CLOUDLOCKER_MAC_INVALID'),
});

/** The word that confirms a CloudLocker's removal (spec §5); the server checks it as typed. */
export const DELETE_WORD = 'delete';
export const confirmsDelete = (typed: string) => typed.trim().toLowerCase() === DELETE_WORD;
