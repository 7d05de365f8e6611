import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { createActor } from 'xstate';
import { api } from '../api/client';
import { matchRoute } from '../routing/routeTable';
import { inactivityMachine, type InactivityEvent } from './inactivity.machine';
import { signOutForInactivity } from './session';
import { sessionApi } from './session.api';

/** Shared by every tab of the app, so activity in one tab keeps the others signed in too. */
export const ACTIVITY_STORAGE_KEY = 'axel.lastActivityAt';
/** Pointer moves come in bursts; one activity a second is plenty for a countdown in minutes. */
const ACTIVITY_THROTTLE_MS = 1000;
const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const;

const shareActivity = (at: number) => {
  try {
    localStorage.setItem(ACTIVITY_STORAGE_KEY, String(at));
  } catch {
    // Storage may be unavailable (private mode); tabs then count their own activity only.
  }
};

/**
 * While a user is signed in, runs the inactivity countdown of their `sessionTimeout` and signs
 * them out when it runs out: the account's data leaves the screen and the sign-in page says why.
 */
export const useInactivitySignOut = (userId: string | null, sessionTimeoutSeconds: number | null) => {
  const navigate = useNavigate();

  useEffect(() => {
    if (!userId || !sessionTimeoutSeconds) return;
    const actor = createActor(
      inactivityMachine.provide({
        actions: {
          keepAlive: () => {
            sessionApi.current().catch(() => {
              // A refused session is handled by the client's 401 rule.
            });
          },
          timedOut: () => {
            void signOutForInactivity();
            // On a signed-in page the guard sends the user to sign-in (keeping the way back).
            if (matchRoute(window.location.pathname)?.def.access !== 'auth') void navigate('/signin', { replace: true });
          },
        },
      }),
      { input: { timeoutMs: sessionTimeoutSeconds * 1000, now: Date.now() } },
    );
    actor.start();

    let lastForwarded = 0;
    const forward = (type: InactivityEvent['type'], at = Date.now(), share = true) => {
      if (type === 'ACTIVITY' && at - lastForwarded < ACTIVITY_THROTTLE_MS) return;
      lastForwarded = Math.max(lastForwarded, at);
      actor.send({ type, at, serverContactAt: api.lastOperationAt() });
      if (share && actor.getSnapshot().status === 'active') shareActivity(at);
    };
    const onActivity = () => forward('ACTIVITY');
    const onVisibility = () => {
      if (document.visibilityState === 'visible') forward('VISIBLE');
    };
    const onStorage = (e: StorageEvent) => {
      if (e.key !== ACTIVITY_STORAGE_KEY || !e.newValue) return;
      const at = Number(e.newValue);
      if (Number.isFinite(at) && at <= Date.now()) forward('ACTIVITY', at, false);
    };

    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, onActivity, { passive: true, capture: true });
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('storage', onStorage);
    return () => {
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, onActivity, { capture: true });
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('storage', onStorage);
      actor.stop();
    };
  }, [userId, sessionTimeoutSeconds, navigate]);
};
