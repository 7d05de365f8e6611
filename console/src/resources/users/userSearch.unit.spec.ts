import { describe, expect, it } from 'vitest';
import { searchMessage, searchTextOf, toSearchFilter } from './userSearch';

describe('toSearchFilter', () => {
  it('sets q to the trimmed text', () => {
    expect(toSearchFilter('  alice@example.com ')).toEqual({ q: 'alice@example.com' });
  });

  it('sends no search for empty or blank text, keeping other filters', () => {
    expect(toSearchFilter('')).toEqual({});
    expect(toSearchFilter('   ', { q: 'old', status: 'active' })).toEqual({ status: 'active' });
  });

  it('replaces a previous search', () => {
    expect(toSearchFilter('bob', { q: 'alice', role: 'admin' })).toEqual({ q: 'bob', role: 'admin' });
  });
});

describe('searchTextOf', () => {
  it('reads q, ignoring blanks and non-strings', () => {
    expect(searchTextOf({ q: ' x ' })).toBe('x');
    expect(searchTextOf({ q: '  ' })).toBe('');
    expect(searchTextOf({ q: 3 })).toBe('');
    expect(searchTextOf(undefined)).toBe('');
  });
});

describe('searchMessage', () => {
  it('shows the info message when the search text is empty, whatever the list holds', () => {
    expect(searchMessage({ filterValues: {}, total: 42, isPending: false })).toEqual({ kind: 'info', key: 'resources.users.search.empty' });
    expect(searchMessage({ filterValues: { q: ' ' }, total: 0, isPending: false }).kind).toBe('info');
    expect(searchMessage({ filterValues: undefined, total: undefined, isPending: true }).kind).toBe('info');
  });

  it('shows "no match" when a search found nobody', () => {
    expect(searchMessage({ filterValues: { q: 'zzz' }, total: 0, isPending: false })).toEqual({
      kind: 'noMatch',
      key: 'resources.users.search.noMatch',
      search: 'zzz',
    });
  });

  it('shows nothing while the search runs or when it found users', () => {
    expect(searchMessage({ filterValues: { q: 'zzz' }, total: undefined, isPending: true })).toEqual({ kind: 'none' });
    expect(searchMessage({ filterValues: { q: 'zzz' }, total: 0, isPending: true })).toEqual({ kind: 'none' });
    expect(searchMessage({ filterValues: { q: 'ali' }, total: 3, isPending: false })).toEqual({ kind: 'none' });
  });
});
