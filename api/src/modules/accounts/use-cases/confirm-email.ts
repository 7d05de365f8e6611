import type { UserWithAccount } from '@axel/domain';
import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { parseLinkToken, rethrowMissingAsInvalid } from './account-mail';
import { commandContext, runUser, userCommand } from './account-store';

/** Confirms the sign-up address with the mailed link. */
export const confirmEmail = async (ctx: AppContext, token: string, meta: RequestMeta): Promise<{ email: string; position: number }> => {
  const { userId, tokenHash } = parseLinkToken(token);
  const cc = commandContext(meta, { id: userId, kind: 'anonymous' });
  const result = await runUser(ctx, userId, userCommand(ctx, 'ConfirmEmail', { tokenHash }), cc).catch(rethrowMissingAsInvalid);
  return { email: (result.state as UserWithAccount).email, position: result.position };
};
