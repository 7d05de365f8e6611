import { describe, expect, it } from 'vitest';
import { mayViewAvatar } from './avatar-access';

describe('who may see an avatar', () => {
  it('lets the owner see their own, whatever their role', () => {
    expect(mayViewAvatar({ id: 'u-1', role: 'user' }, 'u-1')).toBe(true);
  });
  it("lets staff see any account's", () => {
    for (const role of ['admin', 'super_admin', 'financial_admin']) expect(mayViewAvatar({ id: 's-1', role }, 'u-1')).toBe(true);
  });
  it('refuses another user, and a role the product does not know', () => {
    expect(mayViewAvatar({ id: 'u-2', role: 'user' }, 'u-1')).toBe(false);
    expect(mayViewAvatar({ id: 'u-2', role: 'owner' }, 'u-1')).toBe(false);
  });
});
