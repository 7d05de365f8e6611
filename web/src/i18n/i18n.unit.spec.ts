import { AccountErrors } from '@axel/domain/accounts/accounts.errors';
import { PROFILE_FIELDS, SESSION_TIMEOUTS, TWO_FACTOR_METHODS, validationMessages } from '@axel/domain/accounts/accounts.validation';
import { CommonErrors } from '@axel/domain/shared/errors';
import { describe, expect, it } from 'vitest';
import { ClientErrorCodes } from '../api/errors';
import { browserLocale } from './language';
import { catalogues, type Tree } from './catalogues';

const { en_us, es_mx, pt_br, nl } = catalogues;

const flatten = (tree: Tree, prefix = ''): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out[key] = v;
    else Object.assign(out, flatten(v, key));
  }
  return out;
};

const english = flatten(en_us as Tree);
const others = { es_mx: flatten(es_mx as Tree), pt_br: flatten(pt_br as Tree), nl: flatten(nl as Tree) };
/** The e-sign area has no nl (spec §6): its texts fall back to en_us there. */
const withoutNl = (key: string) => /^esign(Receiver)?\./.test(key);
const expectedKeys = (locale: string) => Object.keys(english).filter((k) => locale !== 'nl' || !withoutNl(k));
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}|<(\/?\w+)>/g)].map((m) => m[1] ?? m[2]).sort();

describe('translations', () => {
  it.each(Object.entries(others))('%s has every key of en_us, and no other', (locale, catalogue) => {
    const missing = expectedKeys(locale).filter((k) => !(k in catalogue));
    const extra = Object.keys(catalogue).filter((k) => !(k in english));
    expect(missing).toEqual([]);
    expect(extra).toEqual([]);
  });

  it.each(Object.entries(others))('%s keeps the interpolation values and tags of en_us and leaves nothing empty', (locale, catalogue) => {
    for (const key of expectedKeys(locale)) {
      const text = english[key]!;
      expect(catalogue[key]?.trim(), key).toBeTruthy();
      expect(placeholders(catalogue[key] ?? ''), key).toEqual(placeholders(text));
    }
  });

  it('translates the shared validation keys', () => {
    for (const key of Object.keys(validationMessages)) expect(english[key], key).toBeTruthy();
  });

  it('translates every error code of the accounts table, the common table and the client', () => {
    const codes = [
      ...Object.values(AccountErrors).map((e) => String(e.code)),
      ...Object.values(CommonErrors).map((e) => String(e.code)),
      ...Object.values(ClientErrorCodes),
      'CSRF_HEADER_MISSING',
      'USER_DATA_FAILED',
    ];
    for (const code of codes) expect(english[`errors.${code}`], code).toBeTruthy();
  });

  it('has the keys the screens build at run time', () => {
    const built = [
      ...PROFILE_FIELDS.map((f) => `profile.fields.${f}`),
      ...SESSION_TIMEOUTS.map((s) => `account.timeout.options.${s}`),
      ...TWO_FACTOR_METHODS.map((m) => `twoFactor.methods.${m}`),
      ...['profile', 'account', 'delete'].map((tab) => `settings.tabs.${tab}`),
      ...['service', 'account', 'content', 'encryption', 'payment', 'termination'].flatMap((s) => [`terms.sections.${s}.title`, `terms.sections.${s}.body`]),
    ];
    for (const key of built) expect(english[key], key).toBeTruthy();
  });

  it('has every literal key the source code asks for', () => {
    const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.spec.ts'], { query: '?raw', import: 'default', eager: true });
    const used = new Set<string>();
    const patterns = [/\bt\(\s*'([a-zA-Z0-9_.]+)'/g, /i18nKey="([a-zA-Z0-9_.]+)"/g, /\bkey: '([a-zA-Z0-9_]+\.[a-zA-Z0-9_.]+)'/g];
    for (const text of Object.values(sources)) {
      for (const re of patterns) for (const m of text.matchAll(re)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(100);
    // a plural key is asked for by its stem and stored as <stem>_one / <stem>_other
    const missing = [...used].filter((k) => !(k in english) && !(`${k}_other` in english && `${k}_one` in english));
    expect(missing).toEqual([]);
  });
});

describe('product name', () => {
  const spelledOtherwise = (text: string) => [...text.matchAll(/axel\s+drive/gi)].map((m) => m[0]).filter((name) => name !== 'AXEL Drive');

  it.each(Object.entries({ en_us: english, ...others }))('%s spells the product "AXEL Drive", as the mail does', (_, catalogue) => {
    const wrong = Object.entries(catalogue).filter(([, text]) => spelledOtherwise(text).length > 0);
    expect(wrong).toEqual([]);
    expect(Object.values(catalogue).some((text) => text.includes('AXEL Drive'))).toBe(true);
  });

  it('names the page "AXEL Drive" in its title', () => {
    const [html] = Object.values(import.meta.glob<string>('../../index.html', { query: '?raw', import: 'default', eager: true }));
    expect(html).toMatch(/<title>AXEL Drive<\/title>/);
    expect(spelledOtherwise(html ?? '')).toEqual([]);
  });
});

describe('browser language', () => {
  it('maps the browser languages to the four locales, English by default', () => {
    expect(browserLocale(['es-ES', 'en'])).toBe('es_mx');
    expect(browserLocale(['pt-PT'])).toBe('pt_br');
    expect(browserLocale(['nl-BE'])).toBe('nl');
    expect(browserLocale(['fr-FR', 'de'])).toBe('en_us');
    expect(browserLocale(['fr-FR', 'pt-BR'])).toBe('pt_br');
    expect(browserLocale([])).toBe('en_us');
  });
});
