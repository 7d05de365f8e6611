import {
  allows,
  DomainError,
  effectiveLevel,
  indexGrants,
  StorageErrors,
  TeamErrors,
  type PermissionLevel,
  type Person,
  type StorageAction,
} from '@axel/domain';
import type { CommandContext } from '@axel/platform';
import { itemPath, storageOwner, type StorageRow } from '@axel/projections/storage/storage.queries';
import { activeTeamMember, grantsOn, reachableItems } from '@axel/projections/teams/teams.queries';
import type { AppContext } from '../../context';
import { ownStorage } from './storage.service';

/**
 * Who reaches a storage and how: its owner, with every right; or a joined member of the owner's
 * team (a team has its owner's id), whose every step is weighed by the folder permissions (spec §3
 * Storage permissions, §6). Anyone else gets the storage's not-found, whether it exists or not.
 */
export interface StorageAccess {
  readonly storage: StorageRow;
  /** Null for the owner. */
  readonly member: (Person & { readonly forbiddenActions: readonly string[] }) | null;
}

export const accessStorage = async (ctx: AppContext, userId: string, storageId: string, actor: CommandContext): Promise<StorageAccess> => {
  const ownerId = await storageOwner(ctx.pool, storageId);
  if (ownerId === undefined || ownerId === userId) return { storage: await ownStorage(ctx, userId, storageId, actor), member: null };
  const member = await activeTeamMember(ctx.pool, ownerId, userId);
  if (!member) throw new DomainError(StorageErrors.storageNotFound);
  return { storage: await ownStorage(ctx, ownerId, storageId, actor), member };
};

/** The person's level on an item (`null`: the storage's root, where only the team's managers have a level). */
export const levelOn = async (ctx: AppContext, access: StorageAccess, itemId: string | null): Promise<PermissionLevel> => {
  const { member } = access;
  if (!member) return 'full';
  if (itemId === null) return member.role === 'member' ? 'none' : 'full';
  const path = await itemPath(ctx.pool, access.storage.id, itemId);
  return effectiveLevel(path, member, indexGrants(await grantsOn(ctx.pool, path))).level;
};

/** Refuses an action the person's level on the item does not allow (the spec's not-accessible answer). */
export const requireAction = async (ctx: AppContext, access: StorageAccess, itemId: string | null, action: StorageAction): Promise<void> => {
  const { member } = access;
  if (!member) return;
  if (itemId === null && (action === 'createFolder' || action === 'upload') && member.role === 'member') {
    // a member creates at the root of team storage only with the right to (spec §6)
    if (member.forbiddenActions.includes('createRootFolder')) throw new DomainError(TeamErrors.rootFolderForbidden);
    return;
  }
  if (!allows(await levelOn(ctx, access, itemId), action)) throw new DomainError(StorageErrors.fileNotAccessible);
};

/**
 * What of a folder's children a person may see: null for everything (the owner, a manager, or
 * anyone who can view the folder itself); otherwise only the children a grant of theirs reaches
 * (granted themselves, or above something granted), so they can walk down to it.
 */
export const visibleChildren = async (ctx: AppContext, access: StorageAccess, folderId: string | null): Promise<string[] | null> => {
  const { member } = access;
  if (!member || member.role !== 'member') return null;
  if (folderId !== null && allows(await levelOn(ctx, access, folderId), 'list')) return null;
  const reachable = await reachableItems(ctx.pool, access.storage.id, member);
  if (folderId !== null && !reachable.has(folderId)) throw new DomainError(StorageErrors.fileNotAccessible);
  return [...reachable];
};
