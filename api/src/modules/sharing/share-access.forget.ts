import { shareAccessDecider, shareAccessStreamName, type ShareAccessCommand } from '@axel/domain';
import { handleCommand, type CommandContext } from '@axel/platform';
import type { AppContext } from '../../context';

/**
 * A purged owner's shares forget who opened them: each share's access stream gets
 * `ShareAccessForgotten`, which destroys the keys of the recipients' e-mails in it and of its
 * anonymous visitors' addresses and user agents. The shares are found wherever they are still
 * named (every counted share, the shares read model, the access read model). Repeating it does
 * nothing more.
 */
export const forgetShareAccessOf = async (ctx: AppContext, userId: string, actor: CommandContext & { now: Date }): Promise<void> => {
  const { rows } = await ctx.pool.query<{ share_id: string }>(
    `select share_id from share_counts where user_id = $1
     union select id from shares where owner_id = $1
     union select share_id from share_access_summary where owner_id = $1`,
    [userId],
  );
  for (const { share_id: shareId } of rows) {
    const command = { type: 'ForgetShareAccess', data: { shareId }, metadata: { now: actor.now } } as ShareAccessCommand;
    await handleCommand(ctx.commands, shareAccessDecider, shareAccessStreamName(shareId), command, actor);
  }
};
