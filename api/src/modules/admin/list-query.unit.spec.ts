import { describe, expect, it } from 'vitest';
import { contentRange, ListQuerySchema, MAX_LIST_OFFSET, parseListQuery } from './list-query';

const defaults = { sortField: 'createdAt', sortDir: 'desc' as const, perPage: 10 };
const sortable = ['createdAt', 'email'];

describe('admin list parameters', () => {
  it('defaults to the first 10, newest first', () => {
    expect(parseListQuery({}, defaults, sortable)).toMatchObject({ offset: 0, limit: 10, sortField: 'createdAt', sortDir: 'desc', search: null });
  });
  it('reads the product dialect', () => {
    expect(parseListQuery({ page: 3, perPage: 20, sort: '-email', search: ' ann ' }, defaults, sortable)).toMatchObject({
      offset: 40,
      limit: 20,
      sortField: 'email',
      sortDir: 'desc',
      search: 'ann',
    });
  });
  it('reads the ra-data-simple-rest dialect', () => {
    expect(parseListQuery({ range: '[10,19]', sort: '["email","ASC"]', filter: '{"q":"bob"}' }, defaults, sortable)).toMatchObject({
      offset: 10,
      limit: 10,
      sortField: 'email',
      sortDir: 'asc',
      search: 'bob',
    });
  });
  it('never sorts by a column it was not told is sortable', () => {
    expect(parseListQuery({ sort: 'password_hash' }, defaults, sortable)).toMatchObject({ sortField: 'createdAt', sortDir: 'desc' });
  });
  it('ignores malformed ranges and filters', () => {
    expect(parseListQuery({ range: '[9,2]', filter: 'nope' }, defaults, sortable)).toMatchObject({ offset: 0, limit: 10, search: null });
  });
  it('refuses pages and ranges past any real offset instead of handing SQL a number it cannot hold', () => {
    for (const query of [{ range: '[1e20,1e20]' }, { range: '[0,1e400]' }, { range: `[0,${MAX_LIST_OFFSET + 1}]` }, { page: '1e20' }]) {
      expect(ListQuerySchema.safeParse(query).success, JSON.stringify(query)).toBe(false);
    }
    expect(ListQuerySchema.safeParse({ range: `[0,${MAX_LIST_OFFSET}]`, page: '3' }).success).toBe(true);
    expect(parseListQuery({ range: '[1e20,1e20]' }, defaults, sortable)).toMatchObject({ offset: 0, limit: 10 });
  });
  it('refuses a filter holding text PostgreSQL cannot store', () => {
    for (const filter of ['{"q":"\\u0000"}', '{"q":"\\ud800"}', '{"status":["a\\u0000"]}']) {
      expect(() => parseListQuery({ filter }, defaults, sortable), filter).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    }
  });
  it('formats Content-Range', () => {
    expect(contentRange('users', 0, 10, 42)).toBe('users 0-9/42');
    expect(contentRange('users', 0, 0, 0)).toBe('users 0-0/0');
  });
});
