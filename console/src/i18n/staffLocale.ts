import { useCallback, useEffect } from 'react';
import { useGetIdentity, useLocaleState, useNotify } from 'react-admin';
import { browserFetch, requestJson, type FetchLike } from '../api/http';
import type { StaffIdentity } from '../auth/authProvider';
import { ACCOUNT_LOCALE_OF, type ConsoleLocale } from './locales';

/** Saves the console language with the staff member's own account, so every browser they sign in on opens in it. */
export const saveLocale = (fetchImpl: FetchLike, staffId: string, locale: ConsoleLocale) =>
  requestJson(fetchImpl, `/api/users/${encodeURIComponent(staffId)}/account`, { method: 'PUT', body: JSON.stringify({ locale: ACCOUNT_LOCALE_OF[locale] }) });

// Kept outside the components: a language change re-mounts the whole console (react-admin's i18n
// context), and the identity cached since sign-in still names the language saved before it.
let appliedFor: string | null = null;

/** A new sign-in applies the language saved with that account again. */
export const applySavedLocaleAgain = (): void => {
  appliedFor = null;
};

/**
 * Applies the language saved with the account once per sign-in (and once per page load), whatever
 * this browser remembered from before.
 */
export const useSavedLocale = (): void => {
  const { identity } = useGetIdentity();
  const [locale, setLocale] = useLocaleState();
  useEffect(() => {
    if (!identity || appliedFor === String(identity.id)) return;
    appliedFor = String(identity.id);
    const saved = (identity as StaffIdentity).locale;
    if (saved && saved !== locale) setLocale(saved);
  }, [identity, locale, setLocale]);
};

/** Switches the console to a language at once and saves it with the account; a failed save says the choice stays in this browser. */
export const useChooseLocale = (): ((locale: ConsoleLocale) => void) => {
  const [, setLocale] = useLocaleState();
  const { identity } = useGetIdentity();
  const notify = useNotify();
  return useCallback(
    (locale: ConsoleLocale) => {
      setLocale(locale);
      if (identity === undefined || identity === null) return;
      saveLocale(browserFetch, String(identity.id), locale).catch(() => notify('console.languageNotSaved', { type: 'warning' }));
    },
    [identity, notify, setLocale],
  );
};
