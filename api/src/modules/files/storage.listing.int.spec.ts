import { migrate } from '@axel/platform';
import { storageProjection } from '@axel/projections';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../../test/db';
import { accountHelpers } from '../../testing/accounts';
import { storageKeyPacketMigrations, storageLabelMigrations, storageListingMigrations } from './storage.migrations';
import { storageTestApp } from './storage.testing';

const { t, bytes } = storageTestApp();
const { signedInUser } = accountHelpers(t);

interface Listed {
  id: string;
  name: string;
  label: 'file' | 'folder';
  size: number;
  createdAt: string;
  modifiedAt: string;
}

const SORTS = ['name', 'size', 'createdAt', 'modifiedAt', 'label', 'type'] as const;
const keyOf = (item: Listed, sortBy: (typeof SORTS)[number]): string | number =>
  sortBy === 'name' ? item.name.toLowerCase() : sortBy === 'size' ? item.size : sortBy === 'label' || sortBy === 'type' ? item.label : item[sortBy];

/** The listing's order as the spec has it: folders first, then the column, the id settling ties (ASCII names and ids). */
const expectedOrder = (items: Listed[], sortBy: (typeof SORTS)[number], sortOrder: 'asc' | 'desc') => {
  const sign = sortOrder === 'asc' ? 1 : -1;
  const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  return [...items]
    .sort((a, b) => cmp(a.label === 'folder' ? 0 : 1, b.label === 'folder' ? 0 : 1) || sign * cmp(keyOf(a, sortBy), keyOf(b, sortBy)) || sign * cmp(a.id, b.id))
    .map((i) => i.id);
};

describe('listing a folder page by page', () => {
  it('shows every item exactly once across the pages, in every sort order and direction, ties and all', async () => {
    const o = await signedInUser();
    const base = `/api/users/${o.id}/storages/${o.storageId}`;
    const parent = (await o.http.post(`${base}/items/`, { label: 'folder', name: 'Ties' })).body.id as string;
    for (const name of ['Zeta', 'alpha', 'Mid']) {
      expect((await o.http.post(`${base}/folders/${parent}/items/`, { label: 'folder', name })).status).toBe(201);
    }
    for (const [name, content] of [
      ['b.txt', 'xx'],
      ['A.txt', 'yy'],
      ['c.txt', 'zzz'],
      ['d.txt', 'w'],
    ]) {
      const uploadId = bytes.upload(o.id, o.storageId, content!);
      expect((await o.http.post(`${base}/folders/${parent}/items/`, { label: 'file', name, uploadId })).status).toBe(201);
    }
    // many more in the read model, tied on every column but the id: one name in three spellings,
    // three sizes, one time; and an item in the trash, which no page shows nor counts
    const at = new Date('2026-05-01T10:00:00.000Z');
    await t().app.ctx.pool.query(
      `insert into storage_items (id, storage_id, folder, label, name, size, created_at, modified_at, in_trash)
       select 'tie-' || lpad(g::text, 3, '0'), $1, $2, case when g % 4 = 0 then 'folder' else 'file' end,
              (array['Same', 'same', 'SAME'])[g % 3 + 1] || case when g % 4 = 0 then '' else '.bin' end,
              case when g % 4 = 0 then 0 else (g % 3) * 1000 end, $3, $3, g = 31
         from generate_series(1, 31) g`,
      [o.storageId, parent, at],
    );
    const everything = (await o.http.get(`${base}/folders/${parent}/items/`)).body;
    expect(everything.totalCount).toBe(37);
    const items = everything.data as Listed[];
    expect(items.map((i) => i.id)).not.toContain('tie-031');
    // each entry of the list is the entry the item's own address answers, field for field
    for (const item of items) {
      const own = await o.http.get(`${base}/${item.label === 'folder' ? 'folders' : 'files'}/${item.id}`);
      expect(own.status).toBe(200);
      expect(item).toStrictEqual(own.body);
    }
    expect(items.find((i) => i.name === 'b.txt')).toMatchObject({
      label: 'file',
      type: 'file',
      size: 2,
      parentId: parent,
      fileId: expect.any(String),
      state: 'ready',
    });

    for (const label of [undefined, 'file', 'folder'] as const) {
      const chosen = items.filter((i) => !label || i.label === label);
      for (const sortBy of SORTS) {
        for (const sortOrder of ['asc', 'desc'] as const) {
          const seen: string[] = [];
          for (let page = 1; page <= 12; page++) {
            const res = await o.http.get(
              `${base}/folders/${parent}/items/?perPage=4&page=${page}&sortBy=${sortBy}&sortOrder=${sortOrder}${label ? `&label=${label}` : ''}`,
            );
            expect(res.status).toBe(200);
            expect(res.body).toMatchObject({ totalCount: chosen.length, page, perPage: 4 });
            expect(res.body.data.length).toBe(Math.max(0, Math.min(4, chosen.length - (page - 1) * 4)));
            seen.push(...(res.body.data as Listed[]).map((i) => i.id));
          }
          expect(seen, `${label ?? 'all'} by ${sortBy} ${sortOrder}`).toEqual(expectedOrder(chosen, sortBy, sortOrder));
        }
      }
    }
  });
});

describe('the listing indexes', () => {
  it('a storage_items table made before gets, in place, the indexes a fresh one is made with', async () => {
    const db = await createTestDatabase();
    try {
      // the table as the storage projection made it before, with a row
      await db.pool.query(`create table storage_items (
        id text primary key, storage_id text not null, folder text not null, label text not null, name text not null,
        size bigint not null default 0, hash text, mime text, manifest jsonb, encrypted boolean not null default false,
        e2ee_enabled boolean not null default false, details jsonb not null default '{}', copied_from text,
        created_at timestamptz not null, modified_at timestamptz not null, trashed_at timestamptz, in_trash boolean not null default false
      );
      create index on storage_items (storage_id, folder, (label = 'folder') desc, lower(name), id) where not in_trash;
      create index on storage_items (storage_id, trashed_at) where trashed_at is not null;
      create index on storage_items ((manifest->>'keyId')) where manifest is not null;
      insert into storage_items (id, storage_id, folder, label, name, created_at, modified_at) values ('i1', 's1', '', 'folder', 'Kept', now(), now());`);
      expect(await migrate(db.pool, storageListingMigrations)).toEqual(['storage-002-listing-indexes']);
      await db.pool.query(storageProjection.tables.storage_items('fresh_items'));

      const indexes = async (table: string) =>
        (await db.pool.query<{ d: string }>('select indexdef as d from pg_indexes where schemaname = current_schema() and tablename = $1', [table])).rows
          .map((r) => r.d.replace(/^CREATE (UNIQUE )?INDEX \S+ ON \S+/, 'CREATE $1INDEX ON t'))
          .sort();
      expect(await indexes('storage_items')).toEqual(await indexes('fresh_items'));
      expect((await db.pool.query('select name from storage_items')).rows).toEqual([{ name: 'Kept' }]);
      // then the Secure Fetch labels: the same columns as a fresh table, without a secure_fetches read model to read
      expect(await migrate(db.pool, storageLabelMigrations)).toEqual(['storage-003-secure-fetch-labels']);
      // and the key packets of end-to-end files
      expect(await migrate(db.pool, storageKeyPacketMigrations)).toEqual(['storage-004-e2ee-key-packets']);
      const columns = async (table: string) =>
        (
          await db.pool.query<{ c: string }>(
            `select column_name || ' ' || data_type as c from information_schema.columns where table_name = $1 order by ordinal_position`,
            [table],
          )
        ).rows.map((r) => r.c);
      expect(await columns('storage_items')).toEqual(await columns('fresh_items'));
      expect((await db.pool.query('select name, sf_label from storage_items')).rows).toEqual([{ name: 'Kept', sf_label: null }]);
      expect((await db.pool.query('select count(*)::int as n from storage_received')).rows).toEqual([{ n: 0 }]);
    } finally {
      await db.drop();
    }
  });

  it('does nothing where the read model has no table yet (it is then made with them)', async () => {
    const db = await createTestDatabase();
    try {
      expect(await migrate(db.pool, [...storageListingMigrations, ...storageLabelMigrations])).toEqual([
        'storage-002-listing-indexes',
        'storage-003-secure-fetch-labels',
      ]);
      expect((await db.pool.query(`select to_regclass('storage_received') as t`)).rows).toEqual([{ t: null }]);
      expect((await db.pool.query(`select to_regclass('storage_items') as t`)).rows).toEqual([{ t: null }]);
    } finally {
      await db.drop();
    }
  });
});
