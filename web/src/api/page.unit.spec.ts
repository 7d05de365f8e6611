import { describe, expect, it } from 'vitest';
import { asPage } from './page';

describe('asPage', () => {
  it('reads a page with its total', () => {
    expect(asPage({ data: [1, 2], totalCount: 7 })).toEqual({ data: [1, 2], totalCount: 7 });
    expect(asPage({ items: [1], total: 3 })).toEqual({ data: [1], totalCount: 3 });
    expect(asPage({ entries: [1, 2, 3] })).toEqual({ data: [1, 2, 3], totalCount: 3 });
  });

  it('reads a bare array, and nothing, as a page', () => {
    expect(asPage(['a'])).toEqual({ data: ['a'], totalCount: 1 });
    expect(asPage(null)).toEqual({ data: [], totalCount: 0 });
  });
});
