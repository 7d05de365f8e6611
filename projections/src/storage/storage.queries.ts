import type { Queryable } from '@axel/platform';
import { likePattern, pageWindow } from '../shared/paging';

export interface StorageFileRow {
  id: string;
  name: string;
  size: string;
  mime: string | null;
  in_trash: boolean;
}

/** The files of a storage among the given ids (folders and other storages' items left out). */
export const filesOfStorage = async (db: Queryable, storageId: string, fileIds: readonly string[]): Promise<StorageFileRow[]> =>
  (
    await db.query<StorageFileRow>(`select id, name, size, mime, in_trash from storage_items where storage_id = $1 and id = any($2) and label = 'file'`, [
      storageId,
      fileIds,
    ])
  ).rows;

export interface StorageRow {
  id: string;
  owner_id: string;
  type: string;
  size_total: string;
  size_used: string;
  size_trashed: string;
  opened_at: Date;
}

/** A user's storages, the first opened first. */
export const storagesOf = async (db: Queryable, ownerId: string): Promise<StorageRow[]> =>
  (await db.query<StorageRow>('select * from storages where owner_id = $1 order by opened_at, id', [ownerId])).rows;

/**
 * The columns of an entry, for listings: never the manifest (one entry per MiB of the file, kept
 * out of line by PostgreSQL) nor the details, which a page of 500 large files would otherwise
 * fetch, decompress and parse for nothing.
 */
export const ENTRY_COLUMNS =
  'id, name, label, sf_label, size, hash, mime, folder, storage_id, encrypted, e2ee_enabled, pgpmessage, created_at, modified_at, trashed_at';
const entryColumnsOf = (alias: string) =>
  ENTRY_COLUMNS.split(', ')
    .map((c) => `${alias}.${c}`)
    .join(', ');

/** An item as a listing reads it (see {@link ENTRY_COLUMNS}). */
export interface StorageEntryRow {
  id: string;
  name: string;
  label: 'file' | 'folder';
  sf_label: 'sfFile' | 'sfFolder' | null;
  size: string;
  hash: string | null;
  mime: string | null;
  folder: string;
  storage_id: string;
  encrypted: boolean;
  e2ee_enabled: boolean;
  pgpmessage: string | null;
  created_at: Date;
  modified_at: Date;
  trashed_at: Date | null;
}

/** What a storage's listings can be sorted by, and the column each sorts on. */
export const STORAGE_SORT_COLUMNS = {
  name: 'lower(name)',
  size: 'size',
  createdAt: 'created_at',
  modifiedAt: 'modified_at',
  label: 'label',
  type: 'label',
} as const;

interface EntryPage {
  readonly rows: StorageEntryRow[];
  /** Every match across the pages, as the page's rows count them (0 for a page past the end). */
  readonly total: number;
}

const entryPage = (rows: (StorageEntryRow & { total: string })[]): EntryPage => ({
  rows: rows.map(({ total: _total, ...row }) => row),
  total: rows[0] ? Number(rows[0].total) : 0,
});

/** Items anywhere in a storage, out of the trash, whose name contains the text; folders first. */
export const searchStorageItems = async (
  db: Queryable,
  storageId: string,
  text: string,
  q: { sortBy: keyof typeof STORAGE_SORT_COLUMNS; sortOrder: 'ASC' | 'DESC'; page: number; perPage: number },
): Promise<EntryPage> => {
  const { limit, offset } = pageWindow(q.page, q.perPage);
  // folders first, then the chosen column; the id settles ties so pages never overlap
  const orderBy = `(label = 'folder') desc, ${STORAGE_SORT_COLUMNS[q.sortBy]} ${q.sortOrder}, id ${q.sortOrder}`;
  const { rows } = await db.query<StorageEntryRow & { total: string }>(
    `select ${ENTRY_COLUMNS}, count(*) over () as total from storage_items
      where storage_id = $1 and not in_trash and name ilike $2
      order by ${orderBy} limit $3 offset $4`,
    [storageId, likePattern(text), limit, offset],
  );
  return entryPage(rows);
};

const TRASH_SORT_COLUMNS = { name: 'lower(i.name)', size: 'i.size', trashedAt: 'i.trashed_at' } as const;

/** The items an owner put in the trash, of all their storages or of one. */
export const trashOf = async (
  db: Queryable,
  ownerId: string,
  storageId: string | null,
  q: { sortBy: keyof typeof TRASH_SORT_COLUMNS; sortOrder: 'asc' | 'desc'; page: number; perPage: number },
): Promise<EntryPage> => {
  const { limit, offset } = pageWindow(q.page, q.perPage);
  const { rows } = await db.query<StorageEntryRow & { total: string }>(
    `select ${entryColumnsOf('i')}, count(*) over () as total from storage_items i join storages s on s.id = i.storage_id
      where s.owner_id = $1 and i.trashed_at is not null and ($2::text is null or i.storage_id = $2)
      order by ${TRASH_SORT_COLUMNS[q.sortBy]} ${q.sortOrder}, i.id ${q.sortOrder} limit $3 offset $4`,
    [ownerId, storageId, limit, offset],
  );
  return entryPage(rows);
};

/** Which of the given items an owner has, and in which of their storages. */
export const storagesOfItems = async (db: Queryable, ownerId: string, itemIds: readonly string[]): Promise<{ id: string; storage_id: string }[]> =>
  (
    await db.query<{ id: string; storage_id: string }>(
      'select i.id, i.storage_id from storage_items i join storages s on s.id = i.storage_id where s.owner_id = $1 and i.id = any($2)',
      [ownerId, itemIds],
    )
  ).rows;

/**
 * A user's storages with their sizes, the first opened first; none where the storage read model has
 * no table (a product run without the files module).
 */
export const storageSizesOf = async (db: Queryable, ownerId: string): Promise<{ id: string; type: string; size_used: string; size_total: string }[]> => {
  const { rows: tables } = await db.query<{ t: string | null }>(`select to_regclass('storages')::text as t`);
  if (!tables[0]?.t) return [];
  const { rows } = await db.query<{ id: string; type: string; size_used: string; size_total: string }>(
    'select id, type, size_used::text, size_total::text from storages where owner_id = $1 order by opened_at, id',
    [ownerId],
  );
  return rows;
};

/**
 * The ids from the top folder of a storage down to the item itself (the path the permission
 * function reads), in one walk up the parents; empty when the item is not in that storage.
 */
export const itemPath = async (db: Queryable, storageId: string, itemId: string): Promise<string[]> => {
  const { rows } = await db.query<{ id: string }>(
    `with recursive up(id, folder, depth) as (
       select id, folder, 0 from storage_items where id = $1 and storage_id = $2
       union all
       select i.id, i.folder, up.depth + 1 from storage_items i join up on i.id = up.folder and i.storage_id = $2 where up.depth < 1000
     )
     select id from up order by depth desc`,
    [itemId, storageId],
  );
  return rows.map((r) => r.id);
};

/** Whose a storage is, or undefined when there is no such storage. */
export const storageOwner = async (db: Queryable, storageId: string): Promise<string | undefined> =>
  (await db.query<{ owner_id: string }>('select owner_id from storages where id = $1', [storageId])).rows[0]?.owner_id;

export interface ResidencyFileRow {
  id: string;
  name: string;
  in_trash: boolean;
  manifest: { chunks: { cid: string; size: number }[]; size: number; region?: string };
}

export interface ResidencyTotalRow {
  /** The region recorded on the files; null for files stored before regions. */
  region: string | null;
  files: number;
  chunks: number;
  bytes: string;
}

/**
 * The residency report's rows: the owner's files (every storage, trash included) with their
 * manifests, a page at a time oldest first, and totals per recorded region over all of them.
 */
export const residencyOfOwner = async (
  db: Queryable,
  ownerId: string,
  page: number,
  perPage: number,
): Promise<{ totalCount: number; files: ResidencyFileRow[]; totals: ResidencyTotalRow[] }> => {
  const { limit, offset } = pageWindow(page, perPage);
  const files = await db.query<ResidencyFileRow>(
    `select i.id, i.name, i.in_trash, i.manifest from storage_items i join storages s on s.id = i.storage_id
      where s.owner_id = $1 and i.label = 'file' and i.manifest is not null
      order by i.created_at, i.id limit $2 offset $3`,
    [ownerId, limit, offset],
  );
  const totals = await db.query<ResidencyTotalRow>(
    `select i.manifest->>'region' as region, count(*)::int as files,
            coalesce(sum(jsonb_array_length(i.manifest->'chunks')), 0)::int as chunks, coalesce(sum((i.manifest->>'size')::bigint), 0)::text as bytes
       from storage_items i join storages s on s.id = i.storage_id
      where s.owner_id = $1 and i.label = 'file' and i.manifest is not null
      group by 1 order by 1 nulls first`,
    [ownerId],
  );
  return { totalCount: totals.rows.reduce((n, r) => n + r.files, 0), files: files.rows, totals: totals.rows };
};
