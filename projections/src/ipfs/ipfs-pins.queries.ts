import type { Queryable } from '@axel/platform';
import { conditions, likePattern, queryPage } from '../shared/paging';
import type { IpfsPinRow } from './ipfs-pins.projection';

/** A pin as staff list it, with its owner's username and e-mail. */
export type IpfsPinListRow = IpfsPinRow & { owner_username: string | null; owner_email: string | null };

export interface IpfsPinsRequest {
  readonly status?: string;
  /** Text in the CID, the transaction id, or the owner's username or e-mail. */
  readonly search?: string;
  readonly offset: number;
  readonly limit: number;
}

/** A page of every pin, newest first (the console's IPFS pinning section). */
export const listIpfsPins = async (db: Queryable, q: IpfsPinsRequest): Promise<{ rows: IpfsPinListRow[]; total: number }> => {
  const where = conditions('true');
  if (q.status) where.add((s) => `p.status = ${s}`, q.status);
  if (q.search)
    where.add(
      (s) => `(p.cid ilike ${s} escape '\\' or p.tx_id ilike ${s} escape '\\' or u.username ilike ${s} escape '\\' or u.email ilike ${s} escape '\\')`,
      likePattern(q.search),
    );
  return queryPage<IpfsPinListRow>(db, {
    select: 'p.*, u.username as owner_username, u.email as owner_email',
    from: 'ipfs_pins p left join users u on u.id = p.owner_id',
    where: where.sql,
    params: where.params,
    orderBy: 'p.requested_at desc, p.id desc',
    limit: q.limit,
    offset: q.offset,
  });
};

export const findIpfsPin = async (db: Queryable, pinId: string): Promise<IpfsPinListRow | undefined> => {
  const { rows } = await db.query<IpfsPinListRow>(
    'select p.*, u.username as owner_username, u.email as owner_email from ipfs_pins p left join users u on u.id = p.owner_id where p.id = $1',
    [pinId],
  );
  return rows[0];
};

/** The pins of a Secure Fetch link's files. */
export const pinsOfSecureFetch = async (db: Queryable, fetchId: string): Promise<IpfsPinRow[]> =>
  (await db.query<IpfsPinRow>('select * from ipfs_pins where fetch_id = $1 order by requested_at, id', [fetchId])).rows;

/** The pins of an owner still pinned or on their way (an account purge unpins them). */
export const livePinsOf = async (db: Queryable, ownerId: string): Promise<string[]> =>
  (await db.query<{ id: string }>("select id from ipfs_pins where owner_id = $1 and status <> 'unpinned'", [ownerId])).rows.map((r) => r.id);
