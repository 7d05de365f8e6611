import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { appLink, linkToken, mailUser } from './account-mail';
import { commandContext, hasAccountState, runUser, userCommand, userIdByEmail, userState } from './account-store';

/** Mails a new confirmation link to an address whose account is not confirmed yet; any other address gets nothing. */
export const resendConfirmation = async (ctx: AppContext, email: string, meta: RequestMeta): Promise<void> => {
  const userId = await userIdByEmail(ctx, email);
  if (!userId) return;
  const state = await userState(ctx, userId);
  if (!hasAccountState(state) || state.status === 'deleted' || state.emailVerified) return;
  const cc = commandContext(meta, { id: userId, kind: 'anonymous' });
  const { token, tokenHash } = linkToken(userId);
  await runUser(ctx, userId, userCommand(ctx, 'ResendConfirmation', { tokenHash }), cc);
  await mailUser(ctx, state.email, 'email-confirmation', state.locale, { link: appLink(ctx, `/email-confirmation/${token}`) }, userId, cc);
};
