import { describe, expect, it } from 'vitest';
import { assignableRoles, creatableRoles, decisionOn, Features, hasFeature } from './access';

const perms = (role: string, features: string[]) => ({ role, features });

describe('hasFeature', () => {
  it('is true only when the identity holds the feature', () => {
    expect(hasFeature(perms('super_admin', ['admin:user:delete', 'admin:user:password:reset']), Features.userDelete)).toBe(true);
    expect(hasFeature(perms('admin', ['admin:user:password:reset']), Features.userDelete)).toBe(false);
    expect(hasFeature(perms('admin', ['admin:user:password:reset']), Features.userPasswordReset)).toBe(true);
    expect(hasFeature(perms('financial_admin', ['admin:promocode:add']), Features.userPasswordReset)).toBe(false);
  });

  it('is false while permissions are loading or malformed', () => {
    expect(hasFeature(undefined, Features.userDelete)).toBe(false);
    expect(hasFeature(null, Features.userDelete)).toBe(false);
    expect(hasFeature({ role: 'super_admin' }, Features.userDelete)).toBe(false);
    expect(hasFeature(['admin:user:delete'], Features.userDelete)).toBe(false);
  });

  it('is false for a non-staff role even if it lists the feature', () => {
    expect(hasFeature(perms('user', ['admin:user:delete']), Features.userDelete)).toBe(false);
  });
});

describe('creatableRoles', () => {
  it('offers staff roles to a super_admin only, and nothing to a financial_admin', () => {
    expect(creatableRoles(perms('super_admin', []))).toEqual(['user', 'admin', 'super_admin', 'financial_admin', 'auditor']);
    expect(creatableRoles(perms('admin', []))).toEqual(['user']);
    expect(creatableRoles(perms('financial_admin', []))).toEqual([]);
    expect(creatableRoles(perms('auditor', []))).toEqual([]);
    expect(creatableRoles(undefined)).toEqual([]);
  });
});

describe('decisionOn', () => {
  it('follows the staff hierarchy: an admin may not act on a super_admin or on their own account', () => {
    expect(decisionOn(perms('admin', []), 'me', { id: 'boss', role: 'super_admin' })).toEqual({ allowed: false, reason: 'rank' });
    expect(decisionOn(perms('admin', []), 'me', { id: 'peer', role: 'financial_admin' })).toEqual({ allowed: false, reason: 'rank' });
    expect(decisionOn(perms('admin', []), 'me', { id: 'me', role: 'admin' })).toEqual({ allowed: false, reason: 'own_account' });
    expect(decisionOn(perms('admin', []), 'me', { id: 'u', role: 'user' })).toEqual({ allowed: true });
    expect(decisionOn(perms('super_admin', []), 'me', { id: 'a', role: 'admin' })).toEqual({ allowed: true });
  });

  it('is undefined while who is signed in is loading', () => {
    expect(decisionOn(undefined, 'me', { id: 'u', role: 'user' })).toBeUndefined();
    expect(decisionOn(perms('admin', []), undefined, { id: 'u', role: 'user' })).toBeUndefined();
  });
});

describe('assignableRoles', () => {
  it('lets a super_admin give any other role to an account of lower rank, and nobody else any', () => {
    expect(assignableRoles(perms('super_admin', []), 'me', { id: 'u', role: 'user' })).toEqual(['admin', 'super_admin', 'financial_admin', 'auditor']);
    expect(assignableRoles(perms('super_admin', []), 'me', { id: 'b', role: 'super_admin' })).toEqual([]);
    expect(assignableRoles(perms('admin', []), 'me', { id: 'u', role: 'user' })).toEqual([]);
  });
});
