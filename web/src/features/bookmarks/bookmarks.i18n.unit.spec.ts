import { BookmarkErrors } from '@axel/domain/bookmarks/bookmarks.errors';
import type { TitleProblem } from '@axel/domain/bookmarks/bookmarks.titles';
import { CartErrors } from '@axel/domain/sharing/cart';
import { describe, expect, it } from 'vitest';
import { catalogues, type Tree } from '../../i18n/catalogues';
import type { Bookmark } from './bookmarks.api';

const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.entries(tree).reduce<Record<string, string>>((out, [k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return typeof v === 'string' ? { ...out, [key]: v } : { ...out, ...flatten(v, key) };
  }, {});

/** Every value of the unions, so a new title rule or share status fails here until it has its text. */
const TITLE_PROBLEMS = { empty: true, controlCharacters: true, emoji: true, tooLong: true, profanity: true } satisfies Record<TitleProblem, true>;
const SHARE_STATUSES = { expired: true, revoked: true, deleted: true } satisfies Record<Exclude<NonNullable<Bookmark['shareStatus']>, 'active'>, true>;

describe('bookmark and cart texts', () => {
  const built = [
    ...Object.keys(TITLE_PROBLEMS).map((p) => `bookmarks.titleProblems.${p}`),
    ...Object.keys(SHARE_STATUSES).map((s) => `bookmarks.shareStatus.${s}`),
    ...Object.values(BookmarkErrors).map((e) => `errors.${e.code}`),
    ...Object.values(CartErrors).map((e) => `errors.${e.code}`),
    ...['trashed', 'deleted'].map((s) => `cart.state.${s}`),
    ...['SHARED_FILE_TOO_LARGE', 'SHARE_LIMIT_REACHED', 'ITEM_NOT_FOUND', 'CART_ALREADY_SHARED'].map((r) => `cart.reasons.${r}`),
  ];

  it.each(Object.entries(catalogues))('%s has the keys the bookmark and cart screens build at run time', (_, catalogue) => {
    const flat = flatten(catalogue);
    expect(built.filter((key) => !flat[key]?.trim())).toEqual([]);
  });

  it('has the same bookmark and cart keys in every locale', () => {
    const keys = Object.entries(catalogues).map(([locale, c]) => [
      locale,
      Object.keys(flatten(c))
        .filter((k) => k.startsWith('bookmarks.') || k.startsWith('cart.'))
        .sort(),
    ]);
    for (const [, k] of keys) expect(k).toEqual(keys[0]![1]);
  });
});

describe('bookmark title column', () => {
  const expected = { en_us: 'Title', es_mx: 'Título', nl: 'Titel', pt_br: 'Título' } as const;
  it.each(Object.entries(expected))('%s heads the title column with the word for title, not description', (locale, word) => {
    const flat = flatten(catalogues[locale as keyof typeof catalogues]);
    expect(flat['bookmarks.bookmarkTitle']).toBe(word);
    expect(flat['bookmarks.description']).toBeUndefined();
  });
});
