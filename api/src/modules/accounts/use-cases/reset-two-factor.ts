import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { parseLinkToken, rethrowMissingAsInvalid, securityMail } from './account-mail';
import { commandContext, runUser, userCommand } from './account-store';

/** Turns two-factor off with the mailed link. */
export const resetTwoFactor = async (ctx: AppContext, token: string, meta: RequestMeta): Promise<void> => {
  const { userId, tokenHash } = parseLinkToken(token);
  const cc = commandContext(meta, { id: userId, kind: 'anonymous' });
  const result = await runUser(ctx, userId, userCommand(ctx, 'ResetTwoFactor', { tokenHash }), cc).catch(rethrowMissingAsInvalid);
  await securityMail(ctx, result, 'TwoFactorDisabled', 'two-factor-disabled', userId, cc);
};
