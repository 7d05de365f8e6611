import type { Migration, Queryable } from '@axel/platform';

export const projectionMigrations: Migration[] = [
  {
    id: 'projections-001-checkpoints',
    sql: `
create table projection_checkpoints (
  name text primary key,
  position bigint not null default 0,
  updated_at timestamptz not null default now(),
  rebuilt_at timestamptz
);`,
  },
];

export const readCheckpoint = async (db: Queryable, name: string): Promise<number> => {
  const { rows } = await db.query<{ position: number }>('select position from projection_checkpoints where name = $1', [name]);
  return rows[0]?.position ?? 0;
};

export const readCheckpoints = async (db: Queryable): Promise<Map<string, number>> => {
  const { rows } = await db.query<{ name: string; position: number }>('select name, position from projection_checkpoints');
  return new Map(rows.map((r) => [r.name, r.position]));
};
