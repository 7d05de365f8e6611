/**
 * The route table of the product (specification section 2), as data. The router builds its routes
 * from it and the navigation guard classifies paths with it, so both always agree.
 */
export type Access = 'auth' | 'public' | 'admin' | 'redirect';

export type Screen =
  | 'redirect'
  | 'welcome'
  | 'settings'
  | 'signin'
  | 'signup'
  | 'resend'
  | 'emailConfirmation'
  | 'changeEmailConfirmation'
  | 'resetPassword'
  | 'reset2fa'
  | 'deletedAccount'
  | 'adminHandoff'
  | 'files'
  | 'trash'
  | 'wallet'
  | 'transactionSearch'
  | 'transactionId'
  | 'storageManagement'
  | 'plans'
  | 'upgrade'
  | 'slots'
  | 'group'
  | 'checkout'
  | 'subscription'
  | 'paymentResult'
  | 'shares'
  | 'shareLink'
  | 'sharesShared'
  | 'bookmarks'
  | 'members'
  | 'groups'
  | 'membersActivity'
  | 'membersSettings'
  | 'secureFetch'
  | 'secureFetchUpload'
  | 'verifyCertificate'
  | 'dropbox'
  | 'manageApps'
  | 'dropboxAuth'
  | 'clioAuth'
  | 'clio'
  | 'cloudlocker'
  | 'ssoCallback'
  | 'slackAuth'
  | 'esignReceiver'
  | 'esign'
  | 'branding'
  | 'customUrl'
  | 'unlocker'
  | 'notAvailable';

/** Names the guard's exceptions refer to (the product's own route names). */
export type RouteName = 'shares' | 'plans' | 'checkout' | 'payment_result' | 'change_email_confirmation' | 'members' | 'manage_apps' | 'transaction';

export interface RouteDef {
  pattern: string;
  access: Access;
  screen: Screen;
  name?: RouteName;
}

const auth = (pattern: string, screen: Screen = 'notAvailable', name?: RouteName): RouteDef => ({ pattern, access: 'auth', screen, name });
const open = (pattern: string, screen: Screen = 'notAvailable', name?: RouteName): RouteDef => ({ pattern, access: 'public', screen, name });

/** First match wins: static paths come before parameterised siblings. */
export const ROUTES: readonly RouteDef[] = [
  { pattern: '/', access: 'redirect', screen: 'redirect' },
  { pattern: '/login', access: 'redirect', screen: 'redirect' },
  { pattern: '/wallet', access: 'redirect', screen: 'redirect' },

  // Main area, sign-in needed.
  auth('/welcome', 'welcome'),
  auth('/settings', 'settings'),
  auth('/manage-apps', 'manageApps', 'manage_apps'),
  auth('/subscription/manage', 'subscription'),
  auth('/storages/management', 'storageManagement'),
  auth('/storages/upgrade', 'upgrade'),
  auth('/storages/group', 'group'),
  auth('/storages/plans', 'plans', 'plans'),
  auth('/storages/slots', 'slots'),
  auth('/storages/checkout', 'checkout', 'checkout'),
  auth('/files/shares/:shareId?/*', 'shares'),
  auth('/files/secure-fetch/:shareId?/*', 'secureFetch'),
  auth('/files/secure-fetches/:shareId?/*', 'secureFetch'),
  auth('/files/bookmarks/:shareId?/*', 'bookmarks'),
  auth('/files/lists/:listId', 'bookmarks'),
  auth('/files/storage/:storageId?/:id?/*', 'files'),
  auth('/files/enterprise/:groupId/:id?/*'),
  auth('/files/dropbox/:subPath?', 'dropbox'),
  auth('/files/cloudlocker/:driveId/:id?/*', 'cloudlocker'),
  auth('/files/trash/:storageId?', 'trash'),
  auth('/members/manage', 'members', 'members'),
  auth('/members/activity', 'membersActivity', 'members'),
  auth('/members/groupsManage', 'groups', 'members'),
  auth('/members/branding', 'branding', 'members'),
  auth('/members/custom-url', 'customUrl', 'members'),
  auth('/members/settings', 'membersSettings', 'members'),
  auth('/preview/:id?'),
  auth('/axel-unlocker', 'unlocker'),

  // Wallet, sign-in needed.
  auth('/wallet/overview', 'wallet'),
  auth('/wallet/send', 'wallet'),
  auth('/wallet/receive', 'wallet'),
  auth('/wallet/replenish', 'wallet'),
  auth('/wallet/payment', 'wallet'),
  auth('/wallet/transactions', 'wallet'),
  auth('/wallet/contacts', 'wallet'),

  // E-sign owner screens, sign-in needed.
  auth('/esigns/list', 'esign'),
  auth('/esigns/drafts', 'esign'),
  auth('/esigns/archive', 'esign'),
  auth('/esigns/package/upload', 'esign'),
  auth('/esigns/package/prepare', 'esign'),
  auth('/esigns/package/preview', 'esign'),
  auth('/esigns/view/1/:packageId', 'esign'),
  auth('/esigns/view/2/:packageId', 'esign'),
  auth('/esigns/edit/1/:packageId', 'esign'),
  auth('/esigns/edit/2/:packageId', 'esign'),
  auth('/esigns/preview/:packageId?', 'esign'),

  // No sign-in needed.
  open('/storages/result', 'paymentResult', 'payment_result'),
  open('/shares_shared/:id?/entries/:hash?', 'sharesShared', 'shares'),
  open('/shares_shared/:id?', 'sharesShared', 'shares'),
  open('/secure-fetch/:shareId', 'secureFetchUpload'),
  open('/secure-fetches/:shareId', 'secureFetchUpload'),
  open('/verify-certificate', 'verifyCertificate'),
  open('/shares/:shareId/*', 'shareLink', 'shares'),
  open('/private-share/:shareId/*', 'shareLink', 'shares'),
  open('/signin', 'signin'),
  // where a single sign-on provider returns the browser (the API's redirect URI)
  open('/signin/sso/:type', 'ssoCallback'),
  open('/signup', 'signup'),
  open('/register', 'signup'),
  open('/slack-auth/:slackUserId', 'slackAuth'),
  open('/reset-password/:token?', 'resetPassword'),
  open('/reset2fa', 'reset2fa'),
  open('/email-confirmation/:token', 'emailConfirmation'),
  open('/change-email-confirmations/:token', 'changeEmailConfirmation', 'change_email_confirmation'),
  open('/resend', 'resend'),
  open('/deleted-acc', 'deletedAccount'),
  open('/esign/:itemId?', 'esignReceiver'),
  open('/transaction/search', 'transactionSearch'),
  open('/transaction/:id', 'transactionId', 'transaction'),
  open('/app/clio', 'clio'),
  open('/app/clio/auth', 'clioAuth'),
  open('/app/dropbox/auth', 'dropboxAuth'),
  // E-sign receiver screens (anonymous signers), after the owner screens they would shadow.
  open('/esigns/:linkId/:id?', 'esignReceiver'),
  open('/receiver/signing/:linkId?', 'esignReceiver'),

  // Served by the staff console: the web app hands these over with a full page load.
  { pattern: '/admin/*', access: 'admin', screen: 'adminHandoff' },
];

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Compiled {
  def: RouteDef;
  regex: RegExp;
  keys: string[];
}

/** `:name` is one segment, `:name?` an optional one, a trailing `*` the rest of the path. */
export const compilePattern = (pattern: string): { regex: RegExp; keys: string[] } => {
  const keys: string[] = [];
  let source = '';
  for (const segment of pattern.split('/').filter(Boolean)) {
    if (segment === '*') {
      keys.push('*');
      source += '(?:/(.*))?';
    } else if (segment.startsWith(':')) {
      const optional = segment.endsWith('?');
      keys.push(segment.slice(1, optional ? -1 : undefined));
      source += optional ? '(?:/([^/]+))?' : '/([^/]+)';
    } else {
      source += `/${escapeRegExp(segment)}`;
    }
  }
  return { regex: new RegExp(`^${source}/?$`, 'i'), keys };
};

const COMPILED: Compiled[] = ROUTES.map((def) => ({ def, ...compilePattern(def.pattern) }));

const safeDecode = (v: string) => {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
};

export interface RouteMatch {
  def: RouteDef;
  params: Record<string, string | undefined>;
}

export const matchRoute = (path: string): RouteMatch | null => {
  const clean = path.split(/[?#]/)[0] || '/';
  for (const c of COMPILED) {
    const m = c.regex.exec(clean);
    if (!m) continue;
    const params: Record<string, string | undefined> = {};
    c.keys.forEach((k, i) => {
      const v = m[i + 1];
      params[k] = v === undefined ? undefined : safeDecode(v);
    });
    return { def: c.def, params };
  }
  return null;
};

export const isAdminPath = (path: string) => /^\/admin(\/|$)/i.test(path);
