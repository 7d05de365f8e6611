import { describe, expect, it } from 'vitest';
import { catalogues, type Tree } from '../../i18n/catalogues';

const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.entries(tree).reduce<Record<string, string>>((out, [k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return typeof v === 'string' ? { ...out, [key]: v } : { ...out, ...flatten(v, key) };
  }, {});

/** Texts that name the wallet page itself (a menu entry, a button that opens it). */
const NAMING_THE_PAGE = ['nav.wallet', 'secureFetch.pay.toWallet'];

describe('the name of the wallet', () => {
  it.each(Object.entries(catalogues))('%s names the wallet with the word its page uses', (_, catalogue) => {
    const flat = flatten(catalogue);
    const word = flat['wallet.title'];
    expect(word).toBeTruthy();
    for (const key of NAMING_THE_PAGE) expect(flat[key], key).toBe(word);
  });

  it('nl never says "wallet" where the page says "Portemonnee"', () => {
    const flat = flatten(catalogues.nl);
    expect(flat['wallet.title']).toBe('Portemonnee');
    expect(Object.entries(flat).filter(([, text]) => /\bwallet\b/i.test(text))).toEqual([]);
  });
});
