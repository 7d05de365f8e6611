import { deviceIdOfStream, type CloudLockerEvent } from '@axel/domain/devices/devices.events';
import { defineProjection } from '../runner/projection';

/**
 * CloudLockers as staff and owners list them (`GET /admin/drives/`, `GET /users/{id}/drives/`).
 * Online is not a column: it is read as "a check-in recorded within the window before now", so a
 * silent device turns offline without an event. A deleted device keeps its row (its history stays
 * readable by staff) with `deleted_at` set.
 */
export const cloudLockersProjection = defineProjection<'cloudlockers', CloudLockerEvent>({
  name: 'cloudlockers',
  handles: ['CloudLockerRegistered', 'CloudLockerCheckedIn', 'CloudLockerSizeReported', 'CloudLockerBound', 'CloudLockerUnbound', 'CloudLockerDeleted'],
  tables: {
    cloudlockers: (t) => `create table "${t}" (
      id text primary key,
      serial text not null,
      mac text not null,
      public_key text not null,
      external_ip text,
      connection_checked_at timestamptz,
      owner_id text,
      storage_id text,
      bound_at timestamptz,
      size_used bigint not null default 0,
      size_total bigint not null default 0,
      size_updated_at timestamptz,
      registered_at timestamptz not null,
      modified_at timestamptz not null,
      deleted_at timestamptz
    );
    create index on "${t}" (owner_id);
    create index on "${t}" (serial);`,
  },
  async apply(tx, events, t) {
    const D = `"${t.cloudlockers}"`;
    for (const e of events) {
      const id = deviceIdOfStream(e.streamName);
      switch (e.type) {
        case 'CloudLockerRegistered':
          await tx.query(
            `insert into ${D} (id, serial, mac, public_key, registered_at, modified_at) values ($1, $2, $3, $4, $5, $5)
             on conflict (id) do update set serial = $2, mac = $3, public_key = $4, registered_at = $5, modified_at = $5,
               external_ip = null, connection_checked_at = null, owner_id = null, storage_id = null, bound_at = null,
               size_used = 0, size_total = 0, size_updated_at = null, deleted_at = null`,
            [id, e.data.serial, e.data.mac, e.data.publicKey, e.data.at],
          );
          break;
        case 'CloudLockerCheckedIn':
          await tx.query(`update ${D} set external_ip = $2, connection_checked_at = $3 where id = $1`, [id, e.data.externalIp, e.data.at]);
          break;
        case 'CloudLockerSizeReported':
          await tx.query(`update ${D} set size_used = $2, size_total = $3, size_updated_at = $4 where id = $1`, [
            id,
            e.data.sizeUsed,
            e.data.sizeTotal,
            e.data.at,
          ]);
          break;
        case 'CloudLockerBound':
          await tx.query(`update ${D} set owner_id = $2, storage_id = $3, bound_at = $4, modified_at = $4 where id = $1`, [
            id,
            e.data.ownerId,
            e.data.storageId,
            e.data.at,
          ]);
          break;
        case 'CloudLockerUnbound':
          await tx.query(`update ${D} set owner_id = null, storage_id = null, bound_at = null, modified_at = $2 where id = $1`, [id, e.data.at]);
          break;
        case 'CloudLockerDeleted':
          await tx.query(`update ${D} set deleted_at = $2, modified_at = $2 where id = $1`, [id, e.data.at]);
          break;
        default:
          break;
      }
    }
  },
});
