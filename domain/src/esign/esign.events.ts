import { z } from 'zod';
import { defineEvent, erasesOwnStream, type EventOf } from '../shared/events';

/** One stream per package: its documents, signers, their fields and every signing, decided at one revision. */
export const esignPackageStreamName = (packageId: string) => `esign-package-${packageId}`;
export const packageIdOfEsignStream = (streamName: string) => streamName.slice('esign-package-'.length);

export const PIN_KINDS = ['signature', 'initials', 'date', 'text'] as const;
export type PinKind = (typeof PIN_KINDS)[number];
export const SIGNATURE_TYPES = ['typed', 'drawn'] as const;

export const EsignPackageCreated = defineEvent(
  'EsignPackageCreated',
  z.object({ packageId: z.string(), ownerId: z.string(), name: z.string(), message: z.string().nullable() }),
  { personal: ['name', 'message'] },
);
/** A PDF taken into the package: a copy of its bytes is kept with the package (`sha256` of that copy). */
export const EsignEntryAdded = defineEvent(
  'EsignEntryAdded',
  z.object({
    entryId: z.string(),
    fileId: z.string().nullable(),
    name: z.string(),
    size: z.number().int().nonnegative(),
    sha256: z.string(),
    pageCount: z.number().int().positive(),
  }),
  { personal: ['name'] },
);
export const EsignEntryRemoved = defineEvent('EsignEntryRemoved', z.object({ entryId: z.string() }));
/** A signer and the id of their link (`/esigns/<linkId>`): a bearer secret, never shown to staff. */
export const EsignSignerAdded = defineEvent(
  'EsignSignerAdded',
  z.object({
    signerId: z.string(),
    linkId: z.string(),
    name: z.string(),
    email: z.string(),
    color: z.number().int().min(1).max(10),
    order: z.number().int().positive().nullable(),
  }),
  { personal: ['name', 'email'], secret: ['linkId'] },
);
export const EsignSignerRemoved = defineEvent('EsignSignerRemoved', z.object({ signerId: z.string() }));
/** A field on a page: position and size as fractions of the page's unrotated CropBox (origin top left). */
export const EsignPinPlaced = defineEvent(
  'EsignPinPlaced',
  z.object({
    pinId: z.string(),
    entryId: z.string(),
    signerId: z.string(),
    kind: z.enum(PIN_KINDS),
    page: z.number().int().positive(),
    x: z.number(),
    y: z.number(),
    width: z.number(),
    height: z.number(),
  }),
);
export const EsignPinRemoved = defineEvent('EsignPinRemoved', z.object({ pinId: z.string() }));
/** Out for signature: the signers' password is kept as an argon2 hash only. */
export const EsignPackageSent = defineEvent('EsignPackageSent', z.object({ passwordHash: z.string(), sentAt: z.string() }), {
  personal: ['passwordHash'],
  secret: ['passwordHash'],
});
/** A signer's signature, filling every field of theirs (`pinIds`); they may sign again until they finish. */
export const EsignSignerSigned = defineEvent(
  'EsignSignerSigned',
  z.object({
    signerId: z.string(),
    signatureType: z.enum(SIGNATURE_TYPES),
    /** The typed text, or the drawn image as a PNG data URL. */
    signatureValue: z.string(),
    pinIds: z.array(z.string()),
    signedAt: z.string(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
  }),
  { personal: ['signatureValue', 'ip', 'userAgent'] },
);
export const EsignSignerFinished = defineEvent(
  'EsignSignerFinished',
  z.object({ signerId: z.string(), finishedAt: z.string(), ip: z.string().nullable(), userAgent: z.string().nullable() }),
  { personal: ['ip', 'userAgent'] },
);
/** The last signer finished: the sealed PDF was built and stored, these are its SHA-256 and those of the originals. */
export const EsignPackageCompleted = defineEvent(
  'EsignPackageCompleted',
  z.object({ completedAt: z.string(), documentSha256: z.string(), originalSha256: z.record(z.string(), z.string()) }),
);
export const EsignPackageArchived = defineEvent('EsignPackageArchived', z.object({ at: z.string() }));
export const EsignPackageUnarchived = defineEvent('EsignPackageUnarchived', z.object({ at: z.string() }));
export const EsignPackageDeleted = defineEvent('EsignPackageDeleted', z.object({ at: z.string() }));
/** The owner's account was purged: the package's personal data is forgotten with it. */
export const EsignPackageForgotten = defineEvent('EsignPackageForgotten', z.object({ at: z.string() }), { erases: erasesOwnStream });

export const esignEventDefinitions = [
  EsignPackageCreated,
  EsignEntryAdded,
  EsignEntryRemoved,
  EsignSignerAdded,
  EsignSignerRemoved,
  EsignPinPlaced,
  EsignPinRemoved,
  EsignPackageSent,
  EsignSignerSigned,
  EsignSignerFinished,
  EsignPackageCompleted,
  EsignPackageArchived,
  EsignPackageUnarchived,
  EsignPackageDeleted,
  EsignPackageForgotten,
];

export type EsignEvent =
  | EventOf<typeof EsignPackageCreated>
  | EventOf<typeof EsignEntryAdded>
  | EventOf<typeof EsignEntryRemoved>
  | EventOf<typeof EsignSignerAdded>
  | EventOf<typeof EsignSignerRemoved>
  | EventOf<typeof EsignPinPlaced>
  | EventOf<typeof EsignPinRemoved>
  | EventOf<typeof EsignPackageSent>
  | EventOf<typeof EsignSignerSigned>
  | EventOf<typeof EsignSignerFinished>
  | EventOf<typeof EsignPackageCompleted>
  | EventOf<typeof EsignPackageArchived>
  | EventOf<typeof EsignPackageUnarchived>
  | EventOf<typeof EsignPackageDeleted>
  | EventOf<typeof EsignPackageForgotten>;
