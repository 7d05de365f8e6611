import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { accountState, commandContext, runUser, userCommand } from './account-store';
import { checkTwoFactorCode, wrongCodeIsBadRequest } from './two-factor-code';

/** Turns two-factor on with a code from the authenticator app or the mailed one. */
export const enableTwoFactor = async (ctx: AppContext, userId: string, input: { method: 'email' | 'totp'; code: string }, meta: RequestMeta) => {
  const state = await accountState(ctx, userId);
  const check = await checkTwoFactorCode(ctx, state, input.method, 'enable', input.code);
  return runUser(
    ctx,
    userId,
    userCommand(ctx, 'EnableTwoFactor', { method: input.method, ...check }),
    commandContext(meta, { id: userId, kind: 'user' }),
  ).catch(wrongCodeIsBadRequest);
};
