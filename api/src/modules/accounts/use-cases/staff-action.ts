import type { UserCommand } from '@axel/domain';
import type { AppContext } from '../../../context';
import type { RequestMeta } from '../../../http/request-meta';
import { commandContext, runUser } from './account-store';

/** A staff member's command on a user's account (suspend, block, change role...), with the staff member as actor. */
export const staffAction = (ctx: AppContext, staffId: string, userId: string, command: UserCommand, meta: RequestMeta) =>
  runUser(ctx, userId, command, commandContext(meta, { id: staffId, kind: 'staff' }));
