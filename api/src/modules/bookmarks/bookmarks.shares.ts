import { DomainError, isExpired, SharingErrors, type BookmarkedShare } from '@axel/domain';
import type { AppContext } from '../../context';
import { loadShareByLinkId } from '../sharing/shares.read';

/**
 * The share a user bookmarks, by the link they opened it with. Only a live link can be bookmarked:
 * unknown or deleted is 404, revoked and expired say so. The title is what the link's public
 * summary shows anyone holding the link, so it may seed the description.
 */
export const shareToBookmark = async (ctx: AppContext, linkId: string): Promise<BookmarkedShare> => {
  const { state } = await loadShareByLinkId(ctx, linkId);
  if (!state || state.status === 'none' || state.status === 'deleted') throw new DomainError(SharingErrors.shareNotFound);
  if (state.status === 'revoked') throw new DomainError(SharingErrors.linkBlocked);
  if (isExpired(state, ctx.now())) throw new DomainError(SharingErrors.linkExpired);
  return { id: state.id, linkId: state.linkId, title: state.title };
};
