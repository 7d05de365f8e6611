import { levelRank, PERMISSION_LEVELS, type PermissionLevel } from '@axel/domain/teams/permissions';
import type { GrantJson, ItemPermissions } from './permissions.api';

/** Who a grant is for, as the dialog keys it: `user:<userId>` or `group:<groupId>`. */
export type PrincipalKey = `user:${string}` | `group:${string}`;

export interface DraftGrant {
  key: PrincipalKey;
  level: PermissionLevel;
}

export const keyOf = (g: Pick<GrantJson, 'userId' | 'groupId'>): PrincipalKey => (g.userId !== undefined ? `user:${g.userId}` : `group:${g.groupId}`);

const grantOf = ({ key, level }: DraftGrant): GrantJson => {
  const id = key.slice(key.indexOf(':') + 1);
  return key.startsWith('user:') ? { userId: id, level } : { groupId: id, level };
};

/** The item's own grants, as the dialog edits them. */
export const draftOf = (answer: Pick<ItemPermissions, 'grants'>): DraftGrant[] => answer.grants.map((g) => ({ key: keyOf(g), level: g.level }));

/** Gives the principal the level: changes their grant, or adds one at the end. */
export const withLevel = (draft: readonly DraftGrant[], key: PrincipalKey, level: PermissionLevel): DraftGrant[] =>
  draft.some((g) => g.key === key) ? draft.map((g) => (g.key === key ? { key, level } : g)) : [...draft, { key, level }];

export const without = (draft: readonly DraftGrant[], key: PrincipalKey): DraftGrant[] => draft.filter((g) => g.key !== key);

/** The body of the PUT: the whole set of the item's grants. */
export const grantsBody = (draft: readonly DraftGrant[]): GrantJson[] => draft.map(grantOf);

export const changed = (answer: Pick<ItemPermissions, 'grants'>, draft: readonly DraftGrant[]): boolean => {
  const before = draftOf(answer);
  return before.length !== draft.length || before.some((g, i) => g.key !== draft[i]!.key || g.level !== draft[i]!.level);
};

/**
 * The lowest level the principal may be given here: a grant to them on a folder above is inherited
 * and cannot be lowered below it (the API refuses with PERMISSION_INHERITED), so lower levels are not offered.
 */
export const floorFor = (inherited: ItemPermissions['inherited'], key: PrincipalKey): PermissionLevel =>
  inherited.filter((g) => keyOf(g) === key).reduce<PermissionLevel>((floor, g) => (levelRank(g.level) > levelRank(floor) ? g.level : floor), 'none');

/** The levels a select offers the principal: from their inherited floor up. */
export const levelsFor = (inherited: ItemPermissions['inherited'], key: PrincipalKey): PermissionLevel[] =>
  PERMISSION_LEVELS.filter((l) => levelRank(l) >= levelRank(floorFor(inherited, key)));
