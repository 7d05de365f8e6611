import { autopayDecider, autopayStreamName, DomainError, payeesOf, type AutoPayCommand } from '@axel/domain';
import { handleCommand, loadState, type CommandContext } from '@axel/platform';
import type { AppContext } from '../../context';
import { failpoint } from '../../failpoints';
import { walletOf } from './wallet.instance';

export const runAutoPayCommand = (ctx: AppContext, programId: string, command: Omit<AutoPayCommand, 'metadata'>, actor: CommandContext & { now?: Date }) =>
  handleCommand(ctx.commands, autopayDecider, autopayStreamName(programId), { ...command, metadata: { now: actor.now ?? ctx.now() } } as AutoPayCommand, actor);

/** A payee named by e-mail is paid on their primary address, created for them when they have none. */
const addressFor = async (ctx: AppContext, email: string, actor: CommandContext) => {
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
export const payOut = async (ctx: AppContext, programId: string, submission: number, actor: CommandContext & { now?: Date }) => {
  let position = (await runAutoPayCommand(ctx, programId, { type: 'StartPayout', data: { submission } }, { ...actor, idempotencyKey: undefined })).position;
  const { state } = await loadState(ctx.commands, autopayDecider, autopayStreamName(programId));
  if (state.status !== 'paying' || state.submission !== submission) return { position };
  const wallet = await walletOf(ctx);
  const treasury = await wallet.treasury();
  for (const payee of payeesOf(state)) {
    if (payee.payout !== 'pending') continue;
    let outcome: Omit<AutoPayCommand, 'metadata'>;
    try {
      const target = payee.address ? { address: payee.address, created: false } : await addressFor(ctx, payee.email, actor);
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

/** The `autopay` aggregate of process commands: the payout, reminders and expiry. */
export const autopayProcessCommand = async (ctx: AppContext, command: { aggregateId: string; type: string; data: unknown }, actor: CommandContext & { now: Date }) => {
  if (command.type === 'PayOut') return payOut(ctx, command.aggregateId, (command.data as { submission: number }).submission, actor);
  const result = await runAutoPayCommand(ctx, command.aggregateId, { type: command.type, data: command.data } as Omit<AutoPayCommand, 'metadata'>, actor);
  return { position: result.position };
};
