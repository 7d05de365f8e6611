import { PACKAGE_STATUSES, PIN_KINDS } from '@axel/domain';
import { z } from 'zod';

export const ErrorSchema = z.object({ code: z.union([z.string(), z.number()]), message: z.string(), data: z.unknown() });

export const ESIGN_PAGE_SIZE = 500;

export const OwnerParams = z.object({ id: z.string().min(1).max(64) });
export const PackageParams = OwnerParams.extend({ packageId: z.uuid() });
export const EntryParams = PackageParams.extend({ entryId: z.uuid() });
export const SignerParams = PackageParams.extend({ signerId: z.uuid() });
export const PinParams = PackageParams.extend({ pinId: z.uuid() });

/** A signer's link: 22 base64url characters. */
const LinkId = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'a signing link id');
export const LinkParams = z.object({ linkId: LinkId });
export const LinkEntryParams = LinkParams.extend({ entryId: z.uuid() });

export const ListQuery = z.object({
  status: z.enum(PACKAGE_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(ESIGN_PAGE_SIZE).default(ESIGN_PAGE_SIZE),
});
export const EntriesQuery = z.object({ q: z.enum(['download-url']).optional() });

export const CreatePackageBody = z.object({ name: z.string().max(1000), message: z.string().max(10_000).nullable().optional() });
export const AddEntryBody = z.object({ fileId: z.uuid(), storageId: z.string().min(1).max(64).optional() });
export const AddSignerBody = z.object({
  name: z.string().min(1).max(255),
  email: z.string().min(3).max(254),
  color: z.number(),
  order: z.number().int().min(1).max(1000).nullable().optional(),
});
const fraction = z.number().min(0).max(1);
export const PlacePinBody = z.object({
  entryId: z.uuid(),
  signerId: z.uuid(),
  kind: z.enum(PIN_KINDS),
  page: z.number().int().min(1).max(100_000),
  x: fraction,
  y: fraction,
  width: fraction,
  height: fraction,
});
export const SendBody = z.object({ password: z.string().min(8).max(128).optional() }).optional();
export const SignBody = z.object({
  signature: z.discriminatedUnion('type', [
    z.object({ type: z.literal('typed'), text: z.string().max(1000) }),
    z.object({ type: z.literal('drawn'), image: z.string().max(2_000_000) }),
  ]),
});

export const EntrySchema = z.object({
  id: z.string(),
  fileId: z.string().nullable(),
  name: z.string(),
  size: z.number(),
  sha256: z.string(),
  pageCount: z.number(),
  downloadUrl: z.string().optional(),
});
export const SignerSchema = z.object({
  id: z.string(),
  linkId: z.string(),
  name: z.string(),
  email: z.string(),
  color: z.number(),
  order: z.number().nullable(),
  signedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export const PinSchema = z.object({
  id: z.string(),
  entryId: z.string(),
  signerId: z.string(),
  kind: z.enum(PIN_KINDS),
  page: z.number(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  filled: z.boolean(),
});
export const PackageSchema = z.object({
  id: z.string(),
  name: z.string(),
  message: z.string().nullable(),
  status: z.enum(PACKAGE_STATUSES),
  createdAt: z.string().nullable(),
  modifiedAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  documentSha256: z.string().nullable(),
  entriesCount: z.number(),
  signersCount: z.number(),
  finishedCount: z.number(),
});
export const PackageDetailSchema = PackageSchema.extend({ entries: z.array(EntrySchema), links: z.array(SignerSchema), pins: z.array(PinSchema) });
export const SentSchema = PackageSchema.extend({ password: z.string().optional() });
export const PackagePageSchema = z.object({ data: z.array(PackageSchema), totalCount: z.number(), page: z.number(), perPage: z.number() });

/** What a signer sees of their link. */
export const LinkViewSchema = z.object({
  linkId: z.string(),
  packageId: z.string(),
  name: z.string(),
  message: z.string().nullable(),
  status: z.enum(PACKAGE_STATUSES),
  signer: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    color: z.number(),
    signedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
  }),
  /** ready: may sign now; waiting: another signer signs first; signed: signed, not yet finished; finished: already signed. */
  signingState: z.enum(['ready', 'waiting', 'signed', 'finished', 'closed']),
  locked: z.boolean(),
  documentReady: z.boolean(),
});
export const LinkEntrySchema = EntrySchema.omit({ fileId: true, downloadUrl: true }).extend({
  contentUrl: z.string(),
  pins: z.array(PinSchema.extend({ mine: z.boolean(), color: z.number() })),
});
export const LeaseSchema = z.object({ expiresAt: z.string() });
