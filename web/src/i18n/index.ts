import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALE_STORAGE_KEY, LOCALE_TAGS, LOCALES, browserLocale, isLocale, type Locale } from './language';
import { catalogues } from './catalogues';

export const resources = {
  en_us: { translation: catalogues.en_us },
  es_mx: { translation: catalogues.es_mx },
  pt_br: { translation: catalogues.pt_br },
  nl: { translation: catalogues.nl },
} as const;

const storedLocale = (): Locale | null => {
  try {
    const v = localStorage.getItem(LOCALE_STORAGE_KEY);
    return isLocale(v) ? v : null;
  } catch {
    return null;
  }
};

/** Before any user is known: the visitor's last choice, else the browser's languages. */
export const initialLocale = (): Locale =>
  storedLocale() ?? (typeof navigator === 'undefined' ? DEFAULT_LOCALE : browserLocale(navigator.languages ?? [navigator.language]));

export const initI18n = async (lng: Locale = initialLocale()) => {
  await i18n.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    load: 'currentOnly',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = LOCALE_TAGS[lng];
  return i18n;
};

/** Switches the interface language and remembers it for the next visit. */
export const applyLocale = async (locale: Locale) => {
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Without storage the choice lasts for this page only.
  }
  document.documentElement.lang = LOCALE_TAGS[locale];
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
};

export const currentLocale = (): Locale => (isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE);
