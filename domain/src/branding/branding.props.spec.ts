import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { DomainError } from '../shared/errors';
import { brandingDecider, customUrlDecider, parseSubdomain, RESERVED_SUBDOMAINS, type CustomUrlState } from './branding';

const metadata = { now: new Date('2026-11-28T10:00:00Z') };
const chars = fc.constantFrom(...'abcXYZ019-_. '.split(''));

describe('custom URL rules', () => {
  // invariant: what is accepted is one DNS label of letters, digits and hyphens, starting with a letter,
  // not ending with a hyphen, never a reserved name, and parsing it again gives it back
  test.prop([fc.string({ unit: chars, maxLength: 70 })])('accepts exactly the names the spec allows', (typed) => {
    let parsed: string | null = null;
    try {
      parsed = parseSubdomain(typed);
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
    }
    const name = typed.trim().toLowerCase();
    const allowed = /^[a-z][a-z0-9-]{0,62}$/.test(name) && !name.endsWith('-') && !RESERVED_SUBDOMAINS.includes(name);
    expect(parsed !== null).toBe(allowed);
    if (parsed !== null) expect(parseSubdomain(parsed)).toBe(parsed);
  });

  // invariant: whatever teams try in whatever order, a name is held by at most one team, it changes
  // hands only after its holder released it, and a release by anyone else changes nothing
  test.prop([fc.array(fc.record({ reserve: fc.boolean(), team: fc.constantFrom('a', 'b', 'c') }), { maxLength: 40 })])(
    'a name is held by one team at a time',
    (steps) => {
      let state: CustomUrlState = customUrlDecider.initialState();
      for (const step of steps) {
        const command = { type: step.reserve ? 'ReserveCustomUrl' : 'ReleaseCustomUrl', data: { teamId: step.team }, metadata } as const;
        const before = state.teamId;
        let events;
        try {
          events = customUrlDecider.decide(command, state);
        } catch (error) {
          expect((error as DomainError).code).toBe('CUSTOM_URL_EXISTS');
          expect(before).not.toBeNull();
          expect(before).not.toBe(step.team);
          continue;
        }
        state = events.reduce(customUrlDecider.evolve, state);
        if (step.reserve) expect(state.teamId).toBe(step.team);
        else expect(state.teamId).toBe(before === step.team ? null : before);
      }
    },
  );
});

describe('branding', () => {
  // invariant: a forgotten branding holds nothing of the company, whatever came before it
  test.prop([fc.array(fc.option(fc.string({ minLength: 1, maxLength: 30 }), { nil: null }), { maxLength: 6 })])(
    'forgetting clears the name and the logo',
    (names) => {
      let state = brandingDecider.initialState();
      const run = (command: Parameters<typeof brandingDecider.decide>[0]) => {
        state = brandingDecider.decide(command, state).reduce(brandingDecider.evolve, state);
      };
      for (const companyName of names) run({ type: 'SetBrandingName', data: { companyName }, metadata });
      run({ type: 'SetTeamLogo', data: { logoId: 'l1', mime: 'image/png', width: 64, height: 64, size: 1000 }, metadata });
      run({ type: 'ForgetTeamBranding', data: {}, metadata });
      expect(state).toMatchObject({ companyName: null, logo: null, subdomain: null, forgotten: true });
    },
  );
});
