import { describe, expect, it } from 'vitest';
import { actionOffers, canEdit, messageKey, payeeErrors, PROGRAM_STATUSES } from './programRules';

const me = { id: 'staff-1', features: [] };

describe('auto-pay program actions', () => {
  it('offers the buttons of the state chart by status', () => {
    const actions = (status: string) => actionOffers({ status, submittedBy: 'someone-else' }, me).map((o) => o.action);
    expect(actions('draft')).toEqual(['submit', 'lock', 'cancel']);
    expect(actions('submitted')).toEqual(['approve', 'reject', 'lock', 'cancel']);
    expect(actions('partially_failed')).toEqual(['retry', 'cancel']);
    expect(actions('locked')).toEqual(['unlock']);
    expect(actions('paid')).toEqual([]);
    expect(actions('nonsense')).toEqual([]);
    for (const s of PROGRAM_STATUSES) expect(actions(s).every((a) => !['edit', 'editPayees', 'import', 'export'].includes(a))).toBe(true);
  });

  it('refuses approve and reject to the submitter (four eyes)', () => {
    const offers = actionOffers({ status: 'submitted', submittedBy: 'staff-1' }, me);
    expect(offers.filter((o) => !o.allowed)).toEqual([
      { action: 'approve', allowed: false, reason: 'four_eyes' },
      { action: 'reject', allowed: false, reason: 'four_eyes' },
    ]);
  });

  it('refuses approve to whoever changed the program since it was submitted', () => {
    const offers = actionOffers({ status: 'submitted', submittedBy: 'someone-else', changedBy: ['staff-1'] }, me);
    expect(offers.filter((o) => !o.allowed)).toEqual([{ action: 'approve', allowed: false, reason: 'four_eyes' }]);
  });

  it("takes the server's list when it sends one", () => {
    expect(actionOffers({ status: 'draft', actions: ['cancel', 'edit'] }, me).map((o) => o.action)).toEqual(['cancel']);
  });

  it('needs the action feature when the server gates auto-pay by feature', () => {
    const staff = { id: 'staff-1', features: ['admin:autopay:approve'] };
    const offers = actionOffers({ status: 'submitted', submittedBy: 'x' }, staff);
    expect(offers.map((o) => [o.action, o.allowed])).toEqual([
      ['approve', true],
      ['reject', false],
      ['lock', false],
      ['cancel', false],
    ]);
    expect(canEdit({ status: 'draft' }, staff)).toBe(false);
    expect(canEdit({ status: 'draft' }, { features: ['admin:autopay:edit'] })).toBe(true);
  });

  it('edits only where the state chart allows it', () => {
    expect(canEdit({ status: 'draft' })).toBe(true);
    expect(canEdit({ status: 'rejected' })).toBe(true);
    // a change to a submitted program withdraws the submission (the server sends it back to draft)
    expect(canEdit({ status: 'submitted' })).toBe(true);
    expect(canEdit({ status: 'paid' })).toBe(false);
  });

  it('checks a typed payee by the CSV rules', () => {
    expect(payeeErrors({ email: 'x', amount: '0', address: 'short' })).toEqual({
      email: messageKey('validation.email'),
      amount: messageKey('wallet.invalidAmount'),
      address: messageKey('wallet.invalidAddress'),
    });
    expect(payeeErrors({ email: 'ann@example.com', amount: '1.5' })).toEqual({});
    expect(messageKey('autopay.columnMissing')).toBe('resources.auto-pay.messages.autopay_columnMissing');
  });
});
