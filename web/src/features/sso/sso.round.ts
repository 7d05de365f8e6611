import type { Locale } from '../../api/types';

/** Where a sign-in with a provider started, kept in session storage across the provider's redirect. */
export interface SsoRound {
  /** The page the user was sent to sign in from, followed once signed in. */
  redirect: string;
  from: 'signin' | 'signup';
}

const KEY = 'axel.sso.round';

export const authorizeHref = (provider: { authorizeUrl: string }, termsAccepted: boolean, locale: Locale): string =>
  `${provider.authorizeUrl}?${new URLSearchParams({ termsAccepted: String(termsAccepted), locale }).toString()}`;

export const rememberRound = (round: SsoRound, storage: Pick<Storage, 'setItem'> = sessionStorage) => {
  try {
    storage.setItem(KEY, JSON.stringify(round));
  } catch {
    // Without storage the user lands on the start page after signing in.
  }
};

/** The stored round, if any (it stays until `forgetRound`, so reading it twice is harmless). */
export const readRound = (storage: Pick<Storage, 'getItem'> = sessionStorage): SsoRound | null => {
  try {
    const raw = storage.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<SsoRound>;
    if (typeof parsed.redirect !== 'string' || (parsed.from !== 'signin' && parsed.from !== 'signup')) return null;
    return { redirect: parsed.redirect, from: parsed.from };
  } catch {
    return null;
  }
};

export const forgetRound = (storage: Pick<Storage, 'removeItem'> = sessionStorage) => {
  try {
    storage.removeItem(KEY);
  } catch {
    // nothing was kept
  }
};
