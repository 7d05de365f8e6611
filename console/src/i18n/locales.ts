import type { Locale } from '@axel/domain/accounts/accounts.validation';

/**
 * The console's four languages, named in their own words. English is the default; the staff
 * member's choice is saved with their account (so it follows them to any browser at sign-in) and
 * kept by react-admin's store (localStorage) for the sign-in page.
 */
export const CONSOLE_LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'es', name: 'Español' },
  { locale: 'pt', name: 'Português' },
  { locale: 'nl', name: 'Nederlands' },
] as const;
export type ConsoleLocale = (typeof CONSOLE_LOCALES)[number]['locale'];

export const isConsoleLocale = (locale: unknown): locale is ConsoleLocale => CONSOLE_LOCALES.some((l) => l.locale === locale);

/** The account's language (`PUT /api/users/:id/account`) each console language is saved as. */
export const ACCOUNT_LOCALE_OF = { en: 'en_us', es: 'es_mx', pt: 'pt_br', nl: 'nl' } as const satisfies Record<ConsoleLocale, Locale>;

/** The language tag dates and times are written in for each console language (never the browser's own). */
export const DATE_LOCALE_OF: Readonly<Record<ConsoleLocale, string>> = { en: 'en-US', es: 'es-MX', pt: 'pt-BR', nl: 'nl-NL' };
