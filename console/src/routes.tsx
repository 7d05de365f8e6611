import type { ReactElement } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';

export const BASENAME = '/admin';
const DASHBOARD_PATH = `${BASENAME}/dashboard`;

/** The specification's names of console sections (§2) that the console shows under another path. */
export const SPEC_PATHS: Readonly<Record<string, string>> = { delacc: 'deleted-users', 'ipfs-pinning': 'ipfs-pins' };

/**
 * The console's top routes around the react-admin app: /admin itself redirects to the dashboard, the
 * specification's section paths (/admin/delacc) to the console's own; anything outside /admin
 * (react-admin navigates to "/" after some checks) lands on the dashboard too.
 */
export const appRoutes = (admin: ReactElement): RouteObject[] => [
  { path: BASENAME, element: <Navigate to={DASHBOARD_PATH} replace /> },
  ...Object.entries(SPEC_PATHS).map(([from, to]) => ({ path: `${BASENAME}/${from}`, element: <Navigate to={`${BASENAME}/${to}`} replace /> })),
  { path: `${BASENAME}/*`, element: admin },
  { path: '*', element: <Navigate to={DASHBOARD_PATH} replace /> },
];
