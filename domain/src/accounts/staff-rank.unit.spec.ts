import { describe, expect, it } from 'vitest';
import type { Role } from './accounts.validation';
import { staffMay, type StaffDecision } from './staff-rank';

const as = (role: Role, id = `${role}-1`) => ({ id, role });
const allowed: StaffDecision = { allowed: true };
const refused = (reason: string) => ({ allowed: false, reason });

describe('staffMay: managing an account', () => {
  it.each<[Role, Role, StaffDecision | ReturnType<typeof refused>]>([
    ['super_admin', 'user', allowed],
    ['super_admin', 'admin', allowed],
    ['super_admin', 'financial_admin', allowed],
    ['super_admin', 'super_admin', refused('rank')],
    ['admin', 'user', allowed],
    ['admin', 'admin', refused('rank')],
    ['admin', 'financial_admin', refused('rank')],
    ['admin', 'super_admin', refused('rank')],
    ['financial_admin', 'user', allowed],
    ['financial_admin', 'admin', refused('rank')],
    ['financial_admin', 'financial_admin', refused('rank')],
    ['financial_admin', 'super_admin', refused('rank')],
    ['super_admin', 'auditor', allowed],
    ['admin', 'auditor', refused('rank')],
    ['financial_admin', 'auditor', refused('rank')],
    ['auditor', 'user', refused('read_only')],
    ['auditor', 'auditor', refused('read_only')],
    ['user', 'user', refused('not_staff')],
  ])('%s on a %s: %j', (actor, target, expected) => {
    expect(staffMay(as(actor, 'actor'), { kind: 'manage', target: as(target, 'target') })).toEqual(expected);
  });

  it('never on the own account, whatever the rank', () => {
    expect(staffMay(as('super_admin', 'me'), { kind: 'manage', target: as('user', 'me') })).toEqual(refused('own_account'));
  });

  it('never on an account whose role this product does not know', () => {
    expect(staffMay(as('super_admin', 'a'), { kind: 'manage', target: { id: 'b', role: 'owner' } })).toEqual(refused('rank'));
  });

  it('an unknown actor role is not staff', () => {
    expect(staffMay({ id: 'a', role: 'root' }, { kind: 'manage', target: as('user', 'b') })).toEqual(refused('not_staff'));
  });
});

describe('staffMay: creating accounts', () => {
  it('a super_admin creates every role', () => {
    for (const role of ['user', 'admin', 'financial_admin', 'super_admin']) expect(staffMay(as('super_admin'), { kind: 'create', role })).toEqual(allowed);
  });
  it('an admin creates users only', () => {
    expect(staffMay(as('admin'), { kind: 'create', role: 'user' })).toEqual(allowed);
    expect(staffMay(as('admin'), { kind: 'create', role: 'financial_admin' })).toEqual(refused('create_staff'));
    expect(staffMay(as('admin'), { kind: 'create', role: 'super_admin' })).toEqual(refused('create_staff'));
  });
  it('a financial_admin creates nothing', () => {
    expect(staffMay(as('financial_admin'), { kind: 'create', role: 'user' })).toEqual(refused('create_users'));
    expect(staffMay(as('financial_admin'), { kind: 'create', role: 'admin' })).toEqual(refused('create_users'));
  });
});

describe('staffMay: an auditor', () => {
  it('is created by a super_admin only', () => {
    expect(staffMay(as('super_admin'), { kind: 'create', role: 'auditor' })).toEqual(allowed);
    expect(staffMay(as('admin'), { kind: 'create', role: 'auditor' })).toEqual(refused('create_staff'));
    expect(staffMay(as('financial_admin'), { kind: 'create', role: 'auditor' })).toEqual(refused('create_users'));
  });
  it('creates nothing and changes no role', () => {
    expect(staffMay(as('auditor'), { kind: 'create', role: 'user' })).toEqual(refused('read_only'));
    expect(staffMay(as('auditor', 'a'), { kind: 'changeRole', target: as('user', 'b'), role: 'admin' })).toEqual(refused('read_only'));
  });
});

describe('staffMay: changing roles', () => {
  it('only a super_admin, on a lower-ranked account', () => {
    expect(staffMay(as('super_admin', 'a'), { kind: 'changeRole', target: as('user', 'b'), role: 'admin' })).toEqual(allowed);
    expect(staffMay(as('super_admin', 'a'), { kind: 'changeRole', target: as('admin', 'b'), role: 'user' })).toEqual(allowed);
    expect(staffMay(as('super_admin', 'a'), { kind: 'changeRole', target: as('super_admin', 'b'), role: 'user' })).toEqual(refused('rank'));
    expect(staffMay(as('super_admin', 'a'), { kind: 'changeRole', target: as('admin', 'a'), role: 'user' })).toEqual(refused('own_account'));
    expect(staffMay(as('admin', 'a'), { kind: 'changeRole', target: as('user', 'b'), role: 'financial_admin' })).toEqual(refused('change_role'));
  });
});
