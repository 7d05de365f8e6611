import type { Pool } from 'pg';

/** The locked items of a storage, and the folders each sits in (its chain: the item, then up to the root). */
export const lockedChainsOf = async (pool: Pool, storageId: string): Promise<{ item_id: string; chain: string[] }[]> => {
  const { rows } = await pool.query<{ item_id: string; chain: string[] }>(
    `with recursive up(start, id, folder, depth) as (
       select l.item_id, l.item_id, i.folder, 0 from file_locks l left join storage_items i on i.id = l.item_id and i.storage_id = l.storage_id
        where l.storage_id = $1
       union all
       select up.start, p.id, p.folder, up.depth + 1 from up join storage_items p on p.id = up.folder and p.storage_id = $1
        where up.depth < 1000
     ) select start as item_id, array_agg(id order by depth) as chain from up group by start`,
    [storageId],
  );
  return rows;
};

/** Whether the storage has any lock (most have none: their openings ask nothing more). */
export const storageHasLocks = async (pool: Pool, storageId: string): Promise<boolean> => {
  const { rows } = await pool.query('select 1 from file_locks where storage_id = $1 limit 1', [storageId]);
  return rows.length > 0;
};

export const isLocked = async (pool: Pool, storageId: string, itemId: string): Promise<boolean> => {
  const { rows } = await pool.query('select 1 from file_locks where storage_id = $1 and item_id = $2', [storageId, itemId]);
  return rows.length > 0;
};
