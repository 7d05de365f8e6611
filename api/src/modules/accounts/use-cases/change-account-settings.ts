import type { Locale, SessionTimeout } from '@axel/domain';
import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { commandContext, hasAccountState, releaseUsername, reserveUsername, runUser, userCommand, userState } from './account-store';

/** Username, session timeout and language; a new username is reserved first and the old one released after. */
export const changeAccountSettings = async (
  ctx: AppContext,
  userId: string,
  input: { username?: string; sessionTimeout?: SessionTimeout; locale?: Locale },
  meta: RequestMeta,
) => {
  const cc = commandContext(meta, { id: userId, kind: 'user' });
  const state = await userState(ctx, userId);
  const previous = hasAccountState(state) ? state.username : null;
  const changesUsername = input.username !== undefined && input.username !== previous;
  if (changesUsername) await reserveUsername(ctx, input.username!, userId, cc);
  const result = await runUser(ctx, userId, userCommand(ctx, 'ChangeAccountSettings', input), cc);
  if (changesUsername && previous) await releaseUsername(ctx, previous, userId, cc);
  return result;
};
