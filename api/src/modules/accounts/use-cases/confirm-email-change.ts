import { AccountErrors, DomainError } from '@axel/domain';
import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { parseLinkToken, securityMail } from './account-mail';
import { commandContext, hasAccountState, releaseEmail, reserveEmail, runUser, userCommand, userState } from './account-store';

/** Confirms a new sign-in address with the link mailed to it: the new address is reserved, the old one released and told. */
export const confirmEmailChange = async (ctx: AppContext, token: string, meta: RequestMeta): Promise<{ email: string; position: number }> => {
  const { userId, tokenHash } = parseLinkToken(token);
  const state = await userState(ctx, userId);
  if (!hasAccountState(state) || !state.emailChange || state.emailChange.tokenHash !== tokenHash) {
    throw new DomainError(AccountErrors.linkInvalid);
  }
  const cc = commandContext(meta, { id: userId, kind: 'user' });
  const newEmail = state.emailChange.newEmail;
  const oldEmail = state.email;
  await reserveEmail(ctx, newEmail, userId, cc);
  try {
    const result = await runUser(ctx, userId, userCommand(ctx, 'ConfirmEmailChange', { tokenHash }), cc);
    await releaseEmail(ctx, oldEmail, userId, cc);
    await securityMail(ctx, result, 'EmailChanged', 'email-changed', userId, cc, { to: oldEmail, params: { email: newEmail } });
    return { email: newEmail, position: result.position };
  } catch (error) {
    await releaseEmail(ctx, newEmail, userId, cc).catch(() => undefined);
    throw error;
  }
};
