import type { PermissionLevel } from '@axel/domain/teams/permissions';
import { api } from '../../api/client';
import { storagePath } from './files.api';

export type { PermissionLevel } from '@axel/domain/teams/permissions';

/** A grant as the permissions call answers and takes it: to one member (their user id) or to a group. */
export type GrantJson = ({ userId: string; groupId?: undefined } | { groupId: string; userId?: undefined }) & { level: PermissionLevel };

export interface ItemPermissions {
  itemId: string;
  /** The grants made on this item itself. */
  grants: GrantJson[];
  /** Grants from the folders above, each with the folder it is made on: they cannot be lowered here. */
  inherited: (GrantJson & { from: string })[];
  /** Each member's level here and where it comes from. */
  effective: {
    userId: string;
    level: PermissionLevel;
    from: string | null;
    source: 'grant' | 'role' | 'none';
    via: { kind: 'user' | 'group'; id: string } | null;
  }[];
}

const permissionsPath = (userId: string, storageId: string, itemId: string) =>
  `${storagePath(userId, storageId)}/items/${encodeURIComponent(itemId)}/permissions/`;

export const permissionsApi = {
  get: (userId: string, storageId: string, itemId: string) => api.get<ItemPermissions>(permissionsPath(userId, storageId, itemId)),
  set: (userId: string, storageId: string, itemId: string, grants: GrantJson[]) =>
    api.put<ItemPermissions>(permissionsPath(userId, storageId, itemId), { grants }),
};
