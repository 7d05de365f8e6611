import type { Queryable } from '@axel/platform';
import type { z } from 'zod';
import type { ListQuery } from './storage.schema';
import { STORAGE_SORT_COLUMNS } from '@axel/projections/storage/storage.queries';

const isoTime = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** An entry's label (spec §3 Entry), as `entryLabel` makes it: stored with the item, no lookup per row. */
const LABEL = 'coalesce(sf_label, label)';

/**
 * The JSON of an entry as PostgreSQL writes it, field for field what `entryJson` makes of the row
 * (spec §3 Entry and Item; a listed item is never in the trash, so it has no trashedAt): a page of 500 is then one text the answer carries as it is, with no
 * row parsed, no date made and no object serialised again in the API process.
 */
const entryJsonSql = (isBackup: string) => `json_build_object(
  'id', id, 'name', name, 'label', ${LABEL}, 'type', case when ${isBackup} then 'backup' else ${LABEL} end, 'state', 'ready', 'size', size,
  'hash', hash, 'mime', mime, 'parentId', nullif(folder, ''), 'storageId', storage_id, 'fileId', case when label = 'file' then id end,
  'encrypted', encrypted, 'e2eeEnabled', e2ee_enabled, 'isBackup', ${isBackup}, 'pgpmessage', pgpmessage, 'createdAt', ${isoTime('created_at')}, 'modifiedAt', ${isoTime('modified_at')})`;

/** Where the listed folder stands to backups: inside a backup's folder (every item is backed up), and the backup folders themselves. */
export interface ListingBackups {
  readonly inside: boolean;
  readonly roots: readonly string[];
}

/** A slice of one part of a listing (its folders, or its files): rows to skip, rows to take. */
export interface PartSlice {
  readonly offset: number;
  readonly limit: number;
}

/**
 * Where a page falls in a listing that shows every folder before every file: the slice of the
 * folders and the slice of the files that make it up (either may be empty).
 */
export const pageParts = (counts: { folders: number; files: number }, offset: number, limit: number): { folders: PartSlice; files: PartSlice } => {
  const folderLimit = Math.max(0, Math.min(limit, counts.folders - offset));
  const fileOffset = Math.max(0, offset - counts.folders);
  const fileLimit = Math.max(0, Math.min(limit - folderLimit, counts.files - fileOffset));
  return {
    folders: { offset: Math.min(offset, counts.folders), limit: folderLimit },
    files: { offset: fileOffset, limit: fileLimit },
  };
};

/**
 * One page of a folder (or of a storage's root, `folder` ''): folders first, then files, each by
 * the chosen column, the id settling ties (spec §7 Storage: page, perPage, sortBy, sortOrder, label).
 *
 * Each part is read on its own, in the order of its index (storage_id, folder, label, column, id),
 * forwards or backwards, so a page deep in a large folder walks index entries only: the ids of the
 * page first, then the page's 500 rows by their key, never the rows it skips. The count reads the
 * same index. Answers the JSON of the page (totalCount, page, perPage, data).
 */
export const listFolder = async (
  db: Queryable,
  storageId: string,
  folder: string,
  q: z.infer<typeof ListQuery>,
  backups: ListingBackups = { inside: false, roots: [] },
  onlyIds: readonly string[] | null = null,
) => {
  // a team member who cannot view the folder itself sees only what their grants reach
  const only = (n: number) => (onlyIds ? ` and id = any($${n}::text[])` : '');
  // `file`/`folder` keep a kind (Secure Fetch items too); `sfFile`/`sfFolder` keep only those
  const kind = q.label === 'sfFile' ? 'file' : q.label === 'sfFolder' ? 'folder' : (q.label ?? null);
  const onlyReceived = q.label === 'sfFile' || q.label === 'sfFolder' ? ` and sf_label = '${q.label}'` : '';
  const { rows: counted } = await db.query<{ folders: number; total: number }>(
    `select count(*) filter (where label = 'folder')::int as folders, count(*)::int as total from storage_items
      where storage_id = $1 and folder = $2 and not in_trash and ($3::text is null or label = $3)${onlyReceived}${only(4)}`,
    onlyIds ? [storageId, folder, kind, onlyIds] : [storageId, folder, kind],
  );
  const total = counted[0]?.total ?? 0;
  const folders = counted[0]?.folders ?? 0;
  const parts = pageParts({ folders, files: total - folders }, (q.page - 1) * q.perPage, q.perPage);
  const order = `${STORAGE_SORT_COLUMNS[q.sortBy]} ${q.sortOrder}, id ${q.sortOrder}`;
  const selects: string[] = [];
  const params: unknown[] = onlyIds ? [storageId, folder, onlyIds] : [storageId, folder];
  for (const [label, slice] of [
    ['folder', parts.folders],
    ['file', parts.files],
  ] as const) {
    if (!slice.limit) continue;
    params.push(slice.limit, slice.offset);
    selects.push(
      `(select id from storage_items where storage_id = $1 and folder = $2 and not in_trash and label = '${label}'${onlyReceived}${only(3)}
         order by ${order} limit $${params.length - 1} offset $${params.length})`,
    );
  }
  let data = '[]';
  if (selects.length) {
    params.push(backups.inside, backups.roots);
    const isBackup = `($${params.length - 1}::boolean or id = any($${params.length}::text[]))`;
    const { rows } = await db.query<{ data: string }>(
      `select coalesce(json_agg(${entryJsonSql(isBackup)} order by (label = 'folder') desc, ${order}), '[]')::text as data
         from storage_items where storage_id = $1 and folder = $2 and id = any(array(${selects.join(' union all ')}))`,
      params,
    );
    data = rows[0]?.data ?? '[]';
  }
  return `{"totalCount":${total},"page":${q.page},"perPage":${q.perPage},"data":${data}}`;
};
