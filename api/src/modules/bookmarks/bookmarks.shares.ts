import { decideShareAccess, DomainError, type BookmarkedShare, type ShareRecord } from '@axel/domain';
import type { AppContext } from '../../context';
import { readAccessToken } from '../sharing/share-access.credentials';
import { loadShareByLinkId } from '../sharing/shares.read';

export interface BookmarkingUser {
  readonly id: string;
  readonly email: string | null;
}

/**
 * The share a user bookmarks, by the link they opened it with. Bookmarking needs what opening
 * needs (the one access decision every reader uses): a live link, the recipient for a private
 * share, and for a password share the object-access token the share answered when the password was
 * given. So a bookmark never tells its owner a title the link would not show them.
 */
export const shareToBookmark = async (ctx: AppContext, linkId: string, user: BookmarkingUser, accessToken: string | undefined): Promise<BookmarkedShare> => {
  const now = ctx.now();
  const { state } = await loadShareByLinkId(ctx, linkId);
  const live = state.status === 'active' ? state : null;
  const held = live ? readAccessToken(ctx.secrets, accessToken, { linkId, passwordHash: live.passwordHash, now }) : null;
  const viewer = { userId: user.id, email: held?.email ?? user.email };
  const access = decideShareAccess(state, { now, viewer, passwordOk: held ? true : null });
  if (!access.ok) {
    // what the link's own refusal tells: which dialog opens it, never its contents
    const gate = live
      ? { shareLinkId: live.linkId, kind: live.kind, requireLogin: live.requireLogin, hasPassword: live.passwordHash !== null, expiresAt: live.expiresAt }
      : undefined;
    throw new DomainError(access.error, gate);
  }
  const share = state as ShareRecord;
  return { id: share.id, linkId: share.linkId, title: share.title };
};
