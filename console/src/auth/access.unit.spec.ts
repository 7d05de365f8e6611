import { describe, expect, it } from 'vitest';
import { creatableRoles, Features, hasFeature } from './access';

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
  it('offers staff roles to a super_admin only', () => {
    expect(creatableRoles(perms('super_admin', []))).toEqual(['user', 'admin', 'super_admin', 'financial_admin']);
    expect(creatableRoles(perms('admin', []))).toEqual(['user']);
    expect(creatableRoles(undefined)).toEqual(['user']);
  });
});
