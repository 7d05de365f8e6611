import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROLES } from './accounts.validation';
import { rankOf, staffMay, type StaffSubject } from './staff-rank';

const role = fc.oneof(fc.constantFrom(...ROLES), fc.string({ maxLength: 12 }));
const knownRole = fc.constantFrom(...ROLES);
const id = fc.constantFrom('a', 'b', 'c');
const subject = (r = role): fc.Arbitrary<StaffSubject> => fc.record({ id, role: r });
const act = fc.oneof(
  fc.record({ kind: fc.constant('manage' as const), target: subject() }),
  fc.record({ kind: fc.constant('create' as const), role }),
  fc.record({ kind: fc.constant('changeRole' as const), target: subject(), role }),
);

describe('staff hierarchy invariants', () => {
  it('no staff member can ever act on an account of equal or higher rank, or on their own', () => {
    fc.assert(
      fc.property(subject(), act, (actor, request) => {
        if (request.kind === 'create' || !staffMay(actor, request).allowed) return;
        expect(rankOf(request.target.role)).toBeLessThan(rankOf(actor.role));
        expect(request.target.id).not.toBe(actor.id);
      }),
    );
  });

  it('is antisymmetric: if one account may manage another, the other may not manage it back', () => {
    fc.assert(
      fc.property(subject(), subject(), (x, y) => {
        const forth = staffMay(x, { kind: 'manage', target: y }).allowed;
        const back = staffMay(y, { kind: 'manage', target: x }).allowed;
        expect(forth && back).toBe(false);
      }),
    );
  });

  it('only a super_admin creates staff accounts or changes roles, and a financial_admin creates nothing', () => {
    fc.assert(
      fc.property(subject(), act, (actor, request) => {
        if (!staffMay(actor, request).allowed) return;
        if (request.kind === 'changeRole' || (request.kind === 'create' && request.role !== 'user')) expect(actor.role).toBe('super_admin');
        if (request.kind === 'create') expect(actor.role).not.toBe('financial_admin');
      }),
    );
  });

  it('plain users and unknown roles are refused everything', () => {
    fc.assert(
      fc.property(subject(role.filter((r) => r === 'user' || !(ROLES as readonly string[]).includes(r))), act, (actor, request) => {
        expect(staffMay(actor, request)).toEqual({ allowed: false, reason: 'not_staff' });
      }),
    );
  });

  it('an auditor acts on nobody: every act is refused as read-only', () => {
    fc.assert(
      fc.property(subject(fc.constant('auditor')), act, (actor, request) => {
        expect(staffMay(actor, request)).toEqual({ allowed: false, reason: 'read_only' });
      }),
    );
  });

  it('every staff member but an auditor may manage any other plain user, and a super_admin any other non-super_admin', () => {
    fc.assert(
      fc.property(subject(knownRole.filter((r) => r !== 'user')), subject(knownRole), (actor, target) => {
        fc.pre(actor.id !== target.id);
        const expected = actor.role !== 'auditor' && (target.role === 'user' || (actor.role === 'super_admin' && target.role !== 'super_admin'));
        expect(staffMay(actor, { kind: 'manage', target }).allowed).toBe(expected);
      }),
    );
  });
});
