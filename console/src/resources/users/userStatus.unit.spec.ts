import { describe, expect, it } from 'vitest';
import { statusChips } from './userStatus';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const kinds = (user: object) => statusChips(user, NOW).map((c) => c.kind);

describe('status chips', () => {
  it('a blocked user is Blocked, never a green Active', () => {
    const chips = statusChips({ status: 'active', blocked: true, blockedUntil: null }, NOW);
    expect(chips).toEqual([{ kind: 'blocked', color: 'error', label: 'resources.users.statuses.blocked' }]);
  });

  it('shows suspended, blocked and locked together, most serious first', () => {
    expect(kinds({ status: 'suspended', blocked: true, lockedUntil: '2026-06-01T12:10:00Z' })).toEqual(['suspended', 'blocked', 'locked']);
  });

  it('a sign-in lock shows until it runs out', () => {
    const locked = statusChips({ status: 'active', blocked: false, lockedUntil: '2026-06-01T12:10:00Z' }, NOW);
    expect(locked).toEqual([{ kind: 'locked', color: 'warning', label: 'resources.users.statuses.locked', until: '2026-06-01T12:10:00Z' }]);
    expect(kinds({ status: 'active', blocked: false, lockedUntil: '2026-06-01T11:00:00Z' })).toEqual(['active']);
  });

  it('a deleted user is Deleted whatever else holds', () => {
    expect(kinds({ status: 'suspended', blocked: true, deletedAt: '2026-05-01T00:00:00Z' })).toEqual(['deleted']);
  });

  it('a timed block without the flag counts while its end lies ahead', () => {
    expect(kinds({ status: 'active', blockedUntil: '2026-06-02T00:00:00Z' })).toEqual(['blocked']);
    expect(statusChips({ status: 'active', blockedUntil: '2026-06-02T00:00:00Z' }, NOW)[0]!.until).toBe('2026-06-02T00:00:00Z');
    expect(kinds({ status: 'active', blockedUntil: '2026-05-02T00:00:00Z' })).toEqual(['active']);
  });

  it('only an unhindered user is Active (green); other statuses keep their own chip', () => {
    expect(statusChips({ status: 'active', blocked: false }, NOW)).toEqual([{ kind: 'active', color: 'success', label: 'resources.users.statuses.active' }]);
    expect(kinds({ status: 'unpaid', blocked: false })).toEqual(['unpaid']);
    expect(kinds({ status: 'weird' })).toEqual(['unknown']);
    expect(kinds({})).toEqual(['unknown']);
  });
});
