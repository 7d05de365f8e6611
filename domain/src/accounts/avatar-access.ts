import { rankOf } from './staff-rank';

export interface AvatarViewer {
  readonly id: string;
  readonly role: string;
}

/**
 * Who may see a user's avatar: the user, and staff (who see every account in the console). Nobody
 * else yet: the API promises the owner only, and teams will widen this to the members of the
 * owner's team when they exist.
 */
export const mayViewAvatar = (viewer: AvatarViewer, ownerId: string): boolean => {
  if (viewer.id === ownerId) return true;
  const rank = rankOf(viewer.role);
  return rank > 0 && Number.isFinite(rank);
};
