import { describe, expect, it } from 'vitest';
import { emptyShareFilters, hasFilters, planUsage, shareFilterQuery } from './share-filters';

const local = (y: number, m: number, d: number, h = 0, min = 0, s = 0, ms = 0) => new Date(y, m - 1, d, h, min, s, ms).toISOString();

describe("the owner's list filters", () => {
  it('no filter is an empty query', () => {
    expect(shareFilterQuery(emptyShareFilters())).toEqual({ ok: true, query: {} });
    expect(hasFilters({})).toBe(false);
  });

  it('an expiry range runs from the first moment of its first day to the last of its last, either side alone', () => {
    expect(shareFilterQuery({ expiresFrom: '2026-03-01', expiresTo: '2026-03-31', email: '' })).toEqual({
      ok: true,
      query: { expiresFrom: local(2026, 3, 1), expiresAt: local(2026, 3, 31, 23, 59, 59, 999) },
    });
    expect(shareFilterQuery({ expiresFrom: '2026-03-01', expiresTo: '', email: '' })).toEqual({ ok: true, query: { expiresFrom: local(2026, 3, 1) } });
    expect(shareFilterQuery({ expiresFrom: '', expiresTo: '2026-03-01', email: '' })).toEqual({
      ok: true,
      query: { expiresAt: local(2026, 3, 1, 23, 59, 59, 999) },
    });
    // one day is a range too
    expect(shareFilterQuery({ expiresFrom: '2026-03-01', expiresTo: '2026-03-01', email: '' }).ok).toBe(true);
  });

  it('refuses a range backwards and dates that are not dates', () => {
    expect(shareFilterQuery({ expiresFrom: '2026-04-01', expiresTo: '2026-03-31', email: '' })).toEqual({
      ok: false,
      errors: { expiresTo: 'sharing.filters.rangeOrder' },
    });
    expect(shareFilterQuery({ expiresFrom: '01/04/2026', expiresTo: '', email: '' })).toEqual({
      ok: false,
      errors: { expiresFrom: 'sharing.filters.badDate' },
    });
  });

  it('the e-mail lookup goes with both ends of the range (spec §7), lower-cased; an address alone or a bad one is refused', () => {
    expect(shareFilterQuery({ expiresFrom: '2026-03-01', expiresTo: '2026-03-31', email: ' Friend@Example.com ' })).toEqual({
      ok: true,
      query: { expiresFrom: local(2026, 3, 1), expiresAt: local(2026, 3, 31, 23, 59, 59, 999), email: 'friend@example.com' },
    });
    expect(shareFilterQuery({ expiresFrom: '', expiresTo: '', email: 'friend@example.com' })).toEqual({
      ok: false,
      errors: { email: 'sharing.filters.emailNeedsRange' },
    });
    expect(shareFilterQuery({ expiresFrom: '2026-03-01', expiresTo: '', email: 'friend@example.com' })).toEqual({
      ok: false,
      errors: { email: 'sharing.filters.emailNeedsRange' },
    });
    expect(shareFilterQuery({ expiresFrom: '2026-03-01', expiresTo: '2026-03-31', email: 'not-an-address' })).toEqual({
      ok: false,
      errors: { email: 'sharing.filters.badEmail' },
    });
    expect(hasFilters({ email: 'friend@example.com' })).toBe(true);
  });

  it("the month's count against the plan: shares left, reached at the limit, none for an unlimited plan", () => {
    expect(planUsage(3, 5)).toEqual({ count: 3, limit: 5, left: 2, reached: false });
    expect(planUsage(5, 5)).toEqual({ count: 5, limit: 5, left: 0, reached: true });
    expect(planUsage(7, 5)).toEqual({ count: 7, limit: 5, left: 0, reached: true });
    expect(planUsage(40, null)).toEqual({ count: 40, limit: null, left: null, reached: false });
  });
});
