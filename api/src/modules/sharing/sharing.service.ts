import { randomBytes, randomUUID } from 'node:crypto';
import {
  checkSharePassword,
  CommonErrors,
  decideResendCap,
  DomainError,
  SHARE_MAIL_WINDOW_MS,
  shareCounterDecider,
  shareCounterStreamName,
  shareDecider,
  sharePeriodOf,
  shareStreamName,
  SharingErrors,
  StorageErrors,
  type ShareChanges,
  type ShareCommand,
  type ShareEvent,
  type ShareItemCandidate,
  type ShareRecord,
  normalizeShareEmail,
} from '@axel/domain';
import { expected, handleCommand, loadState, metadataFor, newId, WrongExpectedRevisionError, type CommandContext } from '@axel/platform';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { UserRow } from '@axel/projections/users/users.queries';
import { hashPassword } from '../accounts/passwords';
import { entitlementsOf } from '../billing/billing.service';
import { ownStorage, onlineStorageId, type ItemRow } from '../files/storage.service';
import type { CreateShareBody, EditShareBody } from './sharing.schema';
import { loadShare, shareUrl } from './shares.read';

/** 128 random bits as 22 base64url characters: the public handle of a share. */
export const newLinkId = (): string => randomBytes(16).toString('base64url');

/** Creates race on the counter stream of one user-month; each retry means another create got through. */
const COUNTER_RETRIES = 100;

/**
 * The facts of the owner's storage the sharing rules need: sizes, files inside folders. Two
 * queries whatever the number of items: the items themselves, then every folder's tree at once.
 */
const itemCandidates = async (ctx: AppContext, storageId: string, itemIds: readonly string[]): Promise<ShareItemCandidate[]> => {
  const ids = [...new Set(itemIds)];
  const { rows: items } = await ctx.pool.query<ItemRow>('select * from storage_items where storage_id = $1 and id = any($2) and not in_trash', [
    storageId,
    ids,
  ]);
  const byId = new Map(items.map((i) => [i.id, i]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing) throw new DomainError(StorageErrors.itemNotFound, { itemId: missing });
  const folderIds = items.filter((i) => i.label === 'folder').map((i) => i.id);
  const { rows: trees } = folderIds.length
    ? await ctx.pool.query<{ root: string; files: number; total: string | null; largest: string | null }>(
        `with recursive tree(root, id, label, size, depth) as (
           select folder, id, label, size, 1 from storage_items where storage_id = $1 and folder = any($2) and not in_trash
           union all
           select tree.root, i.id, i.label, i.size, tree.depth + 1 from tree join storage_items i on i.storage_id = $1 and i.folder = tree.id and not i.in_trash
            where tree.label = 'folder' and tree.depth < 1000
         ) select root, count(*) filter (where label = 'file')::int as files, sum(size) filter (where label = 'file') as total,
                  max(size) filter (where label = 'file') as largest from tree group by root`,
        [storageId, folderIds],
      )
    : { rows: [] };
  const treeOf = new Map(trees.map((t) => [t.root, t]));
  return ids.map((id): ShareItemCandidate => {
    const item = byId.get(id)!;
    if (item.label === 'file') {
      const size = Number(item.size);
      return { id, kind: 'file', name: item.name, size, fileCount: 1, largestFileSize: size };
    }
    const tree = treeOf.get(id);
    return { id, kind: 'folder', name: item.name, size: Number(tree?.total ?? 0), fileCount: tree?.files ?? 0, largestFileSize: Number(tree?.largest ?? 0) };
  });
};

/** Runs an owner's command; the owner's next list already shows its outcome. */
const runShareCommand = async (ctx: AppContext, shareId: string, command: Omit<ShareCommand, 'metadata'>, actor: CommandContext) => {
  const result = await handleCommand(ctx.commands, shareDecider, shareStreamName(shareId), { ...command, metadata: { now: ctx.now() } } as ShareCommand, actor);
  if (result.position) await ctx.caughtUp(result.position);
  return result;
};

/** The private share mail to each recipient: who sends it, its title, the message and the link. */
const mailRecipients = async (ctx: AppContext, share: ShareRecord, recipients: readonly string[], sender: UserRow, actor: CommandContext) => {
  let position = 0;
  for (const to of recipients) {
    const result = await ctx.mailer.request(
      {
        to,
        template: 'share-received',
        locale: sender.locale,
        params: { link: shareUrl(ctx, share), title: share.title, message: share.message ?? undefined, email: sender.email ?? undefined },
        userId: null,
      },
      actor,
    );
    position = Math.max(position, result.position);
  }
  return position;
};

export const createShare = async (ctx: AppContext, user: UserRow, body: z.infer<typeof CreateShareBody>, actor: CommandContext) => {
  if (body.password !== undefined) checkSharePassword(body.password);
  const storage = await ownStorage(ctx, user.id, onlineStorageId(user.id), actor);
  const [items, plan] = await Promise.all([itemCandidates(ctx, storage.id, body.itemIds), entitlementsOf(ctx, user.id)]);
  const shareId = randomUUID();
  const linkId = newLinkId();
  const now = ctx.now();
  const command = (passwordHash: string | null): ShareCommand => ({
    type: 'CreateShare',
    metadata: { now },
    data: {
      shareId,
      linkId,
      ownerId: user.id,
      ownerEmail: user.email ?? '',
      storageId: storage.id,
      title: body.title,
      description: body.description ?? null,
      message: body.message ?? null,
      expiresAt: body.expiresAt ?? null,
      downloadable: body.downloadable,
      requireLogin: body.requireLogin ?? false,
      esign: body.esign ?? false,
      passwordHash,
      recipients: body.recipients,
      items,
      unlimitedFileSize: plan.permissions.includes('unlimited-shared-file-size'),
      esignAllowed: plan.features.includes('esign'),
    },
  });
  // every rule is checked (cheaply, before any password work), and the password hashed, before the
  // share is counted: a refused or overloaded create never uses up the month
  shareDecider.decide(command(body.password ? 'to-be-hashed' : null), { status: 'none' });
  const passwordHash = body.password ? await hashPassword(body.password) : null;
  await handleCommand(
    { ...ctx.commands, maxRetries: COUNTER_RETRIES },
    shareCounterDecider,
    shareCounterStreamName(user.id, sharePeriodOf(now)),
    { type: 'CountShare', data: { shareId, userId: user.id, limit: plan.secureShareMaxCountPerPeriod }, metadata: { now } },
    actor,
  );
  const created = await handleCommand(ctx.commands, shareDecider, shareStreamName(shareId), command(passwordHash), actor);
  const share = created.state as ShareRecord;
  let position = created.position;
  if (share.kind === 'private')
    position = Math.max(
      position,
      await mailRecipients(
        ctx,
        share,
        share.recipients.map((r) => r.email),
        user,
        actor,
      ),
    );
  // the link works at once, for anyone: its id is looked up in the read model
  await ctx.caughtUp(position);
  return share;
};

/**
 * An edit, optionally only if the share is still at the revision the client read (`If-Match`):
 * two tabs editing one share never silently overwrite each other (412 instead).
 */
export const editShare = async (
  ctx: AppContext,
  user: UserRow,
  shareId: string,
  body: z.infer<typeof EditShareBody>,
  actor: CommandContext,
  ifMatch?: number,
) => {
  const { password, ...rest } = body;
  if (typeof password === 'string') checkSharePassword(password);
  const changes: ShareChanges = {
    ...rest,
    ...(password === undefined ? {} : { passwordHash: password === null ? null : await hashPassword(password) }),
  };
  const command = { type: 'EditShare', data: { actorId: user.id, changes }, metadata: { now: ctx.now() } } as ShareCommand;
  if (ifMatch === undefined) {
    const result = await runShareCommand(ctx, shareId, command, actor);
    return { share: result.state as ShareRecord, revision: result.revision };
  }
  const stream = shareStreamName(shareId);
  const { state, revision } = await loadState(ctx.commands, shareDecider, stream);
  ownShareOrNotFound(state, user.id);
  if (revision !== ifMatch) throw new DomainError(CommonErrors.preconditionFailed, { revision });
  const events = shareDecider.decide(command, state);
  if (!events.length) return { share: state as ShareRecord, revision };
  const metadata = metadataFor(actor, command.metadata.now);
  try {
    const appended = await ctx.store.append(
      stream,
      events.map((e) => ({ id: newId(), ...ctx.registry.encode(e), metadata })),
      expected.revision(revision),
    );
    await ctx.caughtUp(appended.position);
    return { share: events.reduce(shareDecider.evolve, state) as ShareRecord, revision: appended.nextRevision };
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) throw new DomainError(CommonErrors.preconditionFailed);
    throw error;
  }
};

export type OwnerAction = 'RevokeShare' | 'DeleteShare' | 'ResendShare';

/**
 * Reserves the resend mails under the caps (per share and recipient, per account, in any 24 hours)
 * or refuses the resend with 429 and how long to wait. One account's resends are counted one at a
 * time (a lock per account), so parallel resends cannot both pass the last free place.
 */
const reserveResendMails = async (ctx: AppContext, userId: string, shareId: string, recipients: readonly string[]) => {
  const now = ctx.now();
  const keys = recipients.map((email) => ctx.secrets.mac(`share-resend\u0000${normalizeShareEmail(email)}`));
  const client = await ctx.pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock(hashtext($1))', [`share-resend:${userId}`]);
    await client.query('delete from share_resend_mails where user_id = $1 and sent_at <= $2', [userId, new Date(now.getTime() - SHARE_MAIL_WINDOW_MS)]);
    const { rows } = await client.query<{ share_id: string; recipient: string; sent_at: Date }>(
      'select share_id, recipient, sent_at from share_resend_mails where user_id = $1',
      [userId],
    );
    const sent = rows.map((r) => ({ shareId: r.share_id, recipient: r.recipient, at: r.sent_at.getTime() }));
    const verdict = decideResendCap({ shareId, recipients: keys, sent, now: now.getTime() });
    if (!verdict.ok) {
      await client.query('rollback');
      const retryAfter = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
      throw new DomainError(CommonErrors.rateLimited, { retryAfter, cap: verdict.cap });
    }
    await client.query('insert into share_resend_mails (user_id, share_id, recipient, sent_at) select $1, $2, unnest($3::text[]), $4', [
      userId,
      shareId,
      keys,
      now,
    ]);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  return async () => {
    await ctx.pool.query('delete from share_resend_mails where user_id = $1 and share_id = $2 and sent_at = $3 and recipient = any($4)', [
      userId,
      shareId,
      now,
      keys,
    ]);
  };
};

/** A purged account's resend counts go with it. */
export const forgetResendMails = async (ctx: AppContext, userId: string): Promise<void> => {
  await ctx.pool.query('delete from share_resend_mails where user_id = $1', [userId]);
};

export const ownerAction = async (ctx: AppContext, user: UserRow, shareId: string, type: OwnerAction, actor: CommandContext) => {
  let release: (() => Promise<void>) | null = null;
  if (type === 'ResendShare') {
    // decided on the share as it is (revoked, public, expired: refused as before), then capped
    const { state } = await loadShare(ctx, shareId);
    const planned = shareDecider.decide({ type, data: { actorId: user.id }, metadata: { now: ctx.now() } }, state);
    const resent = planned.find((e): e is Extract<ShareEvent, { type: 'ShareRecipientsResent' }> => e.type === 'ShareRecipientsResent');
    if (resent) release = await reserveResendMails(ctx, user.id, shareId, resent.data.recipients);
  }
  let result;
  try {
    result = await runShareCommand(ctx, shareId, { type, data: { actorId: user.id } }, actor);
  } catch (error) {
    await release?.();
    throw error;
  }
  const share = result.state as ShareRecord;
  const resent = result.events.find((e): e is Extract<ShareEvent, { type: 'ShareRecipientsResent' }> => e.type === 'ShareRecipientsResent');
  if (resent) await mailRecipients(ctx, share, resent.data.recipients, user, actor);
  return share;
};

export const setRecipientBlocked = async (ctx: AppContext, user: UserRow, shareId: string, email: string, blocked: boolean, actor: CommandContext) => {
  const result = await runShareCommand(ctx, shareId, { type: blocked ? 'BlockRecipient' : 'UnblockRecipient', data: { actorId: user.id, email } }, actor);
  return result.state as ShareRecord;
};

/** The owner's share or not-found (someone else's share does not exist for them). */
export const ownShareOrNotFound = (state: { status: string }, userId: string): ShareRecord => {
  const share = state as ShareRecord;
  if (state.status === 'none' || state.status === 'deleted' || share.ownerId !== userId) throw new DomainError(SharingErrors.shareNotFound);
  return share;
};
