import type { BatchFailure } from '@axel/domain';
import type { Migration, Queryable } from '@axel/platform';
import type { AppContext } from '../../context';
import type { TaskRow } from './storage-archives';

/*
 * The storage tasks' own table (not a read model): the outcome of each task as the client polls it.
 */

export const storageTaskMigrations: Migration[] = [
  {
    id: 'storage-001-tasks',
    sql: `create table storage_tasks (
      id text primary key,
      user_id text not null,
      type text not null,
      status text not null,
      total int not null,
      failed int not null default 0,
      failures jsonb not null default '[]',
      error_code text,
      error_message text,
      item_ids jsonb not null,
      archive_name text,
      created_at timestamptz not null,
      finished_at timestamptz
    );
    create index on storage_tasks (user_id, created_at);`,
  },
  {
    // an archive a share's visitor (or its owner through the share) made belongs to that share and
    // visit: its zip is served only through the share, while the share still lets that visit in
    id: 'storage-002-task-share-binding',
    sql: `alter table storage_tasks
      add column share_id text,
      add column share_visit_id text,
      add column share_email text,
      add column share_user_id text,
      add column share_password_stamp text;`,
  },
];

/** A purged account's tasks go with it (an archive's name is the user's own words). */
export const forgetStorageTasks = async (ctx: AppContext, userId: string): Promise<void> => {
  await ctx.pool.query('delete from storage_tasks where user_id = $1', [userId]);
};

export interface StorageTaskOutcome {
  readonly id: string;
  readonly userId: string;
  readonly type: string;
  readonly status: 'done' | 'failed';
  readonly total: number;
  readonly failures: readonly BatchFailure[];
  readonly error: { code: string | number; message: string } | null;
  readonly itemIds: readonly string[];
  readonly archiveName: string | null;
  /** When the task was made, and finished. */
  readonly at: Date;
}

export const recordStorageTask = async (db: Queryable, task: StorageTaskOutcome): Promise<void> => {
  await db.query(
    `insert into storage_tasks (id, user_id, type, status, total, failed, failures, error_code, error_message, item_ids, archive_name, created_at, finished_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)`,
    [
      task.id,
      task.userId,
      task.type,
      task.status,
      task.total,
      task.failures.length,
      JSON.stringify(task.failures),
      task.error ? String(task.error.code) : null,
      task.error?.message ?? null,
      JSON.stringify(task.itemIds),
      task.archiveName,
      task.at,
    ],
  );
};

/** A task of the user's own (not one made through a share), of one type when given. */
export const findOwnTask = async (db: Queryable, taskId: string, userId: string, type?: 'archive'): Promise<TaskRow | undefined> =>
  (
    await db.query<TaskRow>('select * from storage_tasks where id = $1 and user_id = $2 and ($3::text is null or type = $3) and share_id is null', [
      taskId,
      userId,
      type ?? null,
    ])
  ).rows[0];

/** A finished archive its owner made (a share's archive is served only through its share). */
export const findDoneOwnArchiveTask = async (db: Queryable, taskId: string): Promise<TaskRow | undefined> =>
  (await db.query<TaskRow>(`select * from storage_tasks where id = $1 and type = 'archive' and status = 'done' and share_id is null`, [taskId])).rows[0];
