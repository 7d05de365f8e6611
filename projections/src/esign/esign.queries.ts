import type { Queryable } from '@axel/platform';
import { conditions, pageWindow, queryPage } from '../shared/paging';

export interface EsignPackageRow {
  id: string;
  owner_id: string;
  name: string;
  message: string | null;
  status: 'draft' | 'awaiting_signatures' | 'completed' | 'archived';
  archived_from: string | null;
  sent_at: Date | null;
  completed_at: Date | null;
  document_sha256: string | null;
  created_at: Date;
  modified_at: Date;
  entries_count: number;
  signers_count: number;
  finished_count: number;
}

const WITH_COUNTS = {
  select: `p.*,
    (select count(*)::int from esign_entries e where e.package_id = p.id) as entries_count,
    (select count(*)::int from esign_signers s where s.package_id = p.id) as signers_count,
    (select count(*)::int from esign_signers s where s.package_id = p.id and s.finished_at is not null) as finished_count`,
  from: 'esign_packages p',
};

/** An owner's packages, newest change first; `status` narrows to one status. */
export const listEsignPackages = (db: Queryable, ownerId: string, filter: { status?: string; page: number; perPage: number }) => {
  const where = conditions('p.owner_id = $1 and p.deleted_at is null', [ownerId]);
  if (filter.status) where.add((s) => `p.status = ${s}`, filter.status);
  return queryPage<EsignPackageRow>(db, {
    ...WITH_COUNTS,
    where: where.sql,
    params: where.params,
    orderBy: 'p.modified_at desc, p.id',
    ...pageWindow(filter.page, filter.perPage),
  });
};

export const findEsignPackage = async (db: Queryable, ownerId: string, packageId: string): Promise<EsignPackageRow | undefined> =>
  (
    await db.query<EsignPackageRow>(`select ${WITH_COUNTS.select} from ${WITH_COUNTS.from} where p.owner_id = $1 and p.id = $2 and p.deleted_at is null`, [
      ownerId,
      packageId,
    ])
  ).rows[0];

/** The signer a link belongs to, with the package's owner and status. */
export const findEsignLink = async (
  db: Queryable,
  linkId: string,
): Promise<{ package_id: string; signer_id: string; owner_id: string; status: EsignPackageRow['status'] } | undefined> =>
  (
    await db.query<{ package_id: string; signer_id: string; owner_id: string; status: EsignPackageRow['status'] }>(
      `select s.package_id, s.id as signer_id, p.owner_id, p.status from esign_signers s join esign_packages p on p.id = s.package_id where s.link_id = $1 and p.deleted_at is null`,
      [linkId],
    )
  ).rows[0];

/** Ids of every package an owner made, deleted ones too (for erasing them with the account). */
export const esignPackageIdsOf = async (db: Queryable, ownerId: string): Promise<string[]> =>
  (await db.query<{ id: string }>('select id from esign_packages where owner_id = $1', [ownerId])).rows.map((r) => r.id);
