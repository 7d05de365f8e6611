import { describe, expect, it } from 'vitest';
import type { DomainError } from '../shared/errors';
import { brandingDecider, logoProblem, parseSubdomain } from './branding';

const metadata = { now: new Date('2026-11-28T10:00:00Z') };
const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    return (error as DomainError).code;
  }
  return null;
};

describe('branding rules', () => {
  it('reads a typed subdomain in lower case and refuses the spec’s bad shapes and reserved names', () => {
    expect(parseSubdomain('  Acme-Legal ')).toBe('acme-legal');
    expect(codeOf(() => parseSubdomain('9acme'))).toBe('CUSTOM_URL_INVALID');
    expect(codeOf(() => parseSubdomain('acme-'))).toBe('CUSTOM_URL_INVALID');
    expect(codeOf(() => parseSubdomain('ac_me'))).toBe('CUSTOM_URL_INVALID');
    expect(codeOf(() => parseSubdomain(''))).toBe('CUSTOM_URL_INVALID');
    expect(codeOf(() => parseSubdomain('a'.repeat(64)))).toBe('CUSTOM_URL_INVALID');
    expect(codeOf(() => parseSubdomain('WWW'))).toBe('CUSTOM_URL_UNAVAILABLE');
  });

  it('takes a logo of 40x40 up to 1 MB and names what is wrong otherwise', () => {
    expect(logoProblem(1024 * 1024, 40, 40)).toBeNull();
    expect(logoProblem(1024 * 1024 + 1, 400, 400)?.code).toBe('LOGO_TOO_LARGE');
    expect(logoProblem(500, 39, 400)?.code).toBe('LOGO_TOO_SMALL');
    expect(
      codeOf(() =>
        brandingDecider.decide(
          { type: 'SetTeamLogo', data: { logoId: 'l', mime: 'image/png', width: 20, height: 20, size: 10 }, metadata },
          brandingDecider.initialState(),
        ),
      ),
    ).toBe('LOGO_TOO_SMALL');
  });

  it('changing the custom URL names the one it replaces; removing one that is not set says so', () => {
    const set = brandingDecider.decide({ type: 'SetTeamCustomUrl', data: { subdomain: 'acme' }, metadata }, brandingDecider.initialState());
    const state = set.reduce(brandingDecider.evolve, brandingDecider.initialState());
    expect(brandingDecider.decide({ type: 'SetTeamCustomUrl', data: { subdomain: 'ACME' }, metadata }, state)).toEqual([]);
    expect(brandingDecider.decide({ type: 'SetTeamCustomUrl', data: { subdomain: 'acme2' }, metadata }, state)).toEqual([
      { type: 'TeamCustomUrlSet', data: { subdomain: 'acme2', previous: 'acme' } },
    ]);
    expect(codeOf(() => brandingDecider.decide({ type: 'RemoveTeamCustomUrl', data: {}, metadata }, brandingDecider.initialState()))).toBe(
      'CUSTOM_URL_NOT_SET',
    );
  });
});
