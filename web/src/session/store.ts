import { useSyncExternalStore } from 'react';
import type { UserInfo } from '../api/types';

export type SessionStatus = 'loading' | 'ready';

export interface SessionState {
  status: SessionStatus;
  user: UserInfo | null;
  /** Error code explaining the last forced sign-out (USER_SUSPENDED, SESSION_INACTIVE...). */
  signedOutReason: string | null;
}

type Listener = () => void;

/** A tiny external store: the session is read by the router guard, the header and every screen. */
const createSessionStore = () => {
  let state: SessionState = { status: 'loading', user: null, signedOutReason: null };
  const listeners = new Set<Listener>();
  const set = (next: Partial<SessionState>) => {
    state = { ...state, ...next };
    for (const l of listeners) l();
  };
  return {
    get: () => state,
    subscribe: (l: Listener) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    signedIn: (user: UserInfo) => set({ status: 'ready', user, signedOutReason: null }),
    signedOut: (reason: string | null = null) => set({ status: 'ready', user: null, signedOutReason: reason }),
    updateUser: (patch: Partial<UserInfo>) => {
      if (state.user) set({ user: { ...state.user, ...patch } });
    },
    clearReason: () => set({ signedOutReason: null }),
  };
};

export const sessionStore = createSessionStore();

export const useSession = (): SessionState => useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);
