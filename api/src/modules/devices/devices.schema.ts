import { ADMIN_DRIVES_PAGE_SIZE } from '@axel/domain';
import { z } from 'zod';
import { fieldErrors, validationError } from '../../http/errors';
import { ListQuerySchema } from '../admin/list-query';

/** As typed: the decider reads them and answers the spec's "required" and format errors. */
const Serial = z.string().max(100);
const Mac = z.string().max(40);
const Base64 = z
  .string()
  .max(400)
  .regex(/^[A-Za-z0-9+/=]*$/, 'validation.base64');

export const UserParams = z.object({ id: z.string().min(1).max(64) });
export const UserDriveParams = z.object({ id: z.string().min(1).max(64), driveId: z.uuid() });
export const DriveParams = z.object({ driveId: z.uuid() });
/** Any id: a device's routes check staff features before they say whether the device exists. */
export const AdminDriveParams = z.object({ id: z.string().min(1).max(64) });

export const UserDrivesQuery = z.object({ online: z.enum(['true', 'false', '1', '0']).optional() });
export const OpenClaimBody = z.object({ serial: Serial, mac: Mac });
const ConfirmDeleteBody = z.object({ confirm: z.string().max(20).default('') });

/**
 * The confirmation of a removal, read after the caller's rights are checked (a caller without the
 * feature learns nothing of the body's shape); a missing one is the spec's "type delete" error.
 */
export const confirmationOf = (body: unknown): string => {
  const parsed = ConfirmDeleteBody.safeParse(body ?? {});
  if (!parsed.success) throw validationError(fieldErrors(parsed.error.issues));
  return parsed.data.confirm;
};

export const RegisterDeviceBody = z.object({ serial: Serial, mac: Mac, publicKey: Base64.min(1), signature: Base64.min(1) });
export const CheckInBody = z.object({ sizeUsed: z.number().int().nonnegative().optional(), sizeTotal: z.number().int().nonnegative().optional() });
export const SizeBody = z.object({ sizeUsed: z.number().int().nonnegative(), sizeTotal: z.number().int().nonnegative() });
export const ProveClaimBody = z.object({ code: z.string().min(1).max(20), signature: Base64.min(1) });

export const AdminDrivesQuery = ListQuerySchema.extend({
  status: z.enum(['online', 'offline']).optional(),
  bound: z.enum(['true', 'false', '1', '0']).optional(),
  perPage: z.coerce.number().int().min(1).max(100).default(ADMIN_DRIVES_PAGE_SIZE),
});
export const StaffBindBody = z
  .object({ serial: Serial, mac: Mac, ownerId: z.string().min(1).max(64).optional(), ownerEmail: z.string().max(320).optional() })
  .refine((b) => b.ownerId !== undefined || b.ownerEmail !== undefined, { message: 'ownerId or ownerEmail' });

export const DriveSchema = z.object({
  id: z.string(),
  serial: z.string(),
  mac: z.string(),
  externalIp: z.string().nullable(),
  status: z.enum(['online', 'offline']),
  online: z.boolean(),
  connectionCheckedAt: z.string().nullable(),
  bound: z.boolean(),
  boundAt: z.string().nullable(),
  modifiedAt: z.string(),
  sizeUsed: z.number(),
  sizeTotal: z.number(),
  sizeUpdatedAt: z.string().nullable(),
  owner: z.string().nullable(),
  ownerId: z.string().nullable(),
  storageId: z.string().nullable(),
});

export const truthy = (v: string | undefined): boolean | null => (v === undefined ? null : v === 'true' || v === '1');
