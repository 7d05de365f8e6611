import { checkMailedLink, type MailedLink } from '@axel/domain';
import type { AppContext } from '../../../context';
import { parseLinkToken, rethrowMissingAsInvalid } from './account-mail';
import { userState } from './account-store';

/** Whether a mailed link can still be used, answered with the error its own call would give. */
export const checkLink = async (ctx: AppContext, link: MailedLink, token: string): Promise<void> => {
  const { userId, tokenHash } = parseLinkToken(token);
  const state = await userState(ctx, userId);
  try {
    checkMailedLink(state, link, tokenHash, ctx.now());
  } catch (error) {
    rethrowMissingAsInvalid(error);
  }
};
