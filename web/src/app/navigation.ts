import type { NavigateFunction } from 'react-router';
import { isAdminPath } from '../routing/routeTable';

/**
 * Only same-site paths are followed after sign-in (no open redirect): a path starting with a
 * single `/`. `//host`, `/\\host` and a scheme name another site; browsers drop tabs and line
 * breaks from a URL (`/\t/host` is `//host`), so control characters are refused too.
 */
export const safeRedirect = (value: string | null | undefined, fallback = '/welcome'): string => {
  if (!value || !/^\/(?![/\\])/.test(value)) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) return fallback;
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
