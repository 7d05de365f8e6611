import { shareAccessDecider, shareAccessStreamName, type ShareAccessCommand, type ShareAccessEvent } from '@axel/domain';
import type { CommandContext } from '@axel/platform';
import { cachedStreamCommands } from '../../cached-stream';
import type { AppContext } from '../../context';

/*
 * The command path of a share's access stream, with its folded state kept between commands: a busy
 * link's stream grows with every open, and folding it whole per open would cost more with every
 * visitor (see cached-stream.ts).
 */
const runCommand = cachedStreamCommands(shareAccessDecider);

/** Records an open or a download of a share (nothing when the access was refused). */
export const runShareAccessCommand = async (
  ctx: AppContext,
  shareId: string,
  command: Omit<ShareAccessCommand, 'metadata'>,
  actor: CommandContext,
): Promise<{ events: ShareAccessEvent[]; position: number }> => {
  const { events, position } = await runCommand(ctx, shareAccessStreamName(shareId), command, actor, (full, state) =>
    shareAccessDecider.decide(full as ShareAccessCommand, state),
  );
  return { events, position };
};
