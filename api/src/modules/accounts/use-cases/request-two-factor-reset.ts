import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { verifyPassword } from '../passwords';
import { appLink, linkToken, mailUser } from './account-mail';
import { commandContext, hasAccountState, runUser, userCommand, userIdByEmail, userState } from './account-store';

/** Mails a link that turns two-factor off, when the address's account has it on and the password is right; otherwise nothing. */
export const requestTwoFactorReset = async (ctx: AppContext, email: string, password: string, meta: RequestMeta): Promise<void> => {
  const userId = await userIdByEmail(ctx, email);
  // runs after the answer (see `later`): no time needs spending to hide a missing account
  if (!userId) return;
  const state = await userState(ctx, userId);
  if (!hasAccountState(state) || state.status === 'deleted' || !state.twoFactor.enabled) return;
  const passwordValid = await verifyPassword(state.passwordHash, password);
  if (!passwordValid) return;
  const cc = commandContext(meta, { id: userId, kind: 'anonymous' });
  const { token, tokenHash } = linkToken(userId);
  await runUser(ctx, userId, userCommand(ctx, 'RequestTwoFactorReset', { tokenHash, passwordValid }), cc);
  await mailUser(ctx, state.email, 'two-factor-reset', state.locale, { link: appLink(ctx, `/reset2fa/?token=${encodeURIComponent(token)}`) }, userId, cc);
};
