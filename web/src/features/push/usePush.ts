import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { api, API_BASE } from '../../api/client';
import { ACCOUNT_DELETED_REASON, DELETED_ACCOUNT_PATH } from '../../routing/guard';
import { refreshUser } from '../../session/session';
import { sessionStore } from '../../session/store';
import { unseenStore } from '../notifications/unseen';

/** Events the server pushes on /users/:id/push. */
export const PUSH_EVENTS = {
  suspended: 'user.suspended',
  forbiddenActionsChanged: 'user.forbidden-actions-changed',
  notification: 'notification',
} as const;

/** The error code a session-ending push event carries in its data, if any. */
export const pushedCode = (event: Event): string | null => {
  if (!('data' in event) || typeof event.data !== 'string') return null;
  try {
    const data = JSON.parse(event.data) as unknown;
    return typeof data === 'object' && data !== null && 'code' in data && typeof data.code === 'string' ? data.code : null;
  } catch {
    return null;
  }
};

/**
 * While a user is signed in, listen to their server-sent events: a suspension signs them out
 * (with the suspension message on the sign-in page); changed forbidden actions reload the user
 * info; a new notification refreshes the bell.
 */
export const usePush = (userId: string | null) => {
  const navigate = useNavigate();
  useEffect(() => {
    if (!userId || typeof EventSource === 'undefined') return;
    const source = new EventSource(`${API_BASE}/users/${encodeURIComponent(userId)}/push`, { withCredentials: true });

    source.addEventListener(PUSH_EVENTS.suspended, (event) => {
      source.close();
      api.cancelAll();
      if (pushedCode(event) === ACCOUNT_DELETED_REASON) {
        sessionStore.signedOut(ACCOUNT_DELETED_REASON);
        void navigate(DELETED_ACCOUNT_PATH, { replace: true });
        return;
      }
      // The sign-in page shows the reason (errors.USER_SUSPENDED).
      sessionStore.signedOut('USER_SUSPENDED');
      void navigate('/signin', { replace: true });
    });
    source.addEventListener(PUSH_EVENTS.forbiddenActionsChanged, () => void refreshUser());
    source.addEventListener(PUSH_EVENTS.notification, () => void unseenStore.refresh(userId));

    return () => source.close();
  }, [userId, navigate]);
};
