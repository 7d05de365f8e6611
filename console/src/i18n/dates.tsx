import { useMemo } from 'react';
import { DateField, useLocaleState, type DateFieldProps } from 'react-admin';
import { DATE_LOCALE_OF, isConsoleLocale, type ConsoleLocale } from './locales';

const DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'medium' };
const DAY: Intl.DateTimeFormatOptions = { dateStyle: 'medium' };

const tagOf = (locale: unknown): string => DATE_LOCALE_OF[isConsoleLocale(locale) ? locale : 'en'];

const parse = (value: string | number | Date | null | undefined): Date | null => {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** Dates and times written in the console's language, never the browser's: the one formatter every page uses. */
export interface DateWriter {
  /** "23 nov 2026, 14:05:09" in Dutch; `fallback` for nothing or an invalid date. */
  readonly dateTime: (value: string | number | Date | null | undefined, fallback?: string) => string;
  /** "23 nov 2026" in Dutch. */
  readonly day: (value: string | number | Date | null | undefined, fallback?: string) => string;
}

export const dateWriter = (locale: ConsoleLocale | string): DateWriter => {
  const dateTime = new Intl.DateTimeFormat(tagOf(locale), DATE_TIME);
  const day = new Intl.DateTimeFormat(tagOf(locale), DAY);
  return {
    dateTime: (value, fallback = '') => {
      const date = parse(value);
      return date ? dateTime.format(date) : fallback;
    },
    day: (value, fallback = '') => {
      const date = parse(value);
      return date ? day.format(date) : fallback;
    },
  };
};

/** The reader's IANA time zone, as their browser knows it ("Europe/Lisbon"); undefined when it says none. */
export const readerTimeZone = (): string | undefined => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
};

/** The date writer for the language the console shows now; it changes with the language. */
export const useDates = (): DateWriter => {
  const [locale] = useLocaleState();
  return useMemo(() => dateWriter(locale), [locale]);
};

/** React-admin's DateField in the console's language (its default would follow the browser). */
export const LocaleDateField = (props: DateFieldProps) => {
  const [locale] = useLocaleState();
  return <DateField options={props.showTime ? DATE_TIME : DAY} {...props} locales={tagOf(locale)} />;
};
