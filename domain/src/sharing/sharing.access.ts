import type { ErrorDefinition } from '../shared/errors';
import { SharingErrors } from './sharing.errors';
import { normalizeShareEmail } from './sharing.rules';
import { isExpired, type ShareState } from './sharing.state';

export interface ShareViewer {
  /** The signed-in user, if any. */
  readonly userId?: string | null;
  /** The e-mail the visitor gave (or the signed-in user's). */
  readonly email?: string | null;
}

export interface ShareAccessInput {
  readonly now: Date;
  readonly viewer: ShareViewer;
  /**
   * The caller's verdict on the share credential (a verified password, or a valid object-access
   * token): true when it holds, false when one was given and is wrong, null or undefined when none
   * was given. Ignored for shares without a password.
   */
  readonly passwordOk?: boolean | null;
}

export type ShareAccess = { readonly ok: true } | { readonly ok: false; readonly error: ErrorDefinition };

const refuse = (error: ErrorDefinition): ShareAccess => ({ ok: false, error });

/**
 * What a link answers before it asks for any credential: unknown, blocked or expired links say so,
 * the owner reads their own live share, and a share that requires a sign-in asks for it. Callers
 * check this first so that a blocked link costs no password check.
 */
export const decideShareLink = (state: ShareState, { now, viewer }: Pick<ShareAccessInput, 'now' | 'viewer'>): ShareAccess => {
  if (state.status === 'none' || state.status === 'deleted') return refuse(SharingErrors.shareNotFound);
  if (state.status === 'revoked') return refuse(SharingErrors.linkBlocked);
  if (isExpired(state, now)) return refuse(SharingErrors.linkExpired);
  if (viewer.userId && viewer.userId === state.ownerId) return { ok: true };
  if (state.requireLogin && !viewer.userId) return refuse(SharingErrors.loginRequired);
  return { ok: true };
};

/**
 * Whether a visitor may read a share through its link, and if not, the spec's error. One decision
 * for every reader (share pages, entries, downloads, bookmarks, cart). Order matters: a blocked
 * link says so before it asks for anything; a share with a password asks for it before it looks at
 * the recipient, so nobody without the password learns whether an address is a recipient.
 */
export const decideShareAccess = (state: ShareState, { now, viewer, passwordOk }: ShareAccessInput): ShareAccess => {
  const link = decideShareLink(state, { now, viewer });
  if (!link.ok || state.status === 'none') return link;
  // the owner reads their own live share without the recipient's checks
  if (viewer.userId && viewer.userId === state.ownerId) return link;
  if (state.passwordHash !== null) {
    if (passwordOk === null || passwordOk === undefined) return refuse(SharingErrors.passwordRequired);
    if (!passwordOk) return refuse(SharingErrors.wrongPassword);
  }
  if (state.kind === 'private') {
    const email = viewer.email ? normalizeShareEmail(viewer.email) : '';
    if (!email) return refuse(SharingErrors.recipientEmailRequired);
    const recipient = state.recipients.find((r) => r.email === email);
    if (!recipient) return refuse(SharingErrors.recipientOnly);
    if (recipient.blocked) return refuse(SharingErrors.recipientBlocked);
  }
  return { ok: true };
};
