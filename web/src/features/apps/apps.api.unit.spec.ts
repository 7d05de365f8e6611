import { describe, expect, it } from 'vitest';
import { ancestorsOf, dropboxPathOf, subPathOf } from './apps.api';

describe('Dropbox paths in the address', () => {
  it('maps the route parameter to a Dropbox path and back; the root is the empty path', () => {
    expect(dropboxPathOf(undefined)).toBe('');
    expect(dropboxPathOf('Cases/2026')).toBe('/Cases/2026');
    expect(dropboxPathOf('/Cases//x/')).toBe('/Cases/x');
    expect(subPathOf('/Cases/2026')).toBe('Cases/2026');
    expect(dropboxPathOf(subPathOf('/A b/ç'))).toBe('/A b/ç');
  });

  it('names the folders above a path, from the root', () => {
    expect(ancestorsOf('/a/b/c')).toEqual([
      { name: 'a', path: '/a' },
      { name: 'b', path: '/a/b' },
    ]);
    expect(ancestorsOf('')).toEqual([]);
  });
});
