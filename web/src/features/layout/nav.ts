/**
 * The entries of the signed-in app's navigation: only screens the route table renders. Each entry
 * is where it leads and which paths count as being on it (the entry is marked there).
 */
export type NavKey = 'home' | 'files' | 'shares' | 'secureFetch' | 'bookmarks' | 'trash' | 'wallet' | 'plans' | 'members' | 'cloudlockers' | 'esign';

export interface NavEntry {
  key: NavKey;
  to: string;
  /** Path prefixes (lower case, no trailing slash) that belong to the entry. */
  prefixes: readonly string[];
  /** Shown only to people who manage a team (the route guard's own rule for /members). */
  managersOnly?: boolean;
  /** Shown only to people with a CloudLocker bound to them (spec §2: files/cloudlocker/:driveId). */
  cloudLockerOwnersOnly?: boolean;
  /** Shown only on plans with this feature (eSign: Professional, Team, Enterprise). */
  planFeature?: string;
}

export const NAV_ENTRIES: readonly NavEntry[] = [
  { key: 'home', to: '/welcome', prefixes: ['/welcome'] },
  { key: 'files', to: '/files/storage', prefixes: ['/files/storage'] },
  { key: 'shares', to: '/files/shares', prefixes: ['/files/shares', '/shares_shared'] },
  { key: 'secureFetch', to: '/files/secure-fetch', prefixes: ['/files/secure-fetch', '/files/secure-fetches'] },
  { key: 'bookmarks', to: '/files/bookmarks', prefixes: ['/files/bookmarks', '/files/lists'] },
  { key: 'trash', to: '/files/trash', prefixes: ['/files/trash'] },
  { key: 'cloudlockers', to: '/settings?tab=cloudlockers', prefixes: ['/files/cloudlocker'], cloudLockerOwnersOnly: true },
  {
    key: 'esign',
    to: '/esigns/list',
    prefixes: ['/esigns/list', '/esigns/drafts', '/esigns/archive', '/esigns/package', '/esigns/view', '/esigns/edit', '/esigns/preview'],
    planFeature: 'esign',
  },
  { key: 'wallet', to: '/wallet/overview', prefixes: ['/wallet'] },
  { key: 'members', to: '/members/manage', prefixes: ['/members'], managersOnly: true },
  { key: 'plans', to: '/storages/plans', prefixes: ['/storages/plans', '/storages/upgrade', '/storages/checkout', '/storages/slots', '/storages/group'] },
];

/** Where the CloudLockers entry leads: the device's own files when there is one, else the list of them. */
export const cloudLockersTarget = (driveIds: readonly string[]): string =>
  driveIds.length === 1 ? `/files/cloudlocker/${encodeURIComponent(driveIds[0]!)}` : '/settings?tab=cloudlockers';

/** The entry the path is on, if any: `/files/shares/abc` is on shares, `/files/sharesx` on nothing. */
export const activeNav = (path: string): NavKey | null => {
  const clean = path.toLowerCase().replace(/\/+$/, '');
  const hit = NAV_ENTRIES.find((e) => e.prefixes.some((p) => clean === p || clean.startsWith(`${p}/`)));
  return hit?.key ?? null;
};
