import { DomainError } from '../shared/errors';
import { TeamErrors } from './teams.errors';

/**
 * Folder permissions of team storage (spec product.md §3 Member folder permission, §6): `none`
 * ("no access"), `view`, `download`, `edit`, `full`, each level including those below it.
 */
export const PERMISSION_LEVELS = ['none', 'view', 'download', 'edit', 'full'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

export const levelRank = (level: PermissionLevel): number => PERMISSION_LEVELS.indexOf(level);
export const atLeast = (level: PermissionLevel, needed: PermissionLevel): boolean => levelRank(level) >= levelRank(needed);

/** Who a grant is for: one member, or every member of a group. */
export type Principal = { readonly kind: 'user'; readonly id: string } | { readonly kind: 'group'; readonly id: string };

export interface Grant {
  readonly itemId: string;
  readonly principal: Principal;
  readonly level: PermissionLevel;
}

/** The team role that gives every level without a grant: the plan owner (admin) and co-admins. */
export type TeamRole = 'admin' | 'co_admin_member' | 'member';

export interface Person {
  readonly userId: string;
  readonly groupIds: readonly string[];
  readonly role: TeamRole;
}

/** Where a level comes from: a grant on `itemId` (the item itself or an ancestor), or the person's role. */
export type LevelSource =
  | { readonly kind: 'grant'; readonly itemId: string; readonly principal: Principal }
  | { readonly kind: 'role'; readonly role: 'admin' | 'co_admin_member' }
  | { readonly kind: 'none' };

export interface EffectiveLevel {
  readonly level: PermissionLevel;
  readonly from: LevelSource;
}

const appliesTo = (principal: Principal, person: Person): boolean =>
  principal.kind === 'user' ? principal.id === person.userId : person.groupIds.includes(principal.id);

const samePrincipal = (a: Principal, b: Principal) => a.kind === b.kind && a.id === b.id;

/** Grants by item, each item's list in a fixed order, so ties name the same source whatever order grants were made in. */
export const indexGrants = (grants: readonly Grant[]): ReadonlyMap<string, readonly Grant[]> => {
  const byItem = new Map<string, Grant[]>();
  for (const g of grants) {
    const list = byItem.get(g.itemId);
    if (list) list.push(g);
    else byItem.set(g.itemId, [g]);
  }
  const key = (g: Grant) => `${g.principal.kind === 'user' ? 0 : 1}:${g.principal.id}`;
  for (const list of byItem.values()) list.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return byItem;
};

/**
 * A person's level on an item: the highest grant to them or one of their groups on the item or any
 * of its ancestors (`path`: item ids from the top folder down to the item itself). A grant is
 * inherited by everything below it and cannot be taken away there; the admin and co-admins have
 * `full` everywhere. The source named is the grant nearest the top that gives the level (the one
 * that would still give it if the grants below were removed), users before groups on one item.
 */
export const effectiveLevel = (path: readonly string[], person: Person, grants: ReadonlyMap<string, readonly Grant[]>): EffectiveLevel => {
  if (person.role === 'admin' || person.role === 'co_admin_member') return { level: 'full', from: { kind: 'role', role: person.role } };
  let best: EffectiveLevel = { level: 'none', from: { kind: 'none' } };
  for (const itemId of path) {
    for (const g of grants.get(itemId) ?? []) {
      if (!appliesTo(g.principal, person)) continue;
      if (levelRank(g.level) > levelRank(best.level)) best = { level: g.level, from: { kind: 'grant', itemId, principal: g.principal } };
    }
    if (best.level === 'full') break;
  }
  return best;
};

/** What a level lets a person do on an item of team storage (spec §3 Storage permissions: edit, download, view, setPermission). */
export const STORAGE_ACTIONS = {
  list: 'view',
  preview: 'view',
  download: 'download',
  archive: 'download',
  copyFrom: 'download',
  upload: 'edit',
  createFolder: 'edit',
  rename: 'edit',
  move: 'edit',
  copyInto: 'edit',
  trash: 'edit',
  share: 'full',
  setPermission: 'full',
} as const satisfies Record<string, PermissionLevel>;
export type StorageAction = keyof typeof STORAGE_ACTIONS;

export const allows = (level: PermissionLevel, action: StorageAction): boolean => atLeast(level, STORAGE_ACTIONS[action]);

/** The four flags the spec's Storage entity carries, for a level. */
export const storagePermissionsOf = (level: PermissionLevel) => ({
  edit: allows(level, 'rename'),
  download: allows(level, 'download'),
  view: allows(level, 'list'),
  setPermission: allows(level, 'setPermission'),
});

/**
 * Checks a new set of grants for one item (`path` ends with it) against what it inherits: a
 * principal's grant here may not be below the level the same principal inherits from above (the
 * spec: an inherited permission cannot be disabled). A grant equal to or below what is inherited
 * adds nothing; one below is refused rather than silently ignored.
 */
export const checkItemGrants = (path: readonly string[], next: readonly Omit<Grant, 'itemId'>[], grants: ReadonlyMap<string, readonly Grant[]>): void => {
  const seen: Principal[] = [];
  for (const g of next) {
    if (seen.some((p) => samePrincipal(p, g.principal))) throw new DomainError(TeamErrors.duplicateGrant, { principal: g.principal });
    seen.push(g.principal);
    let inherited: PermissionLevel = 'none';
    let from: string | null = null;
    for (const itemId of path.slice(0, -1)) {
      for (const a of grants.get(itemId) ?? []) {
        if (samePrincipal(a.principal, g.principal) && levelRank(a.level) > levelRank(inherited)) {
          inherited = a.level;
          from = itemId;
        }
      }
    }
    if (levelRank(g.level) < levelRank(inherited)) throw new DomainError(TeamErrors.inheritedPermission, { principal: g.principal, inherited, from });
  }
};

/** Replaces the grants of one item. */
export const withItemGrants = (grants: readonly Grant[], itemId: string, next: readonly Omit<Grant, 'itemId'>[]): Grant[] => [
  ...grants.filter((g) => g.itemId !== itemId),
  ...next.filter((g) => g.level !== 'none').map((g) => ({ ...g, itemId })),
];

export interface AccessChange {
  readonly userId: string;
  readonly before: PermissionLevel;
  readonly after: PermissionLevel;
}

/** Who gains or loses what on an item when its grants change: shown before saving. */
export const accessChanges = (path: readonly string[], people: readonly Person[], before: readonly Grant[], after: readonly Grant[]): AccessChange[] => {
  const b = indexGrants(before);
  const a = indexGrants(after);
  const changes: AccessChange[] = [];
  for (const person of people) {
    const was = effectiveLevel(path, person, b).level;
    const will = effectiveLevel(path, person, a).level;
    if (was !== will) changes.push({ userId: person.userId, before: was, after: will });
  }
  return changes;
};
