import { useSyncExternalStore } from 'react';
import { notificationsApi } from './notifications.api';

type Listener = () => void;
let count = 0;
const listeners = new Set<Listener>();
const set = (n: number) => {
  count = n;
  for (const l of listeners) l();
};

/** The unseen-notification count shown on the header bell. */
export const unseenStore = {
  get: () => count,
  subscribe(l: Listener) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  async refresh(userId: string) {
    try {
      const { count: n } = await notificationsApi.count(userId);
      set(typeof n === 'number' ? n : 0);
    } catch {
      // The bell keeps its last count; the next push or opening refreshes it.
    }
  },
  reset: () => set(0),
};

export const useUnseenCount = () => useSyncExternalStore(unseenStore.subscribe, unseenStore.get, unseenStore.get);
