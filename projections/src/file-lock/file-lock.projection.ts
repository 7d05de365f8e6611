import type { FileLockEvent } from '@axel/domain/file-lock/file-lock.events';
import { defineProjection } from '../runner/projection';

const storageIdOf = (streamName: string) => streamName.slice('file-lock-'.length);

/**
 * The items under a two-factor lock, per storage: which of a page of items are locked
 * (`two-factor-files`), the lock flag of the file details, and the cheap first question of every
 * opening (is anything over this item locked at all?). Codes and grants stay in the stream.
 */
export const fileLocksProjection = defineProjection<'file_locks', FileLockEvent>({
  name: 'file_locks',
  handles: ['ItemTwoFactorLocked', 'ItemTwoFactorUnlocked'],
  tables: {
    file_locks: (t) => `create table "${t}" (
      storage_id text not null,
      item_id text not null,
      user_id text not null,
      method text not null,
      locked_at timestamptz not null,
      primary key (storage_id, item_id)
    );`,
  },
  async apply(tx, events, t) {
    const L = `"${t.file_locks}"`;
    for (const e of events) {
      const storageId = storageIdOf(e.streamName);
      switch (e.type) {
        case 'ItemTwoFactorLocked':
          await tx.query(
            `insert into ${L} (storage_id, item_id, user_id, method, locked_at) values ($1, $2, $3, $4, $5)
             on conflict (storage_id, item_id) do update set user_id = excluded.user_id, method = excluded.method, locked_at = excluded.locked_at`,
            [storageId, e.data.itemId, e.data.userId, e.data.method, e.data.at],
          );
          break;
        case 'ItemTwoFactorUnlocked':
          await tx.query(`delete from ${L} where storage_id = $1 and item_id = $2`, [storageId, e.data.itemId]);
          break;
        default:
          break;
      }
    }
  },
});
