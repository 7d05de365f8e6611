import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { verifyPassword } from '../passwords';
import { mailUser } from './account-mail';
import { accountState, commandContext, releaseEmail, releaseUsername, runUser, userCommand } from './account-store';

/**
 * Deletes the account, by its owner (typing the confirmation, with the password) or by staff: its
 * sessions end, its address and username are free again, and the owner is told how long the data
 * is kept before the purge.
 */
export const deleteAccount = async (
  ctx: AppContext,
  userId: string,
  input: { by: 'user'; confirmation: string; password: string } | { by: 'staff'; staffId: string },
  meta: RequestMeta,
) => {
  const state = await accountState(ctx, userId);
  const cc = commandContext(meta, input.by === 'user' ? { id: userId, kind: 'user' } : { id: input.staffId, kind: 'staff' });
  const data =
    input.by === 'user'
      ? { by: 'user' as const, confirmation: input.confirmation, passwordValid: await verifyPassword(state.passwordHash, input.password) }
      : { by: 'staff' as const, staffId: input.staffId };
  const result = await runUser(ctx, userId, userCommand(ctx, 'DeleteAccount', data), cc);
  await ctx.sessions.revokeAllFor(userId, 'deleted');
  await releaseEmail(ctx, state.email, userId, cc).catch(() => undefined);
  if (state.username) await releaseUsername(ctx, state.username, userId, cc).catch(() => undefined);
  await mailUser(ctx, state.email, 'account-deleted', state.locale, { days: ctx.config.ACCOUNT_RETENTION_DAYS }, userId, cc);
  return result;
};
