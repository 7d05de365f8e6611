import { GENESIS_LINK } from '@axel/platform/audit/chain';
import type { AuditKeys } from '@axel/platform/audit/keys';
import type { CheckpointRecord, RecordedRestore } from '@axel/platform/audit/record';
import type { Queryable } from '@axel/platform';
import { verifyChain } from './audit.chain-store';

/** Why a restore cannot be accepted as asked: said to staff as is. */
export class RestoreNotAcceptedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreNotAcceptedError';
  }
}

/** The longest reason kept in the record. */
export const MAX_RESTORE_REASON = 500;

/**
 * Staff accept a database restored from a backup: the record beside the signing key holds
 * checkpoints past the restored database's last one, so the sealer refuses to seal. Accepted only
 * when the restored database is intact on its own, `position` is its last checkpoint (0 when it
 * has none), and every recorded checkpoint up to there is the one the database holds: what the
 * record held after it is then left behind, by a line appended to the record (nothing in it is
 * rewritten), and sealing goes on from the restored database. Answers the appended restore.
 */
export const acceptRestore = async (
  db: Queryable,
  keys: AuditKeys,
  record: CheckpointRecord,
  request: { readonly position: number; readonly reason: string; readonly operator: string; readonly now: Date },
): Promise<RecordedRestore> => {
  const reason = request.reason.trim();
  if (!reason) throw new RestoreNotAcceptedError('say why the restore is accepted (--reason "...")');
  if (reason.length > MAX_RESTORE_REASON) throw new RestoreNotAcceptedError(`the reason is longer than ${MAX_RESTORE_REASON} characters`);
  record.refresh();
  const recordedUpTo = record.last?.upto ?? 0;
  const { rows } = await db.query<{ upto: string | null }>('select max(upto_position) as upto from audit_checkpoints');
  const sealed = Number(rows[0]?.upto ?? 0);
  if (recordedUpTo <= sealed)
    throw new RestoreNotAcceptedError(`nothing to accept: the record ends at position ${recordedUpTo}, the database is sealed up to ${sealed}`);
  if (request.position !== sealed)
    throw new RestoreNotAcceptedError(`the restored database's last checkpoint is at position ${sealed}: accept the restore there (--position ${sealed})`);
  const intact = await verifyChain(db, keys);
  if (!intact.ok)
    throw new RestoreNotAcceptedError(
      `the restored database does not verify on its own (first mismatch at position ${intact.firstMismatch}, ${intact.reason}): not accepted`,
    );
  const { rows: links } = await db.query<{ position: string; link: Buffer }>('select position, link from audit_links where position = any($1::bigint[])', [
    record
      .checkpoints()
      .filter((c) => c.upto <= sealed)
      .map((c) => c.upto),
  ]);
  const stored = new Map(links.map((l) => [Number(l.position), l.link]));
  for (const c of record.checkpoints()) {
    if (c.upto > sealed) break;
    if (!stored.get(c.upto)?.equals(c.link))
      throw new RestoreNotAcceptedError(`the restored database does not hold the checkpoint recorded at position ${c.upto}: that is a rewrite, not a restore`);
  }
  const restore: RecordedRestore = {
    upto: sealed,
    link: sealed > 0 ? (stored.get(sealed) ?? (await linkAt(db, sealed))) : GENESIS_LINK,
    supersededUpTo: recordedUpTo,
    reason,
    acceptedAt: request.now.toISOString(),
    operator: request.operator,
  };
  record.appendRestore(restore);
  return restore;
};

const linkAt = async (db: Queryable, position: number): Promise<Buffer> => {
  const { rows } = await db.query<{ link: Buffer }>('select link from audit_links where position = $1', [position]);
  if (!rows[0]) throw new RestoreNotAcceptedError(`the restored database has no link at its last checkpoint ${position}`);
  return rows[0].link;
};

/** An accepted restore in words, as verify reports it. */
export const describeRestore = (r: Pick<RecordedRestore, 'upto' | 'supersededUpTo' | 'reason' | 'acceptedAt' | 'operator'>): string =>
  `a restore of the database was accepted on ${r.acceptedAt} by ${r.operator}: the log goes on from position ${r.upto}, and the checkpoints recorded after it up to ${r.supersededUpTo} were left behind (reason: ${r.reason})`;
