import type { Profile } from '@axel/domain';
import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { commandContext, runUser, userCommand } from './account-store';

/** Changes the given profile fields. */
export const updateProfile = (ctx: AppContext, userId: string, profile: Partial<Profile>, meta: RequestMeta) =>
  runUser(ctx, userId, userCommand(ctx, 'UpdateProfile', profile), commandContext(meta, { id: userId, kind: 'user' }));
