import { SecureFetchErrors } from '@axel/domain/secure-fetch/secure-fetch.errors';
import { COPYRIGHT_TYPES, HASH_CHOICES } from '@axel/domain/secure-fetch/secure-fetch.events';
import { WalletErrors } from '@axel/domain/wallet/wallet.errors';
import { describe, expect, it } from 'vitest';
import { catalogues, type Tree } from '../../i18n/catalogues';
import en_us from './locales/en_us.json';
import es_mx from './locales/es_mx.json';
import nl from './locales/nl.json';
import pt_br from './locales/pt_br.json';
import type { DisplayStatus } from './status';
import { HASH_NAMES } from './hashing.core';

const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.entries(tree).reduce<Record<string, string>>((out, [k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return typeof v === 'string' ? { ...out, [key]: v } : { ...out, ...flatten(v, key) };
  }, {});

/** Codes every share form uses; their texts belong to the sharing screens. */
const SHARED_CODES = new Set([SecureFetchErrors.invalidNote.code, SecureFetchErrors.invalidExpiry.code]);

const STATUSES = { waiting: true, revoked: true, expired: true, uploaded: true, collected: true, active: true } satisfies Record<DisplayStatus, true>;

describe('Secure Fetch texts', () => {
  it('all four locales have the same keys', () => {
    const keys = Object.keys(flatten(en_us as Tree)).sort();
    for (const other of [es_mx, pt_br, nl]) expect(Object.keys(flatten(other as Tree)).sort()).toEqual(keys);
  });

  const built = [
    ...Object.keys(COPYRIGHT_TYPES).map((id) => `secureFetch.copyrightTypes.${id}`),
    ...HASH_CHOICES.map((h) => `secureFetch.hashChoice.${h}`),
    ...HASH_NAMES.map((h) => `secureFetch.hashes.${h}`),
    ...Object.keys(STATUSES).map((s) => `secureFetch.status.${s}`),
    ...Object.values(SecureFetchErrors)
      .filter((e) => !SHARED_CODES.has(e.code))
      .map((e) => `errors.${e.code}`),
    `errors.${WalletErrors.insufficientToPin.code}`,
  ];

  it.each(Object.entries(catalogues))('%s has the keys the Secure Fetch screens build at run time', (_, catalogue) => {
    const flat = flatten(catalogue);
    expect(built.filter((key) => !flat[key]?.trim())).toEqual([]);
  });

  it('the English messages are the spec catalogue messages the API sends', () => {
    const flat = flatten(catalogues.en_us);
    expect(flat['errors.INSUFFICIENT_CONFIRMED_TOKENS']).toBe('Insufficient confirmed tokens to pin');
    for (const e of [SecureFetchErrors.missing, SecureFetchErrors.invalid, SecureFetchErrors.used, SecureFetchErrors.tooLarge])
      expect(flat[`errors.${e.code}`]).toBe(e.message);
  });
});
