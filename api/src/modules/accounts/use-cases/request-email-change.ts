import { AccountErrors, DomainError, normalizeEmail } from '@axel/domain';
import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { verifyPassword } from '../passwords';
import { appLink, linkToken, mailUser } from './account-mail';
import { accountState, commandContext, runUser, userCommand, userIdByEmail, usesAddress } from './account-store';

/** Asks to change the sign-in address, given the password; the confirmation link goes to the new address. */
export const requestEmailChange = async (ctx: AppContext, userId: string, input: { newEmail: string; password: string }, meta: RequestMeta) => {
  const state = await accountState(ctx, userId);
  const passwordValid = await verifyPassword(state.passwordHash, input.password);
  const owner = await userIdByEmail(ctx, input.newEmail);
  // an address left reserved by a crashed sign-up is not taken: confirming the change takes it over
  if (passwordValid && owner && owner !== userId && (await usesAddress(ctx, owner, input.newEmail))) throw new DomainError(AccountErrors.emailExists);
  const cc = commandContext(meta, { id: userId, kind: 'user' });
  const { token, tokenHash } = linkToken(userId);
  const result = await runUser(ctx, userId, userCommand(ctx, 'RequestEmailChange', { newEmail: normalizeEmail(input.newEmail), passwordValid, tokenHash }), cc);
  await mailUser(
    ctx,
    input.newEmail,
    'email-change',
    state.locale,
    { link: appLink(ctx, `/change-email-confirmations/${token}`), email: input.newEmail },
    userId,
    cc,
  );
  return result;
};
