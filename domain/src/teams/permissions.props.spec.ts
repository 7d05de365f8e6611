import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import {
  accessChanges,
  checkItemGrants,
  effectiveLevel,
  indexGrants,
  levelRank,
  PERMISSION_LEVELS,
  withItemGrants,
  type Grant,
  type Person,
  type Principal,
} from './permissions';

/*
 * Over any folder path, any grants to any members and groups, any person:
 * - a child is never below its parent (a grant is inherited by everything under it);
 * - removing a grant never widens anyone's access;
 * - the level and the source it names do not depend on the order the grants were made in;
 * - the level is reached by the grant the source names, on the path, to the person or one of their groups;
 * - joining a group never lowers a level;
 * - a set of grants accepted for an item never puts a principal below what it inherits.
 */

const items = ['f0', 'f1', 'f2', 'f3', 'f4', 'f5'];
const users = ['u1', 'u2', 'u3'];
const groups = ['g1', 'g2'];

const principal: fc.Arbitrary<Principal> = fc.oneof(
  fc.constantFrom(...users).map((id) => ({ kind: 'user' as const, id })),
  fc.constantFrom(...groups).map((id) => ({ kind: 'group' as const, id })),
);
const grant: fc.Arbitrary<Grant> = fc.record({ itemId: fc.constantFrom(...items), principal, level: fc.constantFrom(...PERMISSION_LEVELS) });
const grants = fc.array(grant, { maxLength: 14 });
const person: fc.Arbitrary<Person> = fc.record({
  userId: fc.constantFrom(...users),
  groupIds: fc.subarray(groups),
  role: fc.constantFrom('member' as const, 'member' as const, 'member' as const, 'co_admin_member' as const, 'admin' as const),
});
/** A path from the top folder down: a prefix of the items, so each item's parent is the one before it. */
const path = fc.integer({ min: 1, max: items.length }).map((n) => items.slice(0, n));

const level = (p: readonly string[], who: Person, gs: readonly Grant[]) => levelRank(effectiveLevel(p, who, indexGrants(gs)).level);

describe('folder permissions', () => {
  it('a child is never below its parent', () => {
    fc.assert(
      fc.property(path, person, grants, (p, who, gs) => {
        for (let depth = 1; depth < p.length; depth++) expect(level(p.slice(0, depth + 1), who, gs)).toBeGreaterThanOrEqual(level(p.slice(0, depth), who, gs));
      }),
    );
  });

  it('removing a grant never widens access', () => {
    fc.assert(
      fc.property(path, person, grants, fc.nat(), (p, who, gs, pick) => {
        fc.pre(gs.length > 0);
        const without = gs.filter((_, i) => i !== pick % gs.length);
        expect(level(p, who, without)).toBeLessThanOrEqual(level(p, who, gs));
      }),
    );
  });

  it('the answer does not depend on the order grants were made in', () => {
    fc.assert(
      fc.property(
        path,
        person,
        grants.chain((gs) => fc.tuple(fc.constant(gs), fc.shuffledSubarray(gs, { minLength: gs.length, maxLength: gs.length }))),
        (p, who, [gs, shuffled]) => {
          expect(effectiveLevel(p, who, indexGrants(shuffled))).toEqual(effectiveLevel(p, who, indexGrants(gs)));
        },
      ),
    );
  });

  it('the source it names gives that level, on the path, to the person or one of their groups', () => {
    fc.assert(
      fc.property(path, person, grants, (p, who, gs) => {
        const { level: l, from } = effectiveLevel(p, who, indexGrants(gs));
        if (from.kind === 'role') {
          expect(l).toBe('full');
          expect(who.role).toBe(from.role);
        } else if (from.kind === 'none') {
          expect(l).toBe('none');
          const any = gs.some(
            (g) =>
              p.includes(g.itemId) &&
              g.level !== 'none' &&
              (g.principal.kind === 'user' ? g.principal.id === who.userId : who.groupIds.includes(g.principal.id)),
          );
          expect(any).toBe(false);
        } else {
          expect(p).toContain(from.itemId);
          const source = gs.find(
            (g) => g.itemId === from.itemId && g.principal.kind === from.principal.kind && g.principal.id === from.principal.id && g.level === l,
          );
          expect(source).toBeDefined();
          if (from.principal.kind === 'user') expect(from.principal.id).toBe(who.userId);
          else expect(who.groupIds).toContain(from.principal.id);
          // and no grant on the path to them gives more
          for (const g of gs) {
            const theirs = g.principal.kind === 'user' ? g.principal.id === who.userId : who.groupIds.includes(g.principal.id);
            if (theirs && p.includes(g.itemId)) expect(levelRank(g.level)).toBeLessThanOrEqual(levelRank(l));
          }
        }
      }),
    );
  });

  it('joining a group never lowers a level', () => {
    fc.assert(
      fc.property(path, person, grants, fc.constantFrom(...groups), (p, who, gs, g) => {
        const joined = { ...who, groupIds: [...new Set([...who.groupIds, g])] };
        expect(level(p, joined, gs)).toBeGreaterThanOrEqual(level(p, who, gs));
      }),
    );
  });

  it('grants accepted for an item never put a principal below what it inherits, and refused ones would have', () => {
    fc.assert(
      fc.property(path, grants, fc.array(fc.record({ principal, level: fc.constantFrom(...PERMISSION_LEVELS) }), { maxLength: 4 }), (p, gs, next) => {
        const itemId = p[p.length - 1]!;
        const index = indexGrants(gs);
        let accepted = true;
        try {
          checkItemGrants(p, next, index);
        } catch (e) {
          if (!(e instanceof DomainError)) throw e;
          accepted = false;
        }
        const distinct = new Set(next.map((g) => `${g.principal.kind}:${g.principal.id}`)).size === next.length;
        const lowered = next.some((g) =>
          gs.some(
            (a) =>
              p.slice(0, -1).includes(a.itemId) &&
              a.principal.kind === g.principal.kind &&
              a.principal.id === g.principal.id &&
              levelRank(a.level) > levelRank(g.level),
          ),
        );
        expect(accepted).toBe(distinct && !lowered);
        if (accepted) {
          // each principal, as a person of its own, keeps at least what it inherited
          const after = withItemGrants(gs, itemId, next);
          for (const g of next) {
            const who: Person =
              g.principal.kind === 'user'
                ? { userId: g.principal.id, groupIds: [], role: 'member' }
                : { userId: 'nobody', groupIds: [g.principal.id], role: 'member' };
            expect(level(p, who, after)).toBeGreaterThanOrEqual(level(p.slice(0, -1), who, gs));
          }
        }
      }),
    );
  });

  it('the access changes shown before saving are exactly the people whose level moves', () => {
    fc.assert(
      fc.property(path, grants, grants, fc.array(person, { maxLength: 4 }), (p, before, after, people) => {
        const changes = accessChanges(p, people, before, after);
        for (const who of people) {
          const was = effectiveLevel(p, who, indexGrants(before)).level;
          const will = effectiveLevel(p, who, indexGrants(after)).level;
          const listed = changes.filter((c) => c.userId === who.userId && c.before === was && c.after === will);
          if (was === will) expect(changes.some((c) => c.userId === who.userId && c.before === was && c.after === will)).toBe(false);
          else expect(listed.length).toBeGreaterThan(0);
        }
      }),
    );
  });
});

describe('folder permissions, by example', () => {
  const member: Person = { userId: 'u1', groupIds: ['g1'], role: 'member' };
  const gs: Grant[] = [
    { itemId: 'f0', principal: { kind: 'group', id: 'g1' }, level: 'view' },
    { itemId: 'f1', principal: { kind: 'user', id: 'u1' }, level: 'full' },
  ];
  it('view on a folder and full on its subfolder: view above, full below, each naming its grant', () => {
    expect(effectiveLevel(['f0'], member, indexGrants(gs))).toEqual({
      level: 'view',
      from: { kind: 'grant', itemId: 'f0', principal: { kind: 'group', id: 'g1' } },
    });
    expect(effectiveLevel(['f0', 'f1', 'f2'], member, indexGrants(gs))).toEqual({
      level: 'full',
      from: { kind: 'grant', itemId: 'f1', principal: { kind: 'user', id: 'u1' } },
    });
  });
  it('someone outside the group and with no grant has no access; a co-admin has full', () => {
    expect(effectiveLevel(['f0', 'f1'], { userId: 'u2', groupIds: [], role: 'member' }, indexGrants(gs)).level).toBe('none');
    expect(effectiveLevel(['f0'], { userId: 'u3', groupIds: [], role: 'co_admin_member' }, indexGrants(gs))).toEqual({
      level: 'full',
      from: { kind: 'role', role: 'co_admin_member' },
    });
  });
  it('an inherited view cannot be lowered to no access on a subfolder', () => {
    expect(() => checkItemGrants(['f0', 'f1'], [{ principal: { kind: 'group', id: 'g1' }, level: 'none' }], indexGrants(gs))).toThrowError(
      expect.objectContaining({ code: 'PERMISSION_INHERITED' }),
    );
  });
});
