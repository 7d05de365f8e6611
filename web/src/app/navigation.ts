import type { NavigateFunction } from 'react-router';
import { isAdminPath } from '../routing/routeTable';

/** Only same-site paths are followed after sign-in (no open redirect). */
export const safeRedirect = (value: string | null | undefined, fallback = '/welcome'): string => {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  return value;
};

/** In-app navigation, except /admin which belongs to the staff console and needs a full page load. */
export const goTo = (navigate: NavigateFunction, path: string, replace = false) => {
  if (isAdminPath(path)) {
    if (replace) window.location.replace(path);
    else window.location.assign(path);
    return;
  }
  void navigate(path, { replace });
};
