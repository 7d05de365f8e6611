import type { SecureFetchEvent } from '@axel/domain/secure-fetch/secure-fetch.events';
import { evolveSecureFetch, isLink, type SecureFetchLink, type SecureFetchState } from '@axel/domain/secure-fetch/secure-fetch.state';
import { defineProjection } from '../runner/projection';

type Source = SecureFetchEvent;

export interface SecureFetchRow {
  id: string;
  link_id: string;
  owner_id: string;
  type: string;
  status: string;
  note: string;
  expires_at: Date | null;
  created_at: Date;
  revoked_at: Date | null;
  used_at: Date | null;
  paid: boolean;
  collected_at: Date | null;
  total_size: string;
  /** The link as the domain folds it. */
  record: SecureFetchLink;
}

const PREFIX = 'secure-fetch-';

/**
 * Fetch links of their owners, one row per link, folded by the domain's own `evolveSecureFetch`. A
 * forgotten link (its owner purged) loses its row with its personal data. The folder a link's files
 * arrived in is indexed, to find a link by its folder (the storage read model stores its own labels).
 */
export const secureFetchesProjection = defineProjection<'secure_fetches', Source>({
  name: 'secure_fetches',
  handles: [
    'SecureFetchCreated',
    'SecureFetchRevoked',
    'SecureFetchSubmitted',
    'SecureFetchItemOpened',
    'SecureFetchPaymentStarted',
    'SecureFetchPaymentFailed',
    'SecureFetchPaid',
    'SecureFetchFilesCollected',
    'SecureFetchForgotten',
  ],
  tables: {
    secure_fetches: (t) => `create table "${t}" (
      id text primary key,
      link_id text not null unique,
      owner_id text not null,
      type text not null,
      status text not null,
      note text not null,
      expires_at timestamptz,
      created_at timestamptz not null,
      revoked_at timestamptz,
      used_at timestamptz,
      paid boolean not null default false,
      collected_at timestamptz,
      total_size bigint not null default 0,
      record jsonb not null
    );
    create index on "${t}" (owner_id, created_at desc, id desc);
    create index on "${t}" ((record->'submission'->>'folderId'));`,
  },
  async apply(tx, events, t) {
    const T = `"${t.secure_fetches}"`;
    const states = new Map<string, SecureFetchState>();
    const touched = new Set<string>();
    for (const e of events) {
      const id = e.streamName.slice(PREFIX.length);
      if (!states.has(id)) {
        const { rows } = await tx.query<{ record: SecureFetchLink }>(`select record from ${T} where id = $1`, [id]);
        states.set(id, rows[0]?.record ?? { status: 'none' });
      }
      states.set(id, evolveSecureFetch(states.get(id)!, e));
      touched.add(id);
    }
    for (const id of touched) {
      const s = states.get(id)!;
      if (!isLink(s)) {
        await tx.query(`delete from ${T} where id = $1`, [id]);
        continue;
      }
      await tx.query(
        `insert into ${T} (id, link_id, owner_id, type, status, note, expires_at, created_at, revoked_at, used_at, paid, collected_at, total_size, record)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
         on conflict (id) do update set status = excluded.status, note = excluded.note, expires_at = excluded.expires_at, revoked_at = excluded.revoked_at,
           used_at = excluded.used_at, paid = excluded.paid, collected_at = excluded.collected_at, total_size = excluded.total_size, record = excluded.record`,
        [
          id,
          s.linkId,
          s.ownerId,
          s.type,
          s.status,
          s.note,
          s.expiresAt,
          s.createdAt,
          s.revokedAt,
          s.usedAt,
          !!s.payment?.txId,
          s.collectedAt,
          s.submission?.totalSize ?? 0,
          JSON.stringify(s),
        ],
      );
    }
  },
});
