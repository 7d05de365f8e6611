import { createHash } from 'node:crypto';
import type { Migration, Queryable } from '@axel/platform';
import { context as aadOf, generateKey, open, seal } from '@axel/platform/crypto/index';
import type { Secrets } from '../../secrets';

/*
 * What the e-sign module keeps beside its events: the bytes of each package's documents (a copy
 * taken when a PDF joins the package, and the sealed result), encrypted at rest, and the signing
 * leases, so one signer at a time has a package's documents open to sign.
 */
export const esignMigrations: Migration[] = [
  {
    id: 'api-esign-001-documents-leases',
    sql: `
create table if not exists esign_documents (
  package_id text not null,
  -- an entry's id, or 'sealed:<sha256>' for a completed document
  document_id text not null,
  owner_id text not null,
  wrapped_key text not null,
  ciphertext bytea not null,
  size bigint not null,
  sha256 text not null,
  created_at timestamptz not null default now(),
  primary key (package_id, document_id)
);
create index if not exists esign_documents_owner on esign_documents (owner_id);
create table if not exists esign_leases (
  package_id text primary key,
  signer_id text not null,
  expires_at timestamptz not null
);`,
  },
];

export interface StoredDocument {
  readonly bytes: Buffer;
  readonly sha256: string;
}

/** A document's bytes under a data key of its own, the key wrapped by the server key. */
export const saveDocument = async (
  db: Queryable,
  secrets: Secrets,
  doc: { packageId: string; documentId: string; ownerId: string; bytes: Uint8Array },
): Promise<string> => {
  const key = generateKey();
  const sha256 = createHash('sha256').update(doc.bytes).digest('hex');
  const ciphertext = seal(key, doc.bytes, aadOf('esign-document', doc.packageId, doc.documentId));
  await db.query(
    `insert into esign_documents (package_id, document_id, owner_id, wrapped_key, ciphertext, size, sha256) values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (package_id, document_id) do update set wrapped_key = excluded.wrapped_key, ciphertext = excluded.ciphertext, size = excluded.size, sha256 = excluded.sha256`,
    [doc.packageId, doc.documentId, doc.ownerId, secrets.encrypt(key.toString('base64')), ciphertext, doc.bytes.length, sha256],
  );
  return sha256;
};

export const readDocument = async (db: Queryable, secrets: Secrets, packageId: string, documentId: string): Promise<StoredDocument | null> => {
  const { rows } = await db.query<{ wrapped_key: string; ciphertext: Buffer; sha256: string }>(
    'select wrapped_key, ciphertext, sha256 from esign_documents where package_id = $1 and document_id = $2',
    [packageId, documentId],
  );
  const row = rows[0];
  if (!row) return null;
  const key = Buffer.from(secrets.decrypt(row.wrapped_key), 'base64');
  return { bytes: open(key, row.ciphertext, aadOf('esign-document', packageId, documentId)), sha256: row.sha256 };
};

export const dropDocument = (db: Queryable, packageId: string, documentId: string) =>
  db.query('delete from esign_documents where package_id = $1 and document_id = $2', [packageId, documentId]);

export const dropPackageDocuments = (db: Queryable, packageId: string) => db.query('delete from esign_documents where package_id = $1', [packageId]);

/**
 * Takes or renews the package's signing lease for this signer: granted when the lease is free,
 * expired, or already theirs; one statement, so two signers racing cannot both hold it. Answers
 * whether this signer holds it now.
 */
export const acquireLease = async (db: Queryable, packageId: string, signerId: string, now: Date, ttlMs: number): Promise<boolean> => {
  const { rows } = await db.query<{ signer_id: string }>(
    `insert into esign_leases (package_id, signer_id, expires_at) values ($1, $2, $3)
     on conflict (package_id) do update set signer_id = excluded.signer_id, expires_at = excluded.expires_at
       where esign_leases.signer_id = excluded.signer_id or esign_leases.expires_at <= $4
     returning signer_id`,
    [packageId, signerId, new Date(now.getTime() + ttlMs), now],
  );
  return rows[0]?.signer_id === signerId;
};

export const releaseLease = (db: Queryable, packageId: string, signerId: string) =>
  db.query('delete from esign_leases where package_id = $1 and signer_id = $2', [packageId, signerId]);

/** Whether another signer holds a live lease on the package. */
export const leasedByOther = async (db: Queryable, packageId: string, signerId: string, now: Date): Promise<boolean> => {
  const { rows } = await db.query('select 1 from esign_leases where package_id = $1 and signer_id <> $2 and expires_at > $3', [packageId, signerId, now]);
  return rows.length > 0;
};

/** The audit chain's link of an event position, once the sealer has reached it (null before, or without a chain here). */
export const auditLinkAt = async (db: Queryable, position: number): Promise<string | null> => {
  const { rows: exists } = await db.query<{ t: string | null }>("select to_regclass('audit_links')::text as t");
  if (!exists[0]?.t) return null;
  const { rows } = await db.query<{ link: Buffer }>('select link from audit_links where position = $1', [position]);
  return rows[0] ? rows[0].link.toString('hex') : null;
};
