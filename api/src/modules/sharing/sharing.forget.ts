import { shareDecider, shareStreamName, type ShareCommand } from '@axel/domain';
import { handleCommand, type CommandContext } from '@axel/platform';
import type { AppContext } from '../../context';
import { forgetResendMails } from './sharing.service';

/**
 * A purged account's shares are forgotten, deleted ones included: each share stream's key is
 * destroyed, so titles, messages, recipients, item names and the password hash read as erased in
 * the log, and the read model drops the rows. Every share ever created was counted first, so
 * `share_counts` names them all. Repeating it does nothing more.
 */
export const forgetShares = async (ctx: AppContext, userId: string, actor: CommandContext & { now: Date }) => {
  const { rows } = await ctx.pool.query<{ share_id: string }>(
    'select share_id from share_counts where user_id = $1 union select id from shares where owner_id = $1',
    [userId],
  );
  for (const { share_id: shareId } of rows) {
    await handleCommand(
      ctx.commands,
      shareDecider,
      shareStreamName(shareId),
      { type: 'ForgetShare', data: {}, metadata: { now: actor.now } } as ShareCommand,
      actor,
    );
  }
  await forgetResendMails(ctx, userId);
};
