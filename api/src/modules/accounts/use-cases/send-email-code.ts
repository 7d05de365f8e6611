import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { randomCode, sha256 } from '../../../secrets';
import { mailUser } from './account-mail';
import { accountState, commandContext, runUser, userCommand } from './account-store';

/** Mails a code that turns e-mail two-factor on (or off, when it is on). */
export const sendEmailCode = async (ctx: AppContext, userId: string, meta: RequestMeta) => {
  const state = await accountState(ctx, userId);
  const purpose = state.twoFactor.enabled ? ('disable' as const) : ('enable' as const);
  const code = randomCode();
  const cc = commandContext(meta, { id: userId, kind: 'user' });
  await runUser(ctx, userId, userCommand(ctx, 'IssueEmailCode', { codeHash: sha256(code), purpose }), cc);
  await mailUser(ctx, state.email, 'two-factor-code', state.locale, { code }, userId, cc);
};
