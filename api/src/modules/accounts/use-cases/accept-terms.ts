import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { commandContext, runUser, userCommand } from './account-store';

/** Records that the user accepted the terms. */
export const acceptTerms = (ctx: AppContext, userId: string, meta: RequestMeta) =>
  runUser(ctx, userId, userCommand(ctx, 'AcceptTerms', {}), commandContext(meta, { id: userId, kind: 'user' }));
