import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { hashPassword } from '../passwords';
import { parseLinkToken, rethrowMissingAsInvalid, securityMail } from './account-mail';
import { commandContext, runUser, userCommand } from './account-store';

/** Sets a new password with the mailed link; every session of the account ends. */
export const resetPassword = async (ctx: AppContext, token: string, password: string, meta: RequestMeta): Promise<void> => {
  const { userId, tokenHash } = parseLinkToken(token);
  const cc = commandContext(meta, { id: userId, kind: 'anonymous' });
  const passwordHash = await hashPassword(password);
  const result = await runUser(ctx, userId, userCommand(ctx, 'ResetPassword', { tokenHash, passwordHash }), cc).catch(rethrowMissingAsInvalid);
  await ctx.sessions.revokeAllFor(userId, 'password-reset');
  await securityMail(ctx, result, 'PasswordChanged', 'password-changed', userId, cc);
};
