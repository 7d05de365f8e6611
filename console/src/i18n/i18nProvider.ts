import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { TranslationMessages } from 'react-admin';
import { messages as en } from './en';
import { messages as es } from './es';
import { messages as nl } from './nl';
import { messages as pt } from './pt';

/**
 * The console's four languages, named in their own words. English is the default; the staff
 * member's choice is kept by react-admin's store (localStorage) and applied on the next visit.
 */
export const CONSOLE_LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'es', name: 'Español' },
  { locale: 'pt', name: 'Português' },
  { locale: 'nl', name: 'Nederlands' },
] as const;
export type ConsoleLocale = (typeof CONSOLE_LOCALES)[number]['locale'];

export const CATALOGUES: Readonly<Record<ConsoleLocale, TranslationMessages>> = { en, es, pt, nl };

const isConsoleLocale = (locale: string): locale is ConsoleLocale => Object.hasOwn(CATALOGUES, locale);

/** The locale react-admin's store remembers (the key its localStorage store writes), else English. */
export const rememberedLocale = (storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): ConsoleLocale => {
  try {
    const stored = JSON.parse(storage?.getItem('RaStore.locale') ?? 'null') as unknown;
    return typeof stored === 'string' && isConsoleLocale(stored) ? stored : 'en';
  } catch {
    return 'en';
  }
};

/** The language the console is showing now, for the API calls that answer words (the activity sentences). */
export const currentLocale = (): ConsoleLocale => {
  const locale = i18nProvider.getLocale();
  return isConsoleLocale(locale) ? locale : 'en';
};

export const i18nProvider = polyglotI18nProvider((locale) => CATALOGUES[isConsoleLocale(locale) ? locale : 'en'], rememberedLocale(), [...CONSOLE_LOCALES], {
  allowMissing: true,
});
