import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { TranslationMessages } from 'react-admin';
import { messages as en } from './en';
import { messages as es } from './es';
import { messages as nl } from './nl';
import { messages as pt } from './pt';
import { CONSOLE_LOCALES, isConsoleLocale, type ConsoleLocale } from './locales';

export { CONSOLE_LOCALES, type ConsoleLocale } from './locales';

export const CATALOGUES: Readonly<Record<ConsoleLocale, TranslationMessages>> = { en, es, pt, nl };

/** The locale react-admin's store remembers (the key its localStorage store writes), else English. */
export const rememberedLocale = (storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): ConsoleLocale => {
  try {
    const stored = JSON.parse(storage?.getItem('RaStore.locale') ?? 'null') as unknown;
    return isConsoleLocale(stored) ? stored : 'en';
  } catch {
    return 'en';
  }
};

export const i18nProvider = polyglotI18nProvider((locale) => CATALOGUES[isConsoleLocale(locale) ? locale : 'en'], rememberedLocale(), [...CONSOLE_LOCALES], {
  allowMissing: true,
});
