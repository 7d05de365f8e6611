import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { api, API_BASE } from '../../api/client';
import { refreshUser } from '../../session/session';
import { sessionStore } from '../../session/store';
import { unseenStore } from '../notifications/unseen';

/** Events the server pushes on /users/:id/push. */
export const PUSH_EVENTS = {
  suspended: 'user.suspended',
  forbiddenActionsChanged: 'user.forbidden-actions-changed',
  notification: 'notification',
} as const;

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

    source.addEventListener(PUSH_EVENTS.suspended, () => {
      source.close();
      api.cancelAll();
      // The sign-in page shows the reason (errors.USER_SUSPENDED).
      sessionStore.signedOut('USER_SUSPENDED');
      void navigate('/signin', { replace: true });
    });
    source.addEventListener(PUSH_EVENTS.forbiddenActionsChanged, () => void refreshUser());
    source.addEventListener(PUSH_EVENTS.notification, () => void unseenStore.refresh(userId));

    return () => source.close();
  }, [userId, navigate]);
};
