import { describe, expect, it } from 'vitest';
import { safeRedirect } from './navigation';

describe('the redirect followed after sign-in', () => {
  it('follows a path of this site, with its query', () => {
    expect(safeRedirect('/files/storage')).toBe('/files/storage');
    expect(safeRedirect('/shares/abc?x=1&y=/z')).toBe('/shares/abc?x=1&y=/z');
    expect(safeRedirect('/')).toBe('/');
  });

  it('goes to the fallback for anything that could leave the site or is missing', () => {
    for (const bad of [
      null,
      undefined,
      '',
      'welcome',
      '//evil.example/path',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      ' /files',
      '/\t/evil.example',
      '/\n/evil.example',
    ]) {
      expect(safeRedirect(bad), String(bad)).toBe('/welcome');
    }
    expect(safeRedirect('//evil.example', '/files')).toBe('/files');
  });
});
