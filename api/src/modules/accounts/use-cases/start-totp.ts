import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { newTotpSecret, totpEnrolment } from '../totp';
import { accountState, commandContext, runUser, userCommand } from './account-store';

/** Starts authenticator-app enrolment: a new secret, kept encrypted until a code from the app turns two-factor on. */
export const startTotp = async (ctx: AppContext, userId: string, meta: RequestMeta) => {
  const state = await accountState(ctx, userId);
  const secret = newTotpSecret();
  await runUser(
    ctx,
    userId,
    userCommand(ctx, 'StartTotpEnrolment', { secretCiphertext: ctx.secrets.encrypt(secret) }),
    commandContext(meta, { id: userId, kind: 'user' }),
  );
  return totpEnrolment(secret, state.email);
};
