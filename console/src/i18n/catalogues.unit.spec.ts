import { describe, expect, it } from 'vitest';
import { CATALOGUES, CONSOLE_LOCALES, rememberedLocale } from './i18nProvider';

/** Every key of a nested catalogue as a dotted path, with its value. */
const flatten = (messages: unknown, prefix = ''): [string, unknown][] =>
  Object.entries(messages as Record<string, unknown>).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' ? flatten(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value] as [string, unknown]],
  );

/** Keys whose English text is deliberately empty (a column without a header) or a lone space (react-admin's null boolean). */
const BLANK_IN_ENGLISH = new Set(
  Object.entries(Object.fromEntries(flatten(CATALOGUES.en)))
    .filter(([, v]) => typeof v === 'string' && !v.trim())
    .map(([k]) => k),
);

const placeholders = (text: unknown) => [...String(text).matchAll(/%\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('console catalogues', () => {
  const english = flatten(CATALOGUES.en);

  it('speaks the four languages of the web app, English first', () => {
    expect(CONSOLE_LOCALES.map((l) => l.locale)).toEqual(['en', 'es', 'pt', 'nl']);
    expect(Object.keys(CATALOGUES).sort()).toEqual(['en', 'es', 'nl', 'pt']);
    expect(english.length).toBeGreaterThan(500);
    expect([...BLANK_IN_ENGLISH].sort()).toEqual(['activityLog.columns.actions', 'ra.boolean.null']);
  });

  for (const { locale } of CONSOLE_LOCALES) {
    it(`${locale}: the same keys as English, none empty, the same placeholders`, () => {
      const entries = flatten(CATALOGUES[locale]);
      expect(entries.map(([k]) => k).sort()).toEqual(english.map(([k]) => k).sort());
      const empty = entries.filter(([k, v]) => typeof v !== 'string' || (!v.trim() && !BLANK_IN_ENGLISH.has(k))).map(([k]) => k);
      expect(empty).toEqual([]);
      const byKey = Object.fromEntries(english);
      const mismatched = entries.filter(([k, v]) => placeholders(v).join() !== placeholders(byKey[k]).join()).map(([k]) => k);
      expect(mismatched).toEqual([]);
      // plural forms ("one |||| many") stay plural
      const plurals = entries.filter(([k, v]) => String(v).includes('||||') !== String(byKey[k]).includes('||||')).map(([k]) => k);
      expect(plurals).toEqual([]);
    });
  }

  it('not a copy of English: most texts are translated', () => {
    const byKey = Object.fromEntries(english);
    for (const locale of ['es', 'pt', 'nl'] as const) {
      const entries = flatten(CATALOGUES[locale]);
      const same = entries.filter(([k, v]) => v === byKey[k]).length;
      expect(same / entries.length, locale).toBeLessThan(0.2);
    }
  });

  it("remembers the staff member's choice from react-admin's store, English otherwise", () => {
    const storage = (value: string | null) => ({ getItem: (key: string) => (key === 'RaStore.locale' ? value : null) });
    expect(rememberedLocale(storage('"pt"'))).toBe('pt');
    expect(rememberedLocale(storage('"nl"'))).toBe('nl');
    expect(rememberedLocale(storage('"fr"'))).toBe('en');
    expect(rememberedLocale(storage('not json'))).toBe('en');
    expect(rememberedLocale(storage(null))).toBe('en');
    expect(rememberedLocale(undefined)).toBe('en');
  });
});
