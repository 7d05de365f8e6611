import { packageIdOfEsignStream, type EsignEvent } from '@axel/domain/esign/esign.events';
import { defineProjection } from '../runner/projection';

type EsignTable = 'esign_packages' | 'esign_entries' | 'esign_signers' | 'esign_pins';

/**
 * E-sign packages for the owner's lists (`/users/{id}/esign/packages/`, by status) and the
 * receivers' links (`/esign-package-links/{linkId}/`): packages, their documents, signers and
 * fields. A deleted or forgotten package takes its rows with it.
 */
export const esignProjection = defineProjection<EsignTable, EsignEvent>({
  name: 'esign',
  handles: [
    'EsignPackageCreated',
    'EsignEntryAdded',
    'EsignEntryRemoved',
    'EsignSignerAdded',
    'EsignSignerRemoved',
    'EsignPinPlaced',
    'EsignPinRemoved',
    'EsignPackageSent',
    'EsignSignerSigned',
    'EsignSignerFinished',
    'EsignPackageCompleted',
    'EsignPackageArchived',
    'EsignPackageUnarchived',
    'EsignPackageDeleted',
    'EsignPackageForgotten',
  ],
  tables: {
    esign_packages: (t) => `create table "${t}" (
      id text primary key,
      owner_id text not null,
      name text not null,
      message text,
      status text not null,
      archived_from text,
      sent_at timestamptz,
      completed_at timestamptz,
      document_sha256 text,
      deleted_at timestamptz,
      created_at timestamptz not null,
      modified_at timestamptz not null
    );
    create index on "${t}" (owner_id, status, modified_at desc);`,
    esign_entries: (t) => `create table "${t}" (
      id text not null,
      package_id text not null,
      file_id text,
      name text not null,
      size bigint not null,
      sha256 text not null,
      page_count int not null,
      created_at timestamptz not null,
      primary key (package_id, id)
    );`,
    esign_signers: (t) => `create table "${t}" (
      id text not null,
      package_id text not null,
      link_id text not null unique,
      name text not null,
      email text not null,
      color int not null,
      signing_order int,
      signed_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz not null,
      primary key (package_id, id)
    );`,
    esign_pins: (t) => `create table "${t}" (
      id text not null,
      package_id text not null,
      entry_id text not null,
      signer_id text not null,
      kind text not null,
      page int not null,
      x double precision not null,
      y double precision not null,
      width double precision not null,
      height double precision not null,
      filled boolean not null default false,
      primary key (package_id, id)
    );`,
  },
  async apply(tx, events, t) {
    const P = `"${t.esign_packages}"`;
    const E = `"${t.esign_entries}"`;
    const S = `"${t.esign_signers}"`;
    const N = `"${t.esign_pins}"`;
    for (const e of events) {
      const packageId = packageIdOfEsignStream(e.streamName);
      const at = e.recordedAt;
      const touch = () => tx.query(`update ${P} set modified_at = $2 where id = $1`, [packageId, at]);
      switch (e.type) {
        case 'EsignPackageCreated':
          await tx.query(
            `insert into ${P} (id, owner_id, name, message, status, created_at, modified_at) values ($1, $2, $3, $4, 'draft', $5, $5)
             on conflict (id) do nothing`,
            [packageId, e.data.ownerId, e.data.name, e.data.message, at],
          );
          break;
        case 'EsignEntryAdded':
          await tx.query(
            `insert into ${E} (id, package_id, file_id, name, size, sha256, page_count, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8)
             on conflict do nothing`,
            [e.data.entryId, packageId, e.data.fileId, e.data.name, e.data.size, e.data.sha256, e.data.pageCount, at],
          );
          await touch();
          break;
        case 'EsignEntryRemoved':
          await tx.query(`delete from ${E} where package_id = $1 and id = $2`, [packageId, e.data.entryId]);
          await tx.query(`delete from ${N} where package_id = $1 and entry_id = $2`, [packageId, e.data.entryId]);
          await touch();
          break;
        case 'EsignSignerAdded':
          await tx.query(
            `insert into ${S} (id, package_id, link_id, name, email, color, signing_order, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8)
             on conflict do nothing`,
            [e.data.signerId, packageId, e.data.linkId, e.data.name, e.data.email, e.data.color, e.data.order, at],
          );
          await touch();
          break;
        case 'EsignSignerRemoved':
          await tx.query(`delete from ${S} where package_id = $1 and id = $2`, [packageId, e.data.signerId]);
          await tx.query(`delete from ${N} where package_id = $1 and signer_id = $2`, [packageId, e.data.signerId]);
          await touch();
          break;
        case 'EsignPinPlaced':
          await tx.query(
            `insert into ${N} (id, package_id, entry_id, signer_id, kind, page, x, y, width, height) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
             on conflict do nothing`,
            [e.data.pinId, packageId, e.data.entryId, e.data.signerId, e.data.kind, e.data.page, e.data.x, e.data.y, e.data.width, e.data.height],
          );
          await touch();
          break;
        case 'EsignPinRemoved':
          await tx.query(`delete from ${N} where package_id = $1 and id = $2`, [packageId, e.data.pinId]);
          await touch();
          break;
        case 'EsignPackageSent':
          await tx.query(`update ${P} set status = 'awaiting_signatures', sent_at = $2, modified_at = $3 where id = $1`, [packageId, e.data.sentAt, at]);
          break;
        case 'EsignSignerSigned':
          await tx.query(`update ${S} set signed_at = $3 where package_id = $1 and id = $2`, [packageId, e.data.signerId, e.data.signedAt]);
          await tx.query(`update ${N} set filled = true where package_id = $1 and id = any($2::text[])`, [packageId, e.data.pinIds]);
          await touch();
          break;
        case 'EsignSignerFinished':
          await tx.query(`update ${S} set finished_at = $3 where package_id = $1 and id = $2`, [packageId, e.data.signerId, e.data.finishedAt]);
          await touch();
          break;
        case 'EsignPackageCompleted':
          await tx.query(`update ${P} set status = 'completed', completed_at = $2, document_sha256 = $3, modified_at = $4 where id = $1`, [
            packageId,
            e.data.completedAt,
            e.data.documentSha256,
            at,
          ]);
          break;
        case 'EsignPackageArchived':
          await tx.query(`update ${P} set archived_from = status, status = 'archived', modified_at = $2 where id = $1 and status <> 'archived'`, [
            packageId,
            at,
          ]);
          break;
        case 'EsignPackageUnarchived':
          await tx.query(`update ${P} set status = coalesce(archived_from, status), archived_from = null, modified_at = $2 where id = $1`, [packageId, at]);
          break;
        case 'EsignPackageDeleted':
          // the row stays (without its people) until the owner's account is purged: its stream is forgotten then
          for (const table of [N, S, E]) await tx.query(`delete from ${table} where package_id = $1`, [packageId]);
          await tx.query(`update ${P} set deleted_at = $2, name = '', message = null, modified_at = $2 where id = $1`, [packageId, at]);
          break;
        case 'EsignPackageForgotten':
          for (const table of [N, S, E]) await tx.query(`delete from ${table} where package_id = $1`, [packageId]);
          await tx.query(`delete from ${P} where id = $1`, [packageId]);
          break;
        default:
          break;
      }
    }
  },
});
