import { DomainError, storageStreamName, StorageErrors } from '@axel/domain';
import { entitlementsOf } from '../billing/billing.service';
import { deterministicId, type CommandContext } from '@axel/platform';
import type { StorageRow } from '@axel/projections/storage/storage.queries';
import type { AppContext } from '../../context';
import type { FileManifest } from './contracts';
import { runStorageCommand } from './storage.stream';

export { runStorageCommand } from './storage.stream';

/** A user's own `online` storage has an id derived from theirs, so concurrent first uses open the same one. */
export const onlineStorageId = (userId: string): string => deterministicId('online-storage', userId);

/** The quota the user's plan gives their online storage (the plan in effect now, as billing decides it). */
const planQuota = async (ctx: AppContext, userId: string): Promise<number> => (await entitlementsOf(ctx, userId)).quotaBytes;

/**
 * Opens the user's online storage on first use, with the quota of their plan, and brings the quota
 * in line with the plan in effect whenever it is used: plans change at a date without an event of
 * their own, so the storage reads the plan when it matters rather than waiting to be told.
 */
export const ensureOnlineStorage = async (ctx: AppContext, userId: string, actor: CommandContext): Promise<string> => {
  const storageId = onlineStorageId(userId);
  const [{ rows }, sizeTotal] = await Promise.all([
    ctx.pool.query<{ size_total: string }>('select size_total from storages where id = $1', [storageId]),
    planQuota(ctx, userId),
  ]);
  if (rows[0] && Number(rows[0].size_total) === sizeTotal) return storageId;
  const result = rows[0]
    ? await runStorageCommand(ctx, storageId, { type: 'ChangeStorageQuota', data: { sizeTotal } }, actor, { owner: userId })
    : await runStorageCommand(ctx, storageId, { type: 'OpenStorage', data: { storageId, ownerId: userId, type: 'online', sizeTotal } }, actor);
  await ctx.caughtUp(result.position || (await ctx.store.readStream(storageStreamName(storageId))).events.at(-1)?.position || 0);
  return storageId;
};

/** The storage, when it is this user's; otherwise 404, whether it exists or not. */
export const ownStorage = async (ctx: AppContext, userId: string, storageId: string, actor: CommandContext): Promise<StorageRow> => {
  if (storageId === onlineStorageId(userId)) await ensureOnlineStorage(ctx, userId, actor);
  const { rows } = await ctx.pool.query<StorageRow>('select * from storages where id = $1 and owner_id = $2', [storageId, userId]);
  if (!rows[0]) throw new DomainError(StorageErrors.storageNotFound);
  return rows[0];
};

export interface ItemRow {
  id: string;
  storage_id: string;
  folder: string;
  label: 'file' | 'folder';
  name: string;
  size: string;
  hash: string | null;
  mime: string | null;
  manifest: FileManifest | null;
  encrypted: boolean;
  e2ee_enabled: boolean;
  pgpmessage: string | null;
  details: Record<string, string | null>;
  created_at: Date;
  modified_at: Date;
  trashed_at: Date | null;
  in_trash: boolean;
  /** How a Secure Fetch link's folder and received files are shown (`label` stays what the item is). */
  sf_label: 'sfFile' | 'sfFolder' | null;
}

export const findItem = async (ctx: AppContext, storageId: string, itemId: string): Promise<ItemRow | undefined> => {
  const { rows } = await ctx.pool.query<ItemRow>('select * from storage_items where id = $1 and storage_id = $2', [itemId, storageId]);
  return rows[0];
};

/** An item that is not in the trash, or the spec's not-found error. */
export const liveItem = async (ctx: AppContext, storageId: string, itemId: string, label?: 'file' | 'folder'): Promise<ItemRow> => {
  const item = await findItem(ctx, storageId, itemId);
  if (!item || item.in_trash || (label && item.label !== label)) {
    throw new DomainError(label === 'folder' ? StorageErrors.folderNotFound : label === 'file' ? StorageErrors.fileDeleted : StorageErrors.itemNotFound);
  }
  return item;
};

/** An entry's label (spec §3 Entry): `sfFolder` / `sfFile` for what a Secure Fetch link received, else `folder` / `file`. */
export const entryLabel = (r: Pick<ItemRow, 'label' | 'sf_label'>): 'file' | 'folder' | 'sfFile' | 'sfFolder' => r.sf_label ?? r.label;

/** The JSON of an entry (spec §3 Entry and Item). */
export const entryJson = (
  r: Pick<
    ItemRow,
    | 'id'
    | 'name'
    | 'label'
    | 'sf_label'
    | 'size'
    | 'hash'
    | 'mime'
    | 'folder'
    | 'storage_id'
    | 'encrypted'
    | 'e2ee_enabled'
    | 'pgpmessage'
    | 'created_at'
    | 'modified_at'
    | 'trashed_at'
  >,
  /** A backup's folder or an item inside one: its type is `backup` (spec §3 Item). */
  isBackup = false,
) => ({
  id: r.id,
  name: r.name,
  label: entryLabel(r),
  type: isBackup ? ('backup' as const) : entryLabel(r),
  state: 'ready' as const,
  size: Number(r.size),
  hash: r.hash,
  mime: r.mime,
  parentId: r.folder || null,
  storageId: r.storage_id,
  fileId: r.label === 'file' ? r.id : null,
  encrypted: r.encrypted,
  e2eeEnabled: r.e2ee_enabled,
  pgpmessage: r.pgpmessage,
  isBackup,
  createdAt: r.created_at.toISOString(),
  modifiedAt: r.modified_at.toISOString(),
  ...(r.trashed_at ? { trashedAt: r.trashed_at.toISOString() } : {}),
});

export const storageJson = (r: StorageRow) => ({
  id: r.id,
  type: r.type,
  name: null,
  ownerId: r.owner_id,
  sizeTotal: Number(r.size_total),
  sizeUsed: Number(r.size_used),
  sizeTrashed: Number(r.size_trashed),
  isOwner: true,
  isAdmin: false,
  isCoAdmin: false,
  isTeamFolder: false,
  permissions: { edit: true, download: true, view: true, setPermission: true },
});

/**
 * Where items are, as the item details say it (`/Projects/Axel`, `/` at the root), for a page of
 * items in one query: the path of each of their folders, keyed by folder id.
 */
export const folderPathsOf = async (ctx: AppContext, storageId: string, folderIds: readonly string[]): Promise<Map<string, string>> => {
  const paths = new Map<string, string>();
  const ids = [...new Set(folderIds)];
  if (!ids.length) return paths;
  const { rows } = await ctx.pool.query<{ start: string; path: string }>(
    `with recursive up(start, id, name, folder, depth) as (
       select f.id, f.id, f.name, f.folder, 0 from storage_items f where f.storage_id = $1 and f.id = any($2)
       union all
       select up.start, p.id, p.name, p.folder, up.depth + 1 from up join storage_items p on p.id = up.folder and p.storage_id = $1
        where up.depth < 1000
     ) select start, string_agg(name, '/' order by depth desc) as path from up group by start`,
    [storageId, ids],
  );
  for (const r of rows) paths.set(r.start, `/${r.path}`);
  return paths;
};

/** Folders from the root down to the item's own folder (breadcrumbs). */
export const parentsOf = async (ctx: AppContext, storageId: string, itemId: string): Promise<{ id: string; name: string }[]> => {
  const { rows } = await ctx.pool.query<{ id: string; name: string; depth: number }>(
    `with recursive up(id, name, folder, depth) as (
       select p.id, p.name, p.folder, 1 from storage_items i join storage_items p on p.id = i.folder and p.storage_id = i.storage_id
        where i.id = $1 and i.storage_id = $2
       union all
       select p.id, p.name, p.folder, up.depth + 1 from up join storage_items p on p.id = up.folder and p.storage_id = $2
        where up.depth < 1000
     ) select id, name, depth from up order by depth desc`,
    [itemId, storageId],
  );
  return rows.map((r) => ({ id: r.id, name: r.name }));
};
