import type { AuthProvider, UserIdentity } from 'react-admin';
import { ApiError, browserFetch, requestJson, type FetchLike } from '../api/http';
import { isConsoleLocale, type ConsoleLocale } from '../i18n/locales';
import { applySavedLocaleAgain } from '../i18n/staffLocale';
import { decideAccess, WELCOME_PATH, type StaffPermissions } from './access';

interface UserInfo {
  readonly id: string;
  readonly email: string;
  readonly role: string;
}

type SignInAnswer = { readonly user: UserInfo } | { readonly twoFactorRequired: true; readonly method: 'email' | 'totp' | null };

interface SessionAnswer {
  readonly user: UserInfo;
}

interface StaffMe {
  readonly id: string;
  readonly email: string;
  readonly role: string;
  readonly features: readonly string[];
  readonly locale?: string;
}

export interface StaffIdentity extends UserIdentity {
  readonly email: string;
  readonly role: string;
  readonly features: readonly string[];
  /** The console language saved with the account, applied at sign-in on any browser. */
  readonly locale: ConsoleLocale | null;
}

export interface Credentials {
  readonly email: string;
  readonly password: string;
  readonly code?: string;
}

/** The password was right and the account has two-factor sign-in: ask for the code, then sign in again with it. */
export class TwoFactorRequiredError extends Error {
  readonly method: 'email' | 'totp' | null;
  constructor(method: 'email' | 'totp' | null) {
    super('Two-factor code required');
    this.name = 'TwoFactorRequiredError';
    this.method = method;
  }
}

/** The account signed in is not staff: the browser is already on its way to /welcome. */
export class LeavingConsoleError extends Error {
  constructor() {
    super('Not a staff account');
    this.name = 'LeavingConsoleError';
  }
}

/** Rejection shape react-admin reads: `redirectTo: false` stops its redirect to the login page, `message: false` its toast. */
const leavingRejection = { redirectTo: false, message: false } as const;

export interface AuthProviderDeps {
  readonly fetch?: FetchLike;
  /** Full-page navigation out of the console. */
  readonly goTo?: (url: string) => void;
}

export const SESSION_PATH = '/api/sessions/';
export const CURRENT_SESSION_PATH = '/api/sessions/this/';
export const STAFF_ME_PATH = '/api/admin/me';

export const createAuthProvider = ({ fetch: fetchImpl = browserFetch, goTo = (url) => window.location.assign(url) }: AuthProviderDeps = {}): AuthProvider => {
  // Set once a non-staff account is detected. From then on the page is being replaced by the web
  // app: react-admin's follow-up logout must neither end that user's session nor redirect.
  let leaving = false;
  let me: Promise<StaffMe> | null = null;

  const leave = () => {
    leaving = true;
    me = null;
    goTo(WELCOME_PATH);
  };

  const loadMe = (): Promise<StaffMe> => {
    me ??= requestJson<StaffMe>(fetchImpl, STAFF_ME_PATH)
      .then(({ json }) => {
        if (decideAccess(json.role) === 'welcome') {
          leave();
          throw new LeavingConsoleError();
        }
        return json;
      })
      .catch((error: unknown) => {
        me = null;
        if (error instanceof ApiError && error.status === 403) leave();
        throw error;
      });
    return me;
  };

  return {
    async login(params: Credentials) {
      leaving = false;
      me = null;
      applySavedLocaleAgain();
      const body: Credentials = params.code
        ? { email: params.email, password: params.password, code: params.code }
        : { email: params.email, password: params.password };
      const { json } = await requestJson<SignInAnswer>(fetchImpl, SESSION_PATH, { method: 'POST', body: JSON.stringify(body) });
      if ('twoFactorRequired' in json) throw new TwoFactorRequiredError(json.method ?? null);
      if (decideAccess(json.user.role) === 'welcome') {
        leave();
        throw new LeavingConsoleError();
      }
    },

    async checkAuth() {
      if (leaving) throw leavingRejection;
      let session: SessionAnswer;
      try {
        session = (await requestJson<SessionAnswer>(fetchImpl, CURRENT_SESSION_PATH)).json;
      } catch (error) {
        me = null;
        if (error instanceof ApiError && error.status === 401) {
          // A first visit needs no toast; a session ended by inactivity says so.
          throw { message: error.code === 'SESSION_INACTIVE' ? 'console.auth.sessionInactive' : false };
        }
        throw error;
      }
      if (decideAccess(session.user.role) === 'welcome') {
        leave();
        throw leavingRejection;
      }
    },

    async logout() {
      me = null;
      if (leaving) return false;
      try {
        await requestJson(fetchImpl, CURRENT_SESSION_PATH, { method: 'DELETE' });
      } catch {
        // Already signed out: the login page is the right place either way.
      }
      return undefined;
    },

    async checkError(error: unknown) {
      if (leaving) throw leavingRejection;
      const status = (error as { status?: unknown } | null)?.status;
      if (status === 401) {
        me = null;
        const code = (error as { body?: { code?: unknown } }).body?.code;
        throw { message: code === 'SESSION_INACTIVE' ? 'console.auth.sessionInactive' : 'ra.auth.auth_check_error' };
      }
      // 403 here means a missing feature for one action, not a lost session: the caller shows it.
    },

    async getPermissions(): Promise<StaffPermissions> {
      const staff = await loadMe();
      return { role: staff.role, features: staff.features };
    },

    async getIdentity(): Promise<StaffIdentity> {
      const staff = await loadMe();
      return {
        id: staff.id,
        fullName: staff.email,
        email: staff.email,
        role: staff.role,
        features: staff.features,
        locale: isConsoleLocale(staff.locale) ? staff.locale : null,
      };
    },
  };
};
