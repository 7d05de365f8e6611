import type { Command } from '../shared/decider';
import type { ItemDetails, Manifest, StorageType } from './storage.events';

/*
 * Commands carry what the API established outside the pure core: new ids (`newId` for the items a
 * copy creates), the finished upload's manifest, the time (metadata.now).
 */

export type OpenStorage = Command<'OpenStorage', { storageId: string; ownerId: string; type: StorageType; sizeTotal: number }>;
export type ChangeStorageQuota = Command<'ChangeStorageQuota', { sizeTotal: number }>;
export type ReserveQuota = Command<'ReserveQuota', { uploadId: string; size: number }>;
export type ReleaseQuota = Command<'ReleaseQuota', { uploadId: string }>;
export type CreateFolder = Command<'CreateFolder', { itemId: string; parentId: string | null; name: string; rename: boolean }>;
export type AddFile = Command<
  'AddFile',
  {
    itemId: string;
    parentId: string | null;
    name: string;
    rename: boolean;
    uploadId: string;
    manifest: Manifest;
    encrypted: boolean;
    e2eeEnabled: boolean;
    /** The key packets of an end-to-end file (required with `e2eeEnabled`). */
    pgpmessage?: string | null;
  }
>;
export type RenameItem = Command<'RenameItem', { itemId: string; name: string }>;
export type ChangeItemDetails = Command<'ChangeItemDetails', { itemId: string; details: ItemDetails }>;
export type TrashItems = Command<'TrashItems', { itemIds: readonly string[] }>;
export type RestoreItems = Command<'RestoreItems', { itemIds: readonly string[] }>;
export type DeleteItems = Command<'DeleteItems', { itemIds: readonly string[] }>;
export type MoveItems = Command<'MoveItems', { itemIds: readonly string[]; parentId: string | null }>;
export type CopyItems = Command<'CopyItems', { itemIds: readonly string[]; parentId: string | null; newId: () => string }>;

export type PurgeStorage = Command<'PurgeStorage', Record<string, never>>;

export type StorageCommand =
  | OpenStorage
  | PurgeStorage
  | ChangeStorageQuota
  | ReserveQuota
  | ReleaseQuota
  | CreateFolder
  | AddFile
  | RenameItem
  | ChangeItemDetails
  | TrashItems
  | RestoreItems
  | DeleteItems
  | MoveItems
  | CopyItems;

/** The commands that act on several items at once, each item succeeding or failing on its own. */
export type BatchCommand = TrashItems | RestoreItems | DeleteItems | MoveItems | CopyItems;
