import { DEFAULT_EXPLORER_BASE_URL } from '../routing/guard';

const mainOrigin = import.meta.env.VITE_MAIN_ORIGIN?.trim() || undefined;

const onCustomHost = (): boolean => {
  if (!import.meta.env.PROD || !mainOrigin) return false;
  try {
    return new URL(mainOrigin).host !== window.location.host;
  } catch {
    return false;
  }
};

export const appConfig = {
  mainOrigin,
  isCustomHost: onCustomHost(),
  explorerBaseUrl: import.meta.env.VITE_TX_EXPLORER_URL?.trim() || DEFAULT_EXPLORER_BASE_URL,
  /** The path the document was loaded at: if the server served this app for /admin, no console is there. */
  bootPath: window.location.pathname,
};
