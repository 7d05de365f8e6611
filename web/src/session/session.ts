import { api } from '../api/client';
import { ApiError, toApiError } from '../api/errors';
import { matchRoute } from '../routing/routeTable';
import { noticeStore } from './notices';
import { sessionApi } from './session.api';
import { sessionStore } from './store';
import { decideUnauthorizedNotice } from './unauthorized';

let lastInactivityNoticeAt: number | null = null;

/**
 * On a signed-in page the guard now sends the user to sign-in, which shows the reason itself;
 * anywhere else the reason is announced as a notice.
 */
const announce = (key: string, severity: 'warning' | 'error') => {
  const route = matchRoute(window.location.pathname)?.def;
  // The deleted-account page says itself why no session is left.
  if (route?.access === 'auth' || route?.screen === 'deletedAccount') return;
  noticeStore.push({ severity, key });
};

/** Wires the 401 rule of the error catalogue into the shared HTTP client. */
export const installUnauthorizedHandler = () => {
  api.setUnauthorizedHandler(({ error, lastOperationAt, now }) => {
    const { user } = sessionStore.get();
    const notice = decideUnauthorizedNotice({
      code: error.code,
      now,
      lastOperationAt,
      sessionTimeoutSeconds: user?.sessionTimeout ?? null,
      lastInactivityNoticeAt,
      hadUser: user !== null,
    });
    if (notice === 'inactivity') {
      lastInactivityNoticeAt = now;
      announce('errors.SESSION_INACTIVE', 'warning');
      sessionStore.signedOut('SESSION_INACTIVE');
    } else if (notice === 'unauthorized') {
      announce('errors.UNAUTHORIZED', 'error');
      sessionStore.signedOut('UNAUTHORIZED');
    } else if (user) {
      sessionStore.signedOut(sessionStore.get().signedOutReason);
    }
  });
};

/** Asks the server whether a session exists; the router waits for this before guarding. */
export const loadSession = async () => {
  try {
    const { user } = await sessionApi.current();
    sessionStore.signedIn(user);
  } catch (e) {
    const error = toApiError(e);
    if (error.status !== 401) noticeStore.push({ severity: 'error', key: `errors.${error.code}`, values: { defaultValue: error.message } });
    if (sessionStore.get().status === 'loading') sessionStore.signedOut(sessionStore.get().signedOutReason);
  }
};

/** Re-reads the user info (after a push event or a settings change made elsewhere). */
export const refreshUser = async () => {
  const { user } = sessionStore.get();
  if (!user) return;
  try {
    sessionStore.signedIn(await sessionApi.user(user.id));
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 401)) {
      noticeStore.push({ severity: 'error', key: 'errors.USER_DATA_FAILED' });
    }
  }
};

/**
 * The inactivity timeout ran out in this browser: the account's data leaves the screen at once
 * (the user state is cleared before the server is asked), then the session is ended on the
 * server. The sign-in page shows the inactivity message; a 401 answering the sign-out itself stays
 * quiet because the message was just given.
 */
export const signOutForInactivity = async () => {
  lastInactivityNoticeAt = Date.now();
  api.cancelAll();
  sessionStore.signedOut('SESSION_INACTIVE');
  try {
    sessionStorage.clear();
  } catch {
    // Storage may be unavailable (private mode); nothing to clear then.
  }
  try {
    await sessionApi.logout();
  } catch {
    // The session may already have ended on the server for the same reason.
  }
};

/** Logout: cancel requests, end the session on the server, forget everything local. */
export const logout = async (reason: string | null = null) => {
  api.cancelAll();
  try {
    await sessionApi.logout();
  } catch {
    // The session is forgotten locally whether or not the server answered.
  }
  try {
    sessionStorage.clear();
  } catch {
    // Storage may be unavailable (private mode); nothing to clear then.
  }
  sessionStore.signedOut(reason);
};
