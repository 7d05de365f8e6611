import type { Share } from './sharing.types';

export type ShareState = 'active' | 'revoked' | 'expired';

/** What the owner's list says of a share: revoked (final), expired (a time fact), or active. */
export const shareState = (share: Pick<Share, 'revokedAt' | 'expiresAt'>, now: Date): ShareState => {
  if (share.revokedAt) return 'revoked';
  if (share.expiresAt && new Date(share.expiresAt).getTime() <= now.getTime()) return 'expired';
  return 'active';
};
