import { describe, expect, it } from 'vitest';
import { actionOffers, canEdit, PROGRAM_STATUSES } from './programRules';

const me = { id: 'staff-1', features: [] };

describe('auto-pay program actions', () => {
  it('offers actions by status', () => {
    const actions = (status: string) => actionOffers({ status, submittedBy: 'someone-else' }, me).map((o) => o.action);
    expect(actions('draft')).toEqual(['submit', 'lock', 'cancel']);
    expect(actions('submitted')).toEqual(['approve', 'reject', 'lock', 'cancel']);
    expect(actions('partially_failed')).toEqual(['retry']);
    expect(actions('locked')).toEqual(['unlock']);
    expect(actions('paid')).toEqual([]);
    expect(actions('cancelled')).toEqual([]);
    for (const s of PROGRAM_STATUSES) expect(Array.isArray(actions(s))).toBe(true);
  });

  it('refuses approve and reject to the submitter (four eyes)', () => {
    const offers = actionOffers({ status: 'submitted', submittedBy: 'staff-1' }, me);
    expect(offers.filter((o) => !o.allowed)).toEqual([
      { action: 'approve', allowed: false, reason: 'four_eyes' },
      { action: 'reject', allowed: false, reason: 'four_eyes' },
    ]);
  });

  it("takes the server's list when it sends one", () => {
    expect(actionOffers({ status: 'draft', actions: ['cancel'] }, me).map((o) => o.action)).toEqual(['cancel']);
  });

  it('needs the action feature when auto-pay is gated by feature', () => {
    const offers = actionOffers({ status: 'submitted', submittedBy: 'x' }, { id: 'staff-1', features: ['admin:autopay:approve'] });
    expect(offers.map((o) => [o.action, o.allowed])).toEqual([
      ['approve', true],
      ['reject', false],
      ['lock', false],
      ['cancel', false],
    ]);
  });

  it('edits only while a draft or rejected', () => {
    expect(canEdit({ status: 'draft' })).toBe(true);
    expect(canEdit({ status: 'rejected' })).toBe(true);
    expect(canEdit({ status: 'submitted' })).toBe(false);
  });
});
