import { describe, expect, it } from 'vitest';
import { toContractUrl, totalFromContentRange } from './contractUrl';

describe('toContractUrl', () => {
  it('adds the contract slash to collection routes, keeping the query', () => {
    expect(toContractUrl('/api/admin/users?range=%5B0%2C9%5D')).toBe('/api/admin/users/?range=%5B0%2C9%5D');
    expect(toContractUrl('/api/admin/deleted-users?sort=x')).toBe('/api/admin/deleted-users/?sort=x');
    expect(toContractUrl('/api/admin/users')).toBe('/api/admin/users/');
    expect(toContractUrl('/api/admin/promocodes?filter=%7B%7D')).toBe('/api/admin/promocodes/?filter=%7B%7D');
  });

  it('leaves item, action and other routes alone', () => {
    for (const url of ['/api/admin/users/', '/api/admin/users/abc', '/api/admin/users/abc/suspend', '/api/admin/me', '/api/sessions/this/']) {
      expect(toContractUrl(url)).toBe(url);
    }
  });
});

describe('totalFromContentRange', () => {
  it('reads the total', () => {
    expect(totalFromContentRange('users 0-9/42')).toBe(42);
    expect(totalFromContentRange('activity 0-0/0')).toBe(0);
    expect(totalFromContentRange('users 0-9/*')).toBeUndefined();
    expect(totalFromContentRange(null)).toBeUndefined();
  });
});
