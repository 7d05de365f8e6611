/** Menu sections that are not built yet; each gets a custom route showing "Not available yet". */
export const PENDING_SECTIONS = [
  { path: 'cloudlockers', label: 'console.menu.cloudLockers' },
  { path: 'ipfs-pinning', label: 'console.menu.ipfsPinning' },
] as const;
export type PendingSection = (typeof PENDING_SECTIONS)[number];
