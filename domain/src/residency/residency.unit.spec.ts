import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../shared/decider.testing';
import { residencyDecider, ResidencyErrors, resolveRegion } from './residency';

const metadata = { now: new Date('2026-11-01T10:00:00Z') };
const given = DeciderSpecification.for(residencyDecider);

describe('account region', () => {
  it('is automatic until chosen; any of the spec regions may be chosen, nothing else', () => {
    expect(residencyDecider.initialState().region).toBe('automatic');
    given([])
      .when({ type: 'ChooseRegion', data: { region: 'EU' }, metadata })
      .then([{ type: 'RegionChosen', data: { region: 'eu', at: metadata.now.toISOString() } }]);
    given([{ type: 'RegionChosen', data: { region: 'eu', at: '' } }])
      .when({ type: 'ChooseRegion', data: { region: 'eu' }, metadata })
      .thenNothingHappened();
    given([])
      .when({ type: 'ChooseRegion', data: { region: 'mars' }, metadata })
      .thenThrows(ResidencyErrors.invalidRegion);
  });

  it('resolves automatic to the deployment default, a chosen region to itself', () => {
    expect(resolveRegion('automatic', 'us')).toBe('us');
    expect(resolveRegion('africa', 'us')).toBe('africa');
  });
});
