import type { SecureFetch } from './secure-fetch.api';

/**
 * What the owner is told about a fetch: spec §4 status (pending, uploaded, active), with the ends
 * of a pending link's validity (revoked, expired) named, since such a link takes no more files, and
 * unpaid files that were collected 2 hours after they arrived.
 */
export type DisplayStatus = 'waiting' | 'revoked' | 'expired' | 'uploaded' | 'collected' | 'active';

export const statusOf = (fetch: Pick<SecureFetch, 'status' | 'revokedAt' | 'expiresAt' | 'paid' | 'collectedAt'>, now = new Date()): DisplayStatus => {
  if (fetch.status === 'active' || (fetch.status === 'uploaded' && fetch.paid)) return 'active';
  if (fetch.status === 'uploaded') return fetch.collectedAt ? 'collected' : 'uploaded';
  if (fetch.revokedAt) return 'revoked';
  if (fetch.expiresAt && new Date(fetch.expiresAt).getTime() <= now.getTime()) return 'expired';
  return 'waiting';
};
