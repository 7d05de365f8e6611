import { bookmarksDecider, bookmarksStreamName, type BookmarkCommand } from '@axel/domain';
import { handleCommand, type CommandContext } from '@axel/platform';
import type { AppContext } from '../../context';

/**
 * A purged account's bookmarks and lists are forgotten: the stream's key is destroyed, so the
 * descriptions and list names read as erased in the log, and the read model drops the rows.
 * Repeating it does nothing more.
 */
export const forgetBookmarks = async (ctx: AppContext, userId: string, actor: CommandContext & { now: Date }) => {
  if ((await ctx.store.readStream(bookmarksStreamName(userId))).revision < 0) return;
  await handleCommand(
    ctx.commands,
    bookmarksDecider,
    bookmarksStreamName(userId),
    { type: 'ForgetBookmarks', data: {}, metadata: { now: actor.now } } as BookmarkCommand,
    actor,
  );
};
