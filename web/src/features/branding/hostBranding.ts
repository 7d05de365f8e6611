import { useSyncExternalStore } from 'react';
import { api } from '../../api/client';

/** What `GET /host-branding` answers on a team's custom host. */
export interface HostBranding {
  companyName: string | null;
  logoUrl: string | null;
  /** The main address of the product, where sign-in happens. */
  mainUrl: string;
}

export type HostBrandingState = { status: 'loading' } | { status: 'ready'; branding: HostBranding | null };

type Listener = () => void;

export const createHostBrandingStore = () => {
  let state: HostBrandingState = { status: 'loading' };
  let asked: Promise<void> | null = null;
  const listeners = new Set<Listener>();
  const set = (next: HostBrandingState) => {
    state = next;
    for (const l of listeners) l();
  };
  return {
    get: () => state,
    subscribe: (l: Listener) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    /** Asks the server once per page load: the host does not change while the app runs. */
    load: (ask: () => Promise<HostBranding>): Promise<void> => {
      asked ??= ask().then(
        (branding) => set({ status: 'ready', branding }),
        // 404 off a custom host; any failure leaves the app as on the main host
        () => set({ status: 'ready', branding: null }),
      );
      return asked;
    },
  };
};

export const hostBrandingStore = createHostBrandingStore();

export const loadHostBranding = () => hostBrandingStore.load(() => api.get<HostBranding>('/host-branding'));

export const useHostBranding = (): HostBrandingState => useSyncExternalStore(hostBrandingStore.subscribe, hostBrandingStore.get, hostBrandingStore.get);
