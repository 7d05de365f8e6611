import type { TFunction } from 'i18next';
import type { NormalisedError } from '../api/errors';
import { isLocale, LOCALE_TAGS } from '../i18n/language';

export const localeTag = (language: string) => (isLocale(language) ? LOCALE_TAGS[language] : 'en-US');

export const formatDateTime = (iso: string, language: string) => {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(localeTag(language), { dateStyle: 'medium', timeStyle: 'short' }).format(d);
};

/** `errors.<CODE>` in the current language, with the error's data as values; the server's English text if the code is unknown. */
export const translateError = (t: TFunction, language: string, error: NormalisedError): string => {
  const values: Record<string, unknown> = { ...(error.data ?? {}) };
  if (typeof values.lockedUntil === 'string') values.lockedUntil = formatDateTime(values.lockedUntil, language);
  // "2 of 5 items": a count of items picks its plural form from the total
  if (values.count === undefined && typeof values.total === 'number') values.count = values.total;
  return t(`errors.${error.code}`, { ...values, defaultValue: error.message || t('errors.UNKNOWN') });
};

/** A field message key (validation.* or errors.*) in the current language. */
export const translateFieldError = (t: TFunction, key: string | undefined): string | undefined => {
  if (!key) return undefined;
  return t(key, { defaultValue: t('validation.invalid') });
};
