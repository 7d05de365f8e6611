import type { SecureFetchEvent } from '@axel/domain/secure-fetch/secure-fetch.events';
import { evolveSecureFetch, isLink, type SecureFetchLink, type SecureFetchState } from '@axel/domain/secure-fetch/secure-fetch.state';
import { defineRowProjection } from '../runner/row-projection';

type Source = SecureFetchEvent;

/** A row of `secure_fetches`; timestamps are Dates when read and ISO strings when folded. */
export interface SecureFetchRow<D = Date> {
  id: string;
  link_id: string;
  owner_id: string;
  type: string;
  status: string;
  note: string;
  expires_at: D | null;
  created_at: D;
  revoked_at: D | null;
  used_at: D | null;
  paid: boolean;
  collected_at: D | null;
  /** A bigint: a string when read. */
  total_size: string | number;
  /** The link as the domain folds it. */
  record: SecureFetchLink;
}

const PREFIX = 'secure-fetch-';

const rowOf = (s: SecureFetchLink, id: string): SecureFetchRow<string> => ({
  id,
  link_id: s.linkId,
  owner_id: s.ownerId,
  type: s.type,
  status: s.status,
  note: s.note,
  expires_at: s.expiresAt,
  created_at: s.createdAt,
  revoked_at: s.revokedAt,
  used_at: s.usedAt,
  paid: !!s.payment?.txId,
  collected_at: s.collectedAt,
  total_size: s.submission?.totalSize ?? 0,
  record: s,
});

/**
 * Fetch links of their owners, one row per link, folded by the domain's own `evolveSecureFetch`. A
 * forgotten link (its owner purged) loses its row with its personal data. The folder a link's files
 * arrived in is indexed, to find a link by its folder (the storage read model stores its own labels).
 */
export const secureFetchesProjection = defineRowProjection<SecureFetchRow<Date | string>, Source>({
  name: 'secure_fetches',
  table: 'secure_fetches',
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
  ddl: (t) => `create table "${t}" (
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
  keyOf: (e) => e.streamName.slice(PREFIX.length),
  evolve: (row, e) => {
    const before: SecureFetchState = row?.record ?? { status: 'none' };
    const after = evolveSecureFetch(before, e);
    if (after === before) return row;
    return isLink(after) ? rowOf(after, e.streamName.slice(PREFIX.length)) : undefined;
  },
});
