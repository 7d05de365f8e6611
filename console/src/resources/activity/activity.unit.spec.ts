import { describe, expect, it } from 'vitest';
import {
  inFocus,
  mayReadActivity,
  travelQuery,
  apiFilter,
  compareStates,
  exportUrl,
  filtersFrom,
  flatten,
  instantBefore,
  itemOf,
  listUrl,
  totalOf,
} from './activity';

describe('activity filters', () => {
  it('reads the address bar and speaks the API: types split, times as instants, the cursor as before', () => {
    const filters = filtersFrom(new URLSearchParams('user=ada@x.com&type=A, B&ip=&from=2026-11-17T10:00:00.000Z&colour=red'));
    expect(filters).toEqual({ user: 'ada@x.com', type: 'A, B', from: '2026-11-17T10:00:00.000Z' });
    expect(apiFilter(filters, 42)).toEqual({ user: 'ada@x.com', type: ['A', 'B'], from: '2026-11-17T10:00:00.000Z', before: 42 });
    expect(apiFilter({ to: 'not a time' })).toEqual({});
    const url = new URL(listUrl({ aggregate: 'user-1' }, 7, 10), 'http://x');
    expect(JSON.parse(url.searchParams.get('filter')!)).toEqual({ aggregate: 'user-1', before: 7 });
    expect(url.searchParams.get('range')).toBe('[0,9]');
    expect(url.searchParams.get('locale')).toBe('en');
    expect(new URL(listUrl({}, undefined, 10, 'pt'), 'http://x').searchParams.get('locale')).toBe('pt');
    const exported = new URL(exportUrl({ user: 'u1' }, 'csv'), 'http://x');
    expect(exported.pathname).toBe('/api/admin/activity/export');
    expect(exported.searchParams.get('format')).toBe('csv');
    expect(new URL(exportUrl({ user: 'u1' }, 'jsonl', 'nl'), 'http://x').searchParams.get('locale')).toBe('nl');
    // instants inside the sentences read in the reader's zone; without one the server writes UTC
    expect(new URL(listUrl({}, undefined, 10, 'nl', 'Europe/Amsterdam'), 'http://x').searchParams.get('timeZone')).toBe('Europe/Amsterdam');
    expect(new URL(exportUrl({}, 'csv', 'en', 'Asia/Tokyo'), 'http://x').searchParams.get('timeZone')).toBe('Asia/Tokyo');
    expect(new URL(listUrl({}, undefined, 10, 'en'), 'http://x').searchParams.has('timeZone')).toBe(false);
  });

  it('reads the total, or none when the server could not count', () => {
    expect(totalOf('activity 0-24/310')).toBe(310);
    expect(totalOf('activity 0-24/*')).toBeNull();
    expect(totalOf(null)).toBeNull();
  });

  it('names the storage item of an event for its own timeline', () => {
    expect(itemOf({ aggregate: 'storage', data: { itemId: 'f1', name: 'x' } })).toBe('f1');
    expect(itemOf({ aggregate: 'user', data: { itemId: 'f1' } })).toBeNull();
    expect(itemOf({ aggregate: 'storage', data: { size: 1 } })).toBeNull();
  });

  it('travels to before an event, focused on the storage item it names', () => {
    const q = travelQuery({ stream: 'storage-s1', time: '2026-11-17T10:00:00.000Z', aggregate: 'storage', data: { itemId: 'f1' } });
    expect(Object.fromEntries(q)).toEqual({ stream: 'storage-s1', at: '2026-11-17T09:59:59.999Z', focus: 'items.f1' });
    expect(Object.fromEntries(travelQuery({ stream: 'user-u1', time: '2026-11-17T10:00:00.000Z', aggregate: 'user', data: {} }))).toEqual({
      stream: 'user-u1',
      at: '2026-11-17T09:59:59.999Z',
    });
    expect(inFocus('items.f1.name', 'items.f1')).toBe(true);
    expect(inFocus('items.f10.name', 'items.f1')).toBe(false);
    expect(inFocus('status', null)).toBe(true);
  });

  it('travels to the instant just before an event', () => {
    expect(instantBefore('2026-11-17T10:00:00.000Z')).toBe('2026-11-17T09:59:59.999Z');
  });
});

describe('mayReadActivity', () => {
  it('opens the Activity pages to auditors and admins only', () => {
    expect(mayReadActivity({ role: 'auditor', features: [] })).toBe(true);
    expect(mayReadActivity({ role: 'super_admin', features: [] })).toBe(true);
    expect(mayReadActivity({ role: 'financial_admin', features: [] })).toBe(false);
    expect(mayReadActivity(undefined)).toBe(false);
  });
});

describe('time travel comparison', () => {
  it('lays both states out field by field and marks what changed', () => {
    expect([...flatten({ a: { b: 1, c: [1, 2] }, d: null, e: {} })]).toEqual([
      ['a.b', '1'],
      ['a.c', '[1,2]'],
      ['d', 'null'],
      ['e', '{}'],
    ]);
    const fields = compareStates({
      state: { status: 'active', profile: { firstName: 'Ada' } },
      today: { status: 'active', profile: { firstName: 'Grace', city: 'Paris' } },
      differences: ['profile.city', 'profile.firstName'],
    });
    expect(fields).toEqual([
      { path: 'profile.city', then: '', now: '"Paris"', changed: true },
      { path: 'profile.firstName', then: '"Ada"', now: '"Grace"', changed: true },
      { path: 'status', then: '"active"', now: '"active"', changed: false },
    ]);
  });
});
