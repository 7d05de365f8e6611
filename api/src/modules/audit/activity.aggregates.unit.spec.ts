import { describe, expect, it } from 'vitest';
import { aggregateOf, differences, toJson } from './activity.aggregates';

describe('aggregateOf', () => {
  it('names the aggregate of a stream by its longest prefix', () => {
    expect(aggregateOf('user-1')?.kind).toBe('user');
    expect(aggregateOf('share-9')?.kind).toBe('share');
    expect(aggregateOf('share-access-9')?.kind).toBe('share-access');
    expect(aggregateOf('share-counter-u1-2026-11')?.kind).toBe('share-counter');
    expect(aggregateOf('secure-fetch-counter-u1-2026-11')?.kind).toBe('secure-fetch-counter');
    expect(aggregateOf('autopay-p1')?.kind).toBe('program');
    expect(aggregateOf('cart-c1')?.kind).toBe('cart');
    expect(aggregateOf('username-abc')).toBeUndefined();
    expect(aggregateOf('user-')).toBeUndefined();
    expect(aggregateOf('mail-1')).toBeUndefined();
  });
});

describe('differences', () => {
  it('names the leaves that differ, sets and maps as JSON', () => {
    const before = toJson({ profile: { firstName: 'Ada', city: 'Paris' }, tags: new Set(['b', 'a']), at: new Date(0) });
    const after = toJson({ profile: { firstName: 'Grace', city: 'Paris' }, tags: new Set(['a', 'b']), at: new Date(0), extra: 1 });
    expect(before).toEqual({ profile: { firstName: 'Ada', city: 'Paris' }, tags: ['a', 'b'], at: '1970-01-01T00:00:00.000Z' });
    expect(differences(before, after)).toEqual(['extra', 'profile.firstName']);
    expect(differences(after, after)).toEqual([]);
  });
});
