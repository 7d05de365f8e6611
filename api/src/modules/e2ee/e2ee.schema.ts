import { PASSPHRASE_HINT_MAX_LENGTH } from '@axel/domain';
import { z } from 'zod';

export const tags = ['e2ee'];
const id = z.string().min(1).max(64);

export const UserParams = z.object({ id });
export const ShareParams = z.object({ id });

/** An armored key is a few kilobytes; a generous cap keeps a body from being a blob. */
const armored = z.string().min(1).max(65_536);

export const KeyBody = z.object({
  /** set: the first passphrase; change: the same key re-protected; reset: a new key (older files become unreadable). */
  mode: z.enum(['set', 'change', 'reset']),
  privateKey: armored,
  hint: z.string().max(PASSPHRASE_HINT_MAX_LENGTH),
});

export const DefaultsBody = z
  .object({ encryptionDefault: z.boolean().optional(), e2eeEnabledGlobalDefault: z.boolean().optional() })
  .refine((b) => b.encryptionDefault !== undefined || b.e2eeEnabledGlobalDefault !== undefined, { message: 'nothing to change' });

/** Spec §7: POST /shares/{id}/pgp-signatures. */
export const SignatureBody = z.object({
  signedFileId: id,
  signedFileName: z.string().min(1).max(1024),
  nodeId: z.string().max(100).nullable().optional(),
  uploadId: z.string().max(64).nullable().optional(),
  mime: z.string().max(255).nullable().optional(),
  size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
  /** The armored detached OpenPGP signature of the file. */
  pgpmessage: armored,
});
