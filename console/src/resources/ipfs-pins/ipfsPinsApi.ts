import { ADMIN_API } from '../../data/contractUrl';
import { httpClient } from '../../data/dataProvider';

export const IPFS_PINS = 'ipfs-pins';
export const IPFS_PINS_PER_PAGE = 25;
/** The statuses of the IPFS Pinning Service API, as the server answers them, and a pin staff removed. */
export const PIN_STATUSES = ['queued', 'pinning', 'pinned', 'failed', 'unpinned'] as const;
/** The server's limit on an unpin reason. */
export const UNPIN_REASON_MAX = 500;

const item = (id: unknown) => `${ADMIN_API}/${IPFS_PINS}/${encodeURIComponent(String(id))}`;

/** An unpin reason as it will be sent, or null when it cannot be (blank or too long). */
export const unpinReason = (text: string): string | null => {
  const reason = text.trim();
  return reason && reason.length <= UNPIN_REASON_MAX ? reason : null;
};

/** The staff calls beside ra-data-simple-rest's list. */
export const ipfsPinsApi = {
  retry: async (id: unknown) => (await httpClient(`${item(id)}/retry`, { method: 'POST' })).json as Record<string, unknown>,
  unpin: async (id: unknown, reason: string) =>
    (await httpClient(`${item(id)}/unpin`, { method: 'POST', body: JSON.stringify({ reason }) })).json as Record<string, unknown>,
};
