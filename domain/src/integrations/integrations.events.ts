import { z } from 'zod';
import { defineEvent, erasesOwnStream, type EventOf } from '../shared/events';

/** One stream per user holds their connected apps and what went through them. */
export const integrationsStreamName = (userId: string) => `integrations-${userId}`;

export const APPS = ['dropbox', 'clio'] as const;
export type App = (typeof APPS)[number];
/** Clio's data regions, each its own host (app.clio.com, eu.app.clio.com, ca.app.clio.com, au.app.clio.com). */
export const CLIO_REGIONS = ['app', 'eu', 'ca', 'au'] as const;
export type ClioRegion = (typeof CLIO_REGIONS)[number];

const app = z.enum(APPS);

/**
 * The provider gave a long-lived refresh token for this account. The token is a bearer secret and
 * personal data: sealed under the stream's key (destroyed with the account), never shown to staff.
 */
export const AppConnected = defineEvent(
  'AppConnected',
  z.object({ app, accountId: z.string(), region: z.enum(CLIO_REGIONS).nullable(), refreshToken: z.string() }),
  { personal: ['accountId', 'refreshToken'], secret: ['refreshToken'] },
);
/** `user` disconnected it, the plan or team stopped `allowing` it, or the provider `refused` the token. */
export const AppDisconnected = defineEvent('AppDisconnected', z.object({ app, reason: z.enum(['user', 'not_allowed', 'refused']) }));
/** A Dropbox file streamed into a finished upload, its bytes checked against Dropbox's content hash. */
export const DropboxFileImported = defineEvent(
  'DropboxFileImported',
  z.object({
    importId: z.string(),
    path: z.string(),
    contentHash: z.string(),
    size: z.number().int().nonnegative(),
    storageId: z.string(),
    uploadId: z.string(),
  }),
  { personal: ['path'], secret: ['uploadId'] },
);
/** A file sent to the user's Dropbox (at most 150 MB). */
export const DropboxFileUploaded = defineEvent(
  'DropboxFileUploaded',
  z.object({ path: z.string(), contentHash: z.string(), size: z.number().int().nonnegative() }),
  { personal: ['path'] },
);
/**
 * A document filed to a Clio matter: a stored file, or a Secure Fetch certificate of authenticity
 * with the hashes it certifies, so the matter holds the chain of custody.
 */
export const ClioDocumentFiled = defineEvent(
  'ClioDocumentFiled',
  z.object({
    filingId: z.string(),
    matterId: z.string(),
    documentId: z.string(),
    name: z.string(),
    kind: z.enum(['file', 'certificate']),
    size: z.number().int().nonnegative(),
    sha256: z.string(),
    /** The storage item or the Secure Fetch link it came from. */
    sourceId: z.string(),
    /** For a certificate: the canonical hash the chain timestamps, and its transaction. */
    certificateSha256: z.string().nullable(),
    txId: z.string().nullable(),
  }),
  { personal: ['name'] },
);
/** The owner's account was purged: tokens, paths and names are forgotten with it. */
export const IntegrationsForgotten = defineEvent('IntegrationsForgotten', z.object({ at: z.string() }), { erases: erasesOwnStream });

export const integrationEventDefinitions = [AppConnected, AppDisconnected, DropboxFileImported, DropboxFileUploaded, ClioDocumentFiled, IntegrationsForgotten];

export type IntegrationEvent =
  | EventOf<typeof AppConnected>
  | EventOf<typeof AppDisconnected>
  | EventOf<typeof DropboxFileImported>
  | EventOf<typeof DropboxFileUploaded>
  | EventOf<typeof ClioDocumentFiled>
  | EventOf<typeof IntegrationsForgotten>;
