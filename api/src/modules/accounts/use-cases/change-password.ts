import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { hashPassword, verifyPassword } from '../passwords';
import { securityMail } from './account-mail';
import { accountState, commandContext, runUser, userCommand } from './account-store';

/** Changes the password given the current one; every other session of the account ends. */
export const changePassword = async (
  ctx: AppContext,
  userId: string,
  input: { currentPassword: string; password: string },
  meta: RequestMeta,
  sessionId: string,
) => {
  const state = await accountState(ctx, userId);
  const [currentPasswordValid, sameAsCurrent, newPasswordHash] = await Promise.all([
    verifyPassword(state.passwordHash, input.currentPassword),
    verifyPassword(state.passwordHash, input.password),
    hashPassword(input.password),
  ]);
  const cc = commandContext(meta, { id: userId, kind: 'user' });
  const result = await runUser(ctx, userId, userCommand(ctx, 'ChangePassword', { currentPasswordValid, newPasswordHash, sameAsCurrent }), cc);
  await ctx.sessions.revokeAllFor(userId, 'password-changed', sessionId);
  await securityMail(ctx, result, 'PasswordChanged', 'password-changed', userId, cc);
  return result;
};
