import { DomainError, type ErrorDefinition } from '../shared/errors';
import { StorageErrors } from '../storage/storage.errors';
import { ShareAccessErrors } from './share-access';
import { decideShareAccess, type ShareAccess } from './sharing.access';
import { SharingErrors } from './sharing.errors';
import { SHARED_FILE_MAX_BYTES } from './sharing.rules';
import type { ShareState } from './sharing.state';

/*
 * A share's archive belongs to the share and the visit that asked for it (or to the owner's own
 * session on the share), and lives no longer than that visit's right to read the share: the zip's
 * URL is handed out only to the same visit, and every byte of it is served only while the share
 * still lets that visitor in (not revoked, expired, deleted, made view-only, the recipient blocked,
 * the password changed since), and only for what the share still holds within its size rules.
 */

/** Whom an archive task was made for. */
export interface ShareArchiveBinding {
  readonly shareId: string;
  /** The visit (access token) that made it; `owner-<userId>` for the owner's own session. */
  readonly visitId: string;
  /** The recipient e-mail the visit was let in with. */
  readonly email: string | null;
  /** The signed-in user who made it (the owner, or a signed-in visitor). */
  readonly userId: string | null;
  /** A fingerprint of the share's password when the archive was made ('' without a password). */
  readonly passwordStamp: string;
}

/** Who asks for the archive's URL: the share they were let in to, and their visit. */
export interface ShareArchiveCaller {
  readonly shareId: string;
  readonly visitId: string;
}

/**
 * Whether an archive's URL may be handed to this caller: only to the visit of the share that made
 * it. Anything else is answered as if the task did not exist (a task id names nothing elsewhere).
 */
export const decideShareArchiveHandOut = (binding: ShareArchiveBinding | null, caller: ShareArchiveCaller): ShareAccess =>
  binding !== null && binding.shareId === caller.shareId && binding.visitId === caller.visitId
    ? { ok: true }
    : { ok: false, error: StorageErrors.taskNotFound };

/**
 * Whether an archive's bytes may still be served: the share, as it is now, still lets in the
 * visitor the archive was made for, under the password it was made under.
 */
export const decideShareArchiveServe = (
  binding: ShareArchiveBinding,
  state: ShareState,
  input: { readonly now: Date; readonly passwordStamp: string },
): ShareAccess => {
  if (state.status === 'none' || state.id !== binding.shareId) return { ok: false, error: SharingErrors.shareNotFound };
  const access = decideShareAccess(state, { now: input.now, viewer: { userId: binding.userId, email: binding.email }, passwordOk: true });
  if (!access.ok) return access;
  const isOwner = binding.userId !== null && binding.userId === state.ownerId;
  if (isOwner) return access;
  if (binding.passwordStamp !== input.passwordStamp) return { ok: false, error: SharingErrors.passwordRequired };
  if (!state.downloadable) return { ok: false, error: ShareAccessErrors.viewOnly };
  return access;
};

/**
 * Spec §5 and §9: a shared file is at most 10 MiB without the unlimited-shared-file-size
 * permission. Checked where bytes leave a share (each file read, each archive), so a file moved
 * into a shared folder after the share was made is held to the same rule.
 */
export const sharedFileSizeProblem = (size: number, unlimited: boolean): ErrorDefinition | null =>
  !unlimited && size > SHARED_FILE_MAX_BYTES ? SharingErrors.fileTooLarge : null;

export const checkSharedFileSize = (file: { readonly id: string; readonly size: number }, unlimited: boolean): void => {
  const problem = sharedFileSizeProblem(file.size, unlimited);
  if (problem) throw new DomainError(problem, { itemId: file.id, maxSize: SHARED_FILE_MAX_BYTES });
};
