import { LOCALES, type Locale } from '@axel/domain/accounts/accounts.validation';

export { LOCALES, type Locale };

export const LOCALE_STORAGE_KEY = 'axel.locale';
export const DEFAULT_LOCALE: Locale = 'en_us';

/** Each locale's own name, shown the same in every interface language. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en_us: 'English (US)',
  es_mx: 'Español (México)',
  pt_br: 'Português (Brasil)',
  nl: 'Nederlands',
};

/** BCP 47 tag for dates and numbers and for <html lang>. */
export const LOCALE_TAGS: Record<Locale, string> = { en_us: 'en-US', es_mx: 'es-MX', pt_br: 'pt-BR', nl: 'nl-NL' };

export const isLocale = (v: unknown): v is Locale => typeof v === 'string' && (LOCALES as readonly string[]).includes(v);

/** The best interface locale for the browser's preferred languages; English when none fits. */
export const browserLocale = (languages: readonly string[]): Locale => {
  for (const raw of languages) {
    const lang = raw.toLowerCase().replace('_', '-');
    const exact = lang.replace('-', '_');
    if (isLocale(exact)) return exact;
    const primary = lang.split('-')[0];
    if (primary === 'en') return 'en_us';
    if (primary === 'es') return 'es_mx';
    if (primary === 'pt') return 'pt_br';
    if (primary === 'nl') return 'nl';
  }
  return DEFAULT_LOCALE;
};
