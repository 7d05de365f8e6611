import { APPS, CLIO_REGIONS } from '@axel/domain';
import { z } from 'zod';

export const tags = ['integrations'];

export const UserParams = z.object({ id: z.string().min(1).max(64) });
export const AppParams = UserParams.extend({ app: z.enum(APPS) });

const code = z.string().trim().min(1).max(2000);
const state = z.string().min(1).max(4000);

export const DropboxAuthBody = z.object({ code, state });
export const ClioAuthorizeQuery = z.object({ region: z.enum(CLIO_REGIONS).default('app') });
/** Spec §7: `POST /users/{id}/clio/auth/ (code)`; the state of the round trip names the region. */
export const ClioAuthBody = z.object({ code, state: state.optional(), region: z.enum(CLIO_REGIONS).optional() });

/** A Dropbox path: '/'-separated, starting with '/'. */
const dropboxPath = z
  .string()
  .min(2)
  .max(4096)
  .startsWith('/', 'a Dropbox path starting with /')
  .refine((p) => !p.includes('\0'), 'a Dropbox path');
const storageId = z.string().min(1).max(64);
export const ImportBody = z.object({ path: dropboxPath, storageId });

/** The Dropbox endpoint a proxy call names (checked against the allowed list in the route). */
export const ProxyParams = z.object({ '*': z.string().min(1).max(64) });
export const ProxyBody = z.record(z.string(), z.unknown()).nullish();

const matterId = z.string().regex(/^\d{1,20}$/, 'a Clio matter id');
export const MattersQuery = z.object({ q: z.string().trim().max(100).optional() });
export const ClioFileBody = z.object({ matterId, storageId, itemId: z.string().min(1).max(64) });
export const ClioCertificateBody = z.object({ matterId, fetchId: z.string().min(1).max(64) });
