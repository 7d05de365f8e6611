import type { ProgramStatus } from '@axel/domain/autopay/index';
import type { Queryable } from '@axel/platform';
import { likePattern, queryPage } from '../shared/paging';

/** A program as staff list it: its columns, who acted on it (by e-mail) and the payees still needing an address. */
export interface ProgramRow {
  id: string;
  name: string;
  description: string;
  status: ProgramStatus;
  created_by: string;
  submitted_by: string | null;
  /** Staff who changed the program since it was first submitted. */
  changed_by: string[];
  authorised_by: string | null;
  created_at: Date;
  updated_at: Date;
  users_count: number;
  imported: boolean;
  total_tokens: string;
  reminders: number;
  new_addresses: number;
  created_by_email: string | null;
  submitted_by_email: string | null;
  authorised_by_email: string | null;
  authorised_by_username: string | null;
}

export interface PayeeRow {
  payee_id: string;
  email: string;
  amount: string;
  address: string | null;
  payer_name: string | null;
  payee_name: string | null;
  transaction_type: string | null;
  account_notes: string | null;
  payout_status: string;
  txid: string | null;
  paid_to: string | null;
  failure: string | null;
}

const PROGRAM_COLUMNS = `p.id, p.name, p.description, p.status, p.created_by, p.submitted_by, p.authorised_by, p.created_at, p.updated_at,
    p.users_count, p.imported, p.total_tokens, p.reminders, coalesce(p.state->'changedBy', '[]'::jsonb) as changed_by,
    (select count(*)::int from autopay_payees y
      where y.program_id = p.id and y.address is null and y.payout_status <> 'paid'
        and not exists (select 1 from users u join wallet_addresses w on w.user_id = u.id where lower(u.email) = y.email)) as new_addresses,
    (select email from users where id = p.created_by) as created_by_email,
    (select email from users where id = p.submitted_by) as submitted_by_email,
    (select email from users where id = p.authorised_by) as authorised_by_email,
    (select username from users where id = p.authorised_by) as authorised_by_username`;

/** What the program list can be sorted by, and the column each sorts on. */
export const PROGRAM_SORT_COLUMNS = {
  name: 'p.name_key',
  status: 'p.status',
  createdAt: 'p.created_at',
  usersCount: 'p.users_count',
  totalTokens: 'p.total_tokens',
} as const;

export const findProgram = async (db: Queryable, programId: string): Promise<ProgramRow | undefined> =>
  (await db.query<ProgramRow>(`select ${PROGRAM_COLUMNS} from autopay_programs p where p.id = $1`, [programId])).rows[0];

/** Whether another program than `except` carries the name (in any case). */
export const programNameTaken = async (db: Queryable, name: string, except: string | null): Promise<boolean> =>
  (await db.query("select 1 from autopay_programs where name_key = lower($1) and id <> coalesce($2, '') limit 1", [name, except])).rows.length > 0;

export interface ProgramsRequest {
  /** Text the name contains, in any case. */
  readonly search: string | null;
  readonly status: string | null;
  readonly sortField: keyof typeof PROGRAM_SORT_COLUMNS;
  readonly sortDir: 'asc' | 'desc';
  readonly limit: number;
  readonly offset: number;
}

export const listPrograms = (db: Queryable, q: ProgramsRequest) =>
  queryPage<ProgramRow>(db, {
    select: PROGRAM_COLUMNS,
    from: 'autopay_programs p',
    where: `${q.search ? 'p.name_key like $1' : '$1::text is null'} and ($2::text is null or p.status = $2)`,
    params: [q.search ? likePattern(q.search.toLowerCase()) : null, q.status],
    orderBy: `${PROGRAM_SORT_COLUMNS[q.sortField]} ${q.sortDir}, p.id`,
    limit: q.limit,
    offset: q.offset,
  });

/** A page of a program's payees in their order. */
export const listPayees = (db: Queryable, programId: string, page: { limit: number; offset: number }) =>
  queryPage<PayeeRow>(db, {
    select: '*',
    from: 'autopay_payees',
    where: 'program_id = $1',
    params: [programId],
    orderBy: 'position',
    limit: page.limit,
    offset: page.offset,
  });

/** Every payee of a program in their order. */
export const payeesOfProgram = async (db: Queryable, programId: string): Promise<PayeeRow[]> =>
  (await db.query<PayeeRow>('select * from autopay_payees where program_id = $1 order by position', [programId])).rows;

export const findPayee = async (db: Queryable, programId: string, payeeId: string): Promise<PayeeRow | undefined> =>
  (await db.query<PayeeRow>('select * from autopay_payees where program_id = $1 and payee_id = $2', [programId, payeeId])).rows[0];

export const programsByStatus = async (db: Queryable): Promise<{ status: string; count: number }[]> =>
  (await db.query<{ status: string; count: number }>('select status, count(*)::int as count from autopay_programs group by status order by status')).rows;

/** The payees paid, and the AXEL they were paid in all. */
export const paidPayees = async (db: Queryable): Promise<{ count: number; total: number }> => {
  const { rows } = await db.query<{ n: number; total: string | null }>(
    `select count(*)::int as n, sum(amount)::text as total from autopay_payees where payout_status = 'paid'`,
  );
  return { count: rows[0]?.n ?? 0, total: Number(rows[0]?.total ?? 0) };
};
