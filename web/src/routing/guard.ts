import type { UserInfo } from '../api/types';
import { isAdminPath, matchRoute, type RouteName } from './routeTable';

/** The parts of the user info the guard reads. */
export type GuardUser = Pick<UserInfo, 'role' | 'status' | 'isTeamOwner' | 'isCoAdmin' | 'isProfessional' | 'isBusOwner' | 'isGroupOwner' | 'isAppVisible'> &
  Partial<Pick<UserInfo, 'isUnpaidUser'>>;

export interface GuardInput {
  /** Wanted pathname. */
  path: string;
  /** Wanted query string, with or without its '?'. */
  search?: string;
  user: GuardUser | null;
  online: boolean;
  /** Why the last session ended (USER_DELETED, SESSION_INACTIVE...), null when it was not forced. */
  signedOutReason?: string | null;
  /** True only in production when the app is served from a customer's custom host. */
  isCustomHost?: boolean;
  /** Origin of the main host (https://app.example.com); needed with isCustomHost. */
  mainOrigin?: string;
  /** Base of the external transaction explorer; the id is appended. */
  explorerBaseUrl?: string;
}

export type GuardResult = { action: 'allow' } | { action: 'redirect'; to: string; external?: boolean } | { action: 'block'; reason: 'offline' };

/** The page that tells a user their account is gone. */
export const DELETED_ACCOUNT_PATH = '/deleted-acc';
/** The sign-out reason of an account that was deleted (by its owner or by staff). */
export const ACCOUNT_DELETED_REASON = 'USER_DELETED';

export const DEFAULT_EXPLORER_BASE_URL = 'https://explorer.axel.network/tx/';
export const STAFF_ROLES = ['admin', 'super_admin', 'financial_admin'] as const;

const TRANSACTION_ID = /^[a-z0-9]{20,}$/i;

/** Routes an abandoned or unpaid user may still open. */
const OPEN_TO_UNPAID: ReadonlySet<RouteName> = new Set(['shares', 'plans', 'checkout', 'payment_result', 'change_email_confirmation']);

const allow: GuardResult = { action: 'allow' };
const redirect = (to: string, external = false): GuardResult => (external ? { action: 'redirect', to, external } : { action: 'redirect', to });

const withSearch = (path: string, search?: string) => {
  if (!search) return path;
  return search.startsWith('?') ? `${path}${search}` : `${path}?${search}`;
};

export const canManageMembers = (u: Pick<GuardUser, 'isTeamOwner' | 'isCoAdmin' | 'isProfessional' | 'isBusOwner' | 'isGroupOwner'>) =>
  u.isTeamOwner || u.isCoAdmin || u.isProfessional || u.isBusOwner || u.isGroupOwner;

/**
 * The main host's sign-in page for someone who came from a team's custom host: a session cookie
 * belongs to one host, so signing in happens (and stays) on the main host. `search` is the custom
 * host's sign-in query (its `redirect` is kept); `from=customOrigin` is added.
 */
export const mainHostSignIn = (mainOrigin: string, search = ''): string => {
  const query = new URLSearchParams(search);
  query.set('from', 'customOrigin');
  return `${mainOrigin.replace(/\/$/, '')}/signin?${query.toString()}`;
};

const signInRedirect = (input: GuardInput): GuardResult => {
  const wanted = withSearch(input.path, input.search);
  const query = new URLSearchParams({ redirect: wanted });
  if (input.isCustomHost && input.mainOrigin) return redirect(mainHostSignIn(input.mainOrigin, query.toString()), true);
  return redirect(`/signin?${query.toString()}`);
};

/**
 * The navigation guard of the specification, as a pure function of the wanted path and what is
 * known about the visitor. Rules, in order:
 * offline blocks; fixed redirects (/ , /login, /wallet, /transaction/:id); admin paths (no sign-in
 * redirect, staff roles only); no session on a sign-in route goes to /deleted-acc when the session
 * ended because the account was deleted (there is nothing to sign in to), else to
 * /signin?redirect= (on a team's custom host: the main host's, with from=customOrigin); abandoned
 * or unpaid users go to /storages/plans except on the shares, plans, checkout, payment result and
 * e-mail change routes; /members needs a managing role; /manage-apps needs isAppVisible.
 */
export const guard = (input: GuardInput): GuardResult => {
  const { path, user } = input;
  if (!input.online) return { action: 'block', reason: 'offline' };

  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const lower = clean.toLowerCase();
  if (lower === '/' || lower === '') return redirect('/welcome');
  if (lower === '/login') return redirect(withSearch('/signin', input.search));
  if (lower === '/wallet') return redirect('/wallet/transactions');

  const match = matchRoute(clean);

  if (match?.def.name === 'transaction') {
    const id = match.params.id ?? '';
    if (TRANSACTION_ID.test(id)) {
      return redirect(`${input.explorerBaseUrl ?? DEFAULT_EXPLORER_BASE_URL}${encodeURIComponent(id)}`, true);
    }
  }

  if (isAdminPath(clean)) {
    // No session: the console itself asks for sign-in, admin paths get no redirect parameter.
    if (!user) return allow;
    if (!(STAFF_ROLES as readonly string[]).includes(user.role)) return redirect('/welcome');
    if (lower === '/admin') return redirect('/admin/dashboard');
    return allow;
  }

  // Unknown paths render the 404 page whoever asks.
  if (!match) return allow;

  if (!user) {
    if (match.def.access === 'auth' && input.signedOutReason === ACCOUNT_DELETED_REASON) return redirect(DELETED_ACCOUNT_PATH);
    // on a custom host /signin stays: it shows the team's branding and sends on to mainHostSignIn
    if (match.def.access === 'auth') return signInRedirect(input);
    return allow;
  }

  // A user in grace (isGraceUnpaidUser) still uses the app and is only warned; once the grace has
  // ended billing marks them unpaid, whatever the account status says.
  const forcedToPay = user.status === 'abandoned' || user.status === 'unpaid' || user.isUnpaidUser === true;
  if (forcedToPay && !(match.def.name && OPEN_TO_UNPAID.has(match.def.name))) {
    return redirect('/storages/plans');
  }

  if (match.def.name === 'members' && !canManageMembers(user)) return redirect('/files/storage');
  if (match.def.name === 'manage_apps' && !user.isAppVisible) return redirect('/welcome');

  return allow;
};
