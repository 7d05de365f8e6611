import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { securityMail } from './account-mail';
import { accountState, commandContext, runUser, userCommand } from './account-store';
import { checkTwoFactorCode, wrongCodeIsBadRequest } from './two-factor-code';

/** Turns two-factor off with a code of the method it uses. */
export const disableTwoFactor = async (ctx: AppContext, userId: string, code: string, meta: RequestMeta) => {
  const state = await accountState(ctx, userId);
  const check = await checkTwoFactorCode(ctx, state, state.twoFactor.method ?? 'email', 'disable', code);
  const cc = commandContext(meta, { id: userId, kind: 'user' });
  const result = await runUser(ctx, userId, userCommand(ctx, 'DisableTwoFactor', check), cc).catch(wrongCodeIsBadRequest);
  await securityMail(ctx, result, 'TwoFactorDisabled', 'two-factor-disabled', userId, cc);
  return result;
};
