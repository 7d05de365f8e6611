import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { appLink, linkToken, mailUser } from './account-mail';
import { commandContext, hasAccountState, runUser, userCommand, userIdByEmail, userState } from './account-store';

/** Mails a password reset link to the address's account, asked by its owner or by staff (`staff`); an address without one gets nothing. */
export const requestPasswordReset = async (ctx: AppContext, email: string, meta: RequestMeta, staff?: { id: string }): Promise<void> => {
  const userId = await userIdByEmail(ctx, email);
  if (!userId) return;
  const state = await userState(ctx, userId);
  if (!hasAccountState(state) || state.status === 'deleted') return;
  const cc = commandContext(meta, staff ? { id: staff.id, kind: 'staff' } : { id: null, kind: 'anonymous' });
  const { token, tokenHash } = linkToken(userId);
  await runUser(ctx, userId, userCommand(ctx, 'RequestPasswordReset', { tokenHash }), cc);
  await mailUser(ctx, state.email, 'password-reset', state.locale, { link: appLink(ctx, `/reset-password/${token}`) }, userId, cc);
};
