import { randomUUID } from 'node:crypto';
import {
  ACTIONS_BY_STATUS,
  AutoPayErrors,
  autopayDecider,
  autopayStreamName,
  CommonErrors,
  columnOf,
  DomainError,
  formatAxel,
  PAYEE_COLUMNS,
  payeeFromInput,
  programNameDecider,
  programNameKey,
  programNameStreamName,
  type PayeeColumn,
  type PayeeFields,
  type RowError,
} from '@axel/domain';
import { handleCommand, loadState, type CommandContext } from '@axel/platform';
import {
  findPayee,
  findProgram as findProgramRow,
  listPayees,
  listPrograms,
  paidPayees,
  PROGRAM_SORT_COLUMNS,
  payeesOfProgram,
  programNameTaken,
  programsByStatus as programCountsByStatus,
  type PayeeRow,
  type ProgramRow,
} from '@axel/projections/wallet/autopay.queries';
import { countWalletAddresses, walletAddressesByMonth } from '@axel/projections/wallet/wallet.queries';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { contentRange, ListQuerySchema, parseListQuery } from '../admin/list-query';
import { requestMeta } from '../../http/request-meta';
import { requireStaff, type Feature } from '../../http/auth';
import { runAutoPayCommand } from './autopay.payout';
import { ErrorSchema } from './wallet.schema';

const tags = ['auto-pay'];
const BASE = '/api/admin/auto-pay/programs/';
const Params = z.object({ id: z.string().min(1).max(64) });
const PayeeParams = Params.extend({ payeeId: z.string().min(1).max(64) });
const ProgramBody = z.object({ name: z.string().max(1000).optional(), description: z.string().max(5000).optional() });
const text = z.string().max(2000).nullable().optional();
const PayeeBody = z.object({
  email: text,
  amount: z
    .union([z.string().max(100), z.number()])
    .nullable()
    .optional(),
  address: text,
  payerName: text,
  payeeName: text,
  transactionType: text,
  accountNotes: text,
});
/** 5 MB of CSV in the JSON body: the import route's own limit. */
const CSV_LIMIT = 5 * 1024 * 1024;

const programView = (r: ProgramRow) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  status: r.status,
  authorisedBy: r.authorised_by,
  /** Who approved, as staff read it: their e-mail, and their username when they have one. */
  authorisedByEmail: r.authorised_by_email,
  authorisedByName: r.authorised_by_username ?? r.authorised_by_email,
  createdBy: r.created_by,
  createdByEmail: r.created_by_email,
  submittedBy: r.submitted_by,
  submittedByEmail: r.submitted_by_email,
  changedBy: r.changed_by,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
  usersCount: r.users_count,
  imported: r.imported,
  totalTokens: formatAxel(Number(r.total_tokens)),
  totalNewAddresses: r.new_addresses,
  reminders: r.reminders,
  actions: ACTIONS_BY_STATUS[r.status].filter((a) => !['edit', 'editPayees', 'import', 'export'].includes(a)),
});

const payeeView = (programId: string, r: PayeeRow) => ({
  id: r.payee_id,
  programId,
  email: r.email,
  amount: formatAxel(Number(r.amount)),
  address: r.address,
  payerName: r.payer_name,
  payeeName: r.payee_name,
  transactionType: r.transaction_type,
  accountNotes: r.account_notes,
  payoutStatus: r.payout_status,
  txid: r.txid,
  paidTo: r.paid_to,
  failure: r.failure,
});

const PROGRAM_SORTS = Object.keys(PROGRAM_SORT_COLUMNS) as (keyof typeof PROGRAM_SORT_COLUMNS)[];

const ACTION_COMMANDS = {
  submit: 'SubmitProgram',
  approve: 'ApproveProgram',
  reject: 'RejectProgram',
  lock: 'LockProgram',
  unlock: 'UnlockProgram',
  cancel: 'CancelProgram',
  retry: 'RetryPayout',
} as const;

/** Auto-pay programs for staff, in ra-data-simple-rest's shape; every write needs its `admin:autopay:*` feature. */
export const autopayRoutes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const writes = limit({ perIp: 120, perAccount: 60 });

  const findProgram = async (id: string) => {
    const row = await findProgramRow(ctx.pool, id);
    if (!row) throw new DomainError(AutoPayErrors.notFound);
    return programView(row);
  };
  const exists = async (id: string) => {
    const { state } = await loadState(ctx.commands, autopayDecider, autopayStreamName(id));
    if (state.status === 'none') throw new DomainError(AutoPayErrors.notFound);
    return state;
  };
  const run = async (request: FastifyRequest, staffId: string, programId: string, command: Parameters<typeof runAutoPayCommand>[2]) => {
    const meta = requestMeta(request);
    const result = await runAutoPayCommand(ctx, programId, command, { actorId: staffId, actorKind: 'staff', ...meta });
    if (result.position) await ctx.caughtUp(result.position);
    return result;
  };
  const staff = (request: FastifyRequest, feature?: Feature) => requireStaff(ctx, request, feature);
  const checkName = async (name: string | undefined, description: string | undefined, except: string | null) => {
    const fields: Record<string, string> = {};
    const n = name?.trim() ?? '';
    if (!n) fields.name = 'validation.required';
    else if (n.length > 255) fields.name = 'validation.tooLong';
    if (!description?.trim()) fields.description = 'validation.required';
    if (Object.keys(fields).length) throw new DomainError(CommonErrors.validation, { fields });
    if (await programNameTaken(ctx.pool, n, except)) throw new DomainError(AutoPayErrors.duplicateName);
    return { name: n, description: description!.trim() };
  };
  /**
   * A program name is reserved in the event store before the program records it, so two creates or
   * renames at the same instant cannot both pass: the reservation stream (named by a keyed hash of
   * the name) takes one append at its revision. A reservation whose holder never recorded the name,
   * or has since moved to another name, is taken over once past its grace.
   */
  const nameStream = (name: string) => programNameStreamName(ctx.secrets.mac(`autopay-name:${programNameKey(name)}`));
  const nameCommand = (
    stream: string,
    type: 'ReserveProgramName' | 'ReleaseProgramName',
    data: { programId: string; abandonedHolderId?: string },
    actor: CommandContext,
  ) => handleCommand(ctx.commands, programNameDecider, stream, { type, data, metadata: { now: ctx.now() } }, { ...actor, idempotencyKey: undefined });
  const reserveName = async (programId: string, name: string, actor: CommandContext) => {
    const stream = nameStream(name);
    const { state } = await loadState(ctx.commands, programNameDecider, stream);
    let abandonedHolderId: string | undefined;
    if (state.holder && state.holder !== programId) {
      const holder = (await loadState(ctx.commands, autopayDecider, autopayStreamName(state.holder))).state;
      if (holder.status === 'none' || programNameKey(holder.name) !== programNameKey(name)) abandonedHolderId = state.holder;
    }
    await nameCommand(stream, 'ReserveProgramName', { programId, ...(abandonedHolderId ? { abandonedHolderId } : {}) }, actor);
  };
  const releaseName = (programId: string, name: string, actor: CommandContext) =>
    nameCommand(nameStream(name), 'ReleaseProgramName', { programId }, actor).catch((err: unknown) =>
      ctx.log.warn({ err, programId }, 'could not release a program name'),
    );
  const staffActor = (request: FastifyRequest, staffId: string): CommandContext => ({ actorId: staffId, actorKind: 'staff', ...requestMeta(request) });

  const payeeFrom = (body: z.infer<typeof PayeeBody>, payeeId: string): PayeeFields => {
    const input = { ...body, amount: body.amount === undefined || body.amount === null ? null : String(body.amount) } as Partial<
      Record<PayeeColumn, string | null>
    >;
    const { payee, errors } = payeeFromInput(input, 1, payeeId);
    if (!payee) throw new DomainError(CommonErrors.validation, { fields: Object.fromEntries(errors.map((e) => [e.field, e.message])) });
    return payee;
  };

  app.get(BASE, { schema: { tags, summary: 'Programs (range, sort, filter q), with Content-Range', querystring: ListQuerySchema } }, async (request, reply) => {
    await staff(request);
    const q = parseListQuery(request.query, { sortField: 'createdAt', sortDir: 'desc', perPage: 10 }, PROGRAM_SORTS);
    const status = typeof q.filter.status === 'string' ? q.filter.status : null;
    const { rows, total: n } = await listPrograms(ctx.pool, {
      search: q.search,
      status,
      sortField: q.sortField as keyof typeof PROGRAM_SORT_COLUMNS,
      sortDir: q.sortDir,
      limit: q.limit,
      offset: q.offset,
    });
    return reply
      .header('content-range', contentRange('programs', q.offset, rows.length, n))
      .header('access-control-expose-headers', 'Content-Range')
      .send(rows.map(programView));
  });

  app.post(
    BASE,
    { schema: { tags, summary: 'Create a program (name 1 to 255 characters and unique, description required)', body: ProgramBody }, config: writes },
    async (request, reply) => {
      const { user } = await staff(request, 'admin:autopay:edit');
      const { name, description } = await checkName(request.body.name, request.body.description, null);
      const programId = randomUUID();
      await reserveName(programId, name, staffActor(request, user.id));
      try {
        await run(request, user.id, programId, { type: 'CreateProgram', data: { programId, name, description, by: user.id } });
      } catch (error) {
        await releaseName(programId, name, staffActor(request, user.id));
        throw error;
      }
      return reply.status(201).send(await findProgram(programId));
    },
  );

  app.get(`${BASE}:id`, { schema: { tags, summary: 'One program', params: Params } }, async (request) => {
    await staff(request);
    return findProgram(request.params.id);
  });

  app.put(`${BASE}:id`, { schema: { tags, summary: 'Edit name and description', params: Params, body: ProgramBody }, config: writes }, async (request) => {
    const { user } = await staff(request, 'admin:autopay:edit');
    const before = await exists(request.params.id);
    const data = await checkName(request.body.name, request.body.description, request.params.id);
    const actor = staffActor(request, user.id);
    const renamed = programNameKey(before.name) !== programNameKey(data.name);
    if (renamed) await reserveName(request.params.id, data.name, actor);
    try {
      await run(request, user.id, request.params.id, { type: 'EditProgram', data: { ...data, by: user.id } });
    } catch (error) {
      if (renamed) await releaseName(request.params.id, data.name, actor);
      throw error;
    }
    // the old name is free again once the program carries the new one
    if (renamed) await releaseName(request.params.id, before.name, actor);
    return findProgram(request.params.id);
  });

  app.get(
    `${BASE}:id/payees/`,
    { schema: { tags, summary: 'Payees with their payout status (range), with Content-Range', params: Params, querystring: ListQuerySchema } },
    async (request, reply) => {
      await staff(request);
      const q = parseListQuery(request.query, { sortField: 'position', sortDir: 'asc', perPage: 25 }, ['position']);
      const { rows, total } = await listPayees(ctx.pool, request.params.id, q);
      return reply
        .header('content-range', contentRange('payees', q.offset, rows.length, total))
        .header('access-control-expose-headers', 'Content-Range')
        .send(rows.map((r) => payeeView(request.params.id, r)));
    },
  );

  app.post(`${BASE}:id/payees/`, { schema: { tags, summary: 'Add a payee', params: Params, body: PayeeBody }, config: writes }, async (request, reply) => {
    const { user } = await staff(request, 'admin:autopay:edit');
    await exists(request.params.id);
    const payee = payeeFrom(request.body, randomUUID());
    await run(request, user.id, request.params.id, { type: 'AddPayee', data: { payee, by: user.id } });
    const row = await findPayee(ctx.pool, request.params.id, payee.payeeId);
    return reply.status(201).send(payeeView(request.params.id, row!));
  });

  app.put(
    `${BASE}:id/payees/:payeeId`,
    { schema: { tags, summary: 'Change a payee', params: PayeeParams, body: PayeeBody }, config: writes },
    async (request) => {
      const { user } = await staff(request, 'admin:autopay:edit');
      await exists(request.params.id);
      const payee = payeeFrom(request.body, request.params.payeeId);
      await run(request, user.id, request.params.id, { type: 'ChangePayee', data: { payee, by: user.id } });
      const row = await findPayee(ctx.pool, request.params.id, payee.payeeId);
      return payeeView(request.params.id, row!);
    },
  );

  app.delete(`${BASE}:id/payees/:payeeId`, { schema: { tags, summary: 'Remove a payee', params: PayeeParams }, config: writes }, async (request) => {
    const { user } = await staff(request, 'admin:autopay:edit');
    await exists(request.params.id);
    await run(request, user.id, request.params.id, { type: 'RemovePayee', data: { payeeId: request.params.payeeId, by: user.id } });
    return { id: request.params.payeeId };
  });

  app.post(
    `${BASE}:id/import`,
    {
      bodyLimit: CSV_LIMIT + 64 * 1024,
      schema: {
        tags,
        summary:
          'Import payees from CSV text (columns: email, amount, address, payerName, payeeName, transactionType, accountNotes); every error names its row and field; nothing is imported when any row is wrong',
        params: Params,
        body: z.object({ csv: z.string().max(CSV_LIMIT).optional(), replace: z.boolean().optional() }),
        response: {
          200: z.object({ imported: z.number(), errors: z.array(z.object({ row: z.number(), field: z.string(), message: z.string() })) }),
          400: ErrorSchema,
          404: ErrorSchema,
        },
      },
      config: writes,
    },
    async (request) => {
      const { user } = await staff(request, 'admin:autopay:edit');
      // the file is checked after the staff member's feature, so a refusal never depends on the body
      if (request.body.csv === undefined) throw new DomainError(CommonErrors.validation, { fields: { csv: 'autopay.csvRequired' } });
      await exists(request.params.id);
      const { payees, errors } = parsePayeesCsv(request.body.csv);
      if (errors.length) throw new DomainError(AutoPayErrors.csvInvalid, { errors });
      // nothing imported: the console asks for confirmation before it goes on with no payees
      if (payees.length === 0) return { imported: 0, errors: [] };
      await run(request, user.id, request.params.id, { type: 'ImportPayees', data: { payees, replace: request.body.replace ?? true, by: user.id } });
      return { imported: payees.length, errors: [] };
    },
  );

  app.get(`${BASE}:id/export`, { schema: { tags, summary: "Payees as CSV, with each payee's payout status", params: Params } }, async (request, reply) => {
    await staff(request);
    const program = await findProgram(request.params.id);
    const rows = await payeesOfProgram(ctx.pool, request.params.id);
    const csv = stringify(
      rows.map((r) => payeeView(program.id, r)),
      {
        header: true,
        columns: [...PAYEE_COLUMNS, 'payoutStatus', 'txid', 'paidTo', 'failure'].map((key) => ({ key })),
        cast: { string: (v) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v) },
      },
    );
    const filename = `auto-pay-${program.id}.csv`;
    return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).send(csv);
  });

  for (const [action, type] of Object.entries(ACTION_COMMANDS) as [keyof typeof ACTION_COMMANDS, (typeof ACTION_COMMANDS)[keyof typeof ACTION_COMMANDS]][]) {
    app.post(
      `${BASE}:id/${action}`,
      { schema: { tags, summary: `${action[0]!.toUpperCase()}${action.slice(1)} the program`, params: Params }, config: writes },
      async (request) => {
        const { user } = await staff(request, `admin:autopay:${action}` as Feature);
        await exists(request.params.id);
        await run(request, user.id, request.params.id, { type, data: { by: user.id } });
        return findProgram(request.params.id);
      },
    );
  }

  app.get(
    '/api/admin/axel-accounts/dashboard/',
    { schema: { tags: ['wallet'], summary: 'Staff: AXEL accounts, programs by status and payouts' } },
    async (request) => {
      await staff(request);
      const [accounts, programsByStatus, accountsByMonth, paid] = await Promise.all([
        countWalletAddresses(ctx.pool),
        programCountsByStatus(ctx.pool),
        walletAddressesByMonth(ctx.pool),
        paidPayees(ctx.pool),
      ]);
      return { accounts, paidPayees: paid.count, paidTokens: formatAxel(paid.total), programsByStatus, accountsByMonth };
    },
  );
};

/** CSV through csv-parse: a header row naming the columns, then one payee a row. */
export const parsePayeesCsv = (csv: string): { payees: PayeeFields[]; errors: RowError[] } => {
  let records: string[][];
  try {
    records = parse(csv.replace(/^\uFEFF/, ''), { skip_empty_lines: true, relax_column_count: true, trim: true }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 0;
    return { payees: [], errors: [{ row: Math.max(0, line - 1), field: 'file', message: 'autopay.csvMalformed' }] };
  }
  if (records.length === 0) return { payees: [], errors: [] };
  const header = records[0]!.map(columnOf);
  const errors: RowError[] = [];
  for (const required of ['email', 'amount'] as const)
    if (!header.includes(required)) errors.push({ row: 0, field: required, message: 'autopay.columnMissing' });
  if (errors.length) return { payees: [], errors };
  const payees: PayeeFields[] = [];
  records.slice(1).forEach((cells, index) => {
    const input: Partial<Record<PayeeColumn, string>> = {};
    header.forEach((column, i) => {
      if (column) input[column] = cells[i] ?? '';
    });
    const { payee, errors: rowErrors } = payeeFromInput(input, index + 1, randomUUID());
    if (payee) payees.push(payee);
    errors.push(...rowErrors);
  });
  return { payees: errors.length ? [] : payees, errors };
};
