import { autopayDecider, autopayStreamName, DomainError, payeesOf, type AutoPayCommand, type AutoPayEvent } from '@axel/domain';
import { handleCommand, loadState, type CommandContext } from '@axel/platform';
import type { AppContext } from '../../context';
import { failpoint } from '../../failpoints';
import { FEATURES_BY_ROLE } from '../../http/auth';
import { findUser } from '@axel/projections/users/users.queries';
import type { WalletOf } from './wallet.service';

export const runAutoPayCommand = (ctx: AppContext, programId: string, command: Omit<AutoPayCommand, 'metadata'>, actor: CommandContext & { now?: Date }) =>
  handleCommand(ctx.commands, autopayDecider, autopayStreamName(programId), { ...command, metadata: { now: actor.now ?? ctx.now() } } as AutoPayCommand, actor);

/** A payee named by e-mail is paid on their primary address, created for them when they have none. */
const addressFor = async (ctx: AppContext, walletOf: WalletOf, email: string, actor: CommandContext) => {
  const { rows } = await ctx.pool.query<{ id: string }>('select id from users where lower(email) = $1 and deleted_at is null limit 1', [email.toLowerCase()]);
  const user = rows[0];
  if (!user) return null;
  const { addresses, created } = await (await walletOf(ctx)).createAddresses(user.id, actor);
  return { address: addresses.primary, created };
};

/**
 * Pays a program's pending payees from the treasury. Each payee's chain send carries the key
 * `autopay:<program>:<payee>`, so a payout run again after a crash, or twice at once, pays nobody
 * twice: the chain answers the same transaction for the same key, and the program records a payee
 * paid once. A failure is recorded per payee; retry pays only those.
 */
export const payOut = async (ctx: AppContext, walletOf: WalletOf, programId: string, submission: number, actor: CommandContext & { now?: Date }) => {
  let position = (await runAutoPayCommand(ctx, programId, { type: 'StartPayout', data: { submission } }, { ...actor, idempotencyKey: undefined })).position;
  const { state } = await loadState(ctx.commands, autopayDecider, autopayStreamName(programId));
  if (state.status !== 'paying' || state.submission !== submission) return { position };
  const wallet = await walletOf(ctx);
  const treasury = await wallet.treasury();
  for (const payee of payeesOf(state)) {
    if (payee.payout !== 'pending') continue;
    let outcome: Omit<AutoPayCommand, 'metadata'>;
    try {
      const target = payee.address ? { address: payee.address, created: false } : await addressFor(ctx, walletOf, payee.email, actor);
      if (!target) {
        outcome = { type: 'RecordPayeeFailed', data: { payeeId: payee.payeeId, failure: 'AUTOPAY_UNKNOWN_PAYEE' } };
      } else {
        const { txid } = await wallet.chain.send({
          from: treasury,
          to: target.address,
          amount: payee.amount,
          idempotencyKey: `autopay:${programId}:${payee.payeeId}`,
          requireSettled: false,
          actor: { id: actor.actorId, kind: 'process' },
        });
        // the dangerous moment: paid on the chain, not yet recorded on the program
        failpoint('autopay:after-send');
        outcome = { type: 'RecordPayeePaid', data: { payeeId: payee.payeeId, txid, address: target.address, createdAddress: target.created } };
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      outcome = { type: 'RecordPayeeFailed', data: { payeeId: payee.payeeId, failure: String(error.code) } };
    }
    position = (await runAutoPayCommand(ctx, programId, outcome, { ...actor, idempotencyKey: undefined })).position || position;
  }
  const finished = await runAutoPayCommand(ctx, programId, { type: 'FinishPayout', data: { submission } }, { ...actor, idempotencyKey: undefined });
  return { position: finished.position || position };
};

/** Roles whose staff may approve a program (the `admin:autopay:approve` feature). */
const APPROVER_ROLES = Object.entries(FEATURES_BY_ROLE)
  .filter(([, features]) => features.includes('admin:autopay:approve'))
  .map(([role]) => role);

/**
 * A reminder the program recorded is mailed to every active staff member who may approve it,
 * except the one who submitted it (four eyes), each in their language. The mail's key is the
 * process command's key and the recipient, so a redelivered reminder mails nobody twice.
 */
const mailReminder = async (ctx: AppContext, programId: string, name: string, submittedBy: string | null, expiresAt: string | null, actor: CommandContext) => {
  const { rows } = await ctx.pool.query<{ id: string; email: string; locale: string }>(
    `select id, email, locale from users where role = any($1) and status = 'active' and email is not null and id <> coalesce($2, '') order by id`,
    [APPROVER_ROLES, submittedBy],
  );
  const submitter = submittedBy ? await findUser(ctx.pool, submittedBy) : undefined;
  let position = 0;
  for (const approver of rows) {
    const mail = await ctx.mailer.request(
      {
        to: approver.email,
        template: 'autopay-approval-reminder',
        locale: approver.locale,
        params: {
          title: name,
          ...(submitter?.email ? { email: submitter.email } : {}),
          ...(expiresAt ? { date: expiresAt.slice(0, 10) } : {}),
          link: `${ctx.config.publicUrl}/admin/auto-pay/${encodeURIComponent(programId)}/show`,
        },
        userId: approver.id,
      },
      { ...actor, idempotencyKey: actor.idempotencyKey ? `${actor.idempotencyKey}:mail:${approver.id}` : undefined },
    );
    position = Math.max(position, mail.position);
  }
  return position;
};

/** The `autopay` aggregate of process commands: the payout, reminders and expiry. */
export const autopayProcessCommand = async (
  ctx: AppContext,
  walletOf: WalletOf,
  command: { aggregateId: string; type: string; data: unknown },
  actor: CommandContext & { now: Date },
) => {
  if (command.type === 'PayOut') return payOut(ctx, walletOf, command.aggregateId, (command.data as { submission: number }).submission, actor);
  const result = await runAutoPayCommand(ctx, command.aggregateId, { type: command.type, data: command.data } as Omit<AutoPayCommand, 'metadata'>, actor);
  let position = result.position;
  if (command.type === 'RemindApprovers' && (result.events as AutoPayEvent[]).some((e) => e.type === 'AutoPayApprovalReminded')) {
    const expiresAt = (command.data as { expiresAt?: unknown }).expiresAt;
    const state = result.state;
    position = Math.max(
      position,
      await mailReminder(ctx, command.aggregateId, state.name, state.submittedBy, typeof expiresAt === 'string' ? expiresAt : null, actor),
    );
  }
  return { position };
};
