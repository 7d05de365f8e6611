import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { commandContext, runUser, userCommand } from './account-store';

/** Records the account's new avatar image (already stored under `avatarId`). */
export const setAvatar = (ctx: AppContext, userId: string, avatar: { avatarId: string; mime: string; size: number }, meta: RequestMeta) =>
  runUser(ctx, userId, userCommand(ctx, 'SetAvatar', avatar), commandContext(meta, { id: userId, kind: 'user' }));
