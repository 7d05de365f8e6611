import { shareDecider, shareStreamName, type ShareCommand, type ShareRecord } from '@axel/domain';
import { handleCommand } from '@axel/platform';
import type { DispatchContext, ProcessCommand } from '@axel/workflows';
import type { AppContext } from '../../context';
import { findUser } from '@axel/projections/users/users.queries';

/**
 * Commands the share-expiry process sends to a share. A reminder the share still holds is
 * recorded (`ShareExpiryReminded`, which the notifications list shows) and mailed to the owner in
 * their language; the process's idempotency key makes a redelivery record and mail nothing new.
 */
export const shareProcessCommand = async (ctx: AppContext, command: ProcessCommand, dctx: DispatchContext): Promise<{ position: number }> => {
  const result = await handleCommand(
    ctx.commands,
    shareDecider,
    shareStreamName(command.aggregateId),
    { type: command.type, data: command.data, metadata: { now: dctx.now } } as ShareCommand,
    dctx,
  );
  let position = result.position;
  for (const event of result.events) {
    if (event.type !== 'ShareExpiryReminded') continue;
    const share = result.state as ShareRecord;
    const owner = await findUser(ctx.pool, event.data.ownerId);
    // an owner already forgotten has no address left to write to
    if (!owner?.email) continue;
    const mail = await ctx.mailer.request(
      {
        to: owner.email,
        template: 'share-expiring',
        locale: owner.locale,
        params: {
          title: share.title,
          days: event.data.daysLeft,
          date: event.data.expiresAt.slice(0, 10),
          link: `${ctx.config.publicUrl}/files/shares/${share.id}`,
        },
        userId: owner.id,
      },
      dctx,
    );
    position = Math.max(position, mail.position);
  }
  return { position };
};
