import { CommonErrors, DomainError, normalizeShareEmail, shareSenderFor, startOfSharePeriod, type ShareOwnerFacts, type ShareRecord } from '@axel/domain';
import { countSharesSince, listOwnShares, listSharesSentTo } from '@axel/projections/sharing/shares.queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { requireSelf, requireUser } from '../../http/auth';
import { entitlementsOf } from '../billing/billing.service';
import { userActor } from '../../http/request-meta';
import { openOwnItems } from '../file-lock/file-lock.service';
import {
  CreateShareBody,
  EditShareBody,
  ListSharesQuery,
  RecipientParams,
  SearchSharesQuery,
  SharedWithMeQuery,
  ShareParams,
  SinceQuery,
  tags,
  UserParams,
} from './sharing.schema';
import { createShare, editShare, ownerAction, ownShareOrNotFound, setRecipientBlocked } from './sharing.service';
import { accessFiguresOf, loadShare, sharedSizesOf, shareJson, shareOwnersOf, withSharedSize } from './shares.read';

const etagOf = (revision: number) => `"${revision}"`;
/** An If-Match that is no revision of ours can never match (412). */
const revisionOf = (ifMatch: string | string[]): number => {
  const value = Array.isArray(ifMatch) ? ifMatch[0] : ifMatch;
  const m = /^(?:W\/)?"(\d+)"$/.exec(value?.trim() ?? '');
  return m ? Number(m[1]) : -2;
};

/** Nothing names an account on these routes but the session: each client address is capped. */
const noAccount = () => null;

/** The owner's shares (spec §7 Shares): create, edit, revoke, delete, resend, recipients, lists and counters. */
export const sharingRoutes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const writes = limit({ perIp: 120, account: noAccount });
  const reads = limit({ perIp: 600, account: noAccount });

  const answer = async (share: ShareRecord) =>
    shareJson(ctx, await withSharedSize(ctx, share), { owner: true, access: (await accessFiguresOf(ctx, [share.id])).get(share.id) });

  app.post(
    '/api/shares/',
    { schema: { tags, summary: 'Share items of the own online storage (public, or private to recipients)', body: CreateShareBody }, config: writes },
    async (request, reply) => {
      const { user, session } = await requireUser(ctx, request);
      const actor = userActor(request, user.id);
      // a locked item is shared only by a session that opened it with a fresh code
      await openOwnItems(ctx, request.body.itemIds, { userId: user.id, session, actor, action: 'share' });
      const share = await createShare(ctx, user, request.body, actor);
      return reply.status(201).send(await answer(share));
    },
  );

  app.get(
    '/api/shares/:id/',
    { schema: { tags, summary: 'One own share, with its recipients (ETag: its revision)', params: ShareParams }, config: reads },
    async (request, reply) => {
      const { user } = await requireUser(ctx, request);
      const { state, revision } = await loadShare(ctx, request.params.id);
      return reply.header('etag', etagOf(revision)).send(await answer(ownShareOrNotFound(state, user.id)));
    },
  );

  app.patch(
    '/api/shares/:id/',
    {
      schema: { tags, summary: 'Edit a share (password null removes it); If-Match: the ETag read, else 412', params: ShareParams, body: EditShareBody },
      config: writes,
    },
    async (request, reply) => {
      const { user } = await requireUser(ctx, request);
      const ifMatch = request.headers['if-match'];
      const revision = ifMatch === undefined ? undefined : revisionOf(ifMatch);
      const edited = await editShare(ctx, user, request.params.id, request.body, userActor(request, user.id), revision);
      return reply.header('etag', etagOf(edited.revision)).send(await answer(edited.share));
    },
  );

  app.post(
    '/api/shares/:id/revoke',
    { schema: { tags, summary: 'Revoke a share: its link is blocked for good', params: ShareParams }, config: writes },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      return answer(await ownerAction(ctx, user, request.params.id, 'RevokeShare', userActor(request, user.id)));
    },
  );

  app.delete('/api/shares/:id/', { schema: { tags, summary: 'Delete a share', params: ShareParams }, config: writes }, async (request, reply) => {
    const { user } = await requireUser(ctx, request);
    await ownerAction(ctx, user, request.params.id, 'DeleteShare', userActor(request, user.id));
    return reply.status(204).send();
  });

  app.post(
    '/api/shares/:id/resend',
    { schema: { tags, summary: 'Mail a private share again to its unblocked recipients', params: ShareParams }, config: writes },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      return answer(await ownerAction(ctx, user, request.params.id, 'ResendShare', userActor(request, user.id)));
    },
  );

  for (const [action, blocked] of [
    ['block', true],
    ['unblock', false],
  ] as const) {
    app.post(
      `/api/shares/:id/recipients/:email/${action}`,
      { schema: { tags, summary: `${action === 'block' ? 'Block' : 'Unblock'} a recipient of a private share`, params: RecipientParams }, config: writes },
      async (request) => {
        const { user } = await requireUser(ctx, request);
        return answer(await setRecipientBlocked(ctx, user, request.params.id, request.params.email, blocked, userActor(request, user.id)));
      },
    );
  }

  const list = async (userId: string, q: z.infer<typeof ListSharesQuery>) => {
    // the e-mail lookup needs its range: an address alone would list every share sent to it
    if (q.email !== undefined && (!q.email || q.expiresFrom === undefined || q.expiresAt === undefined)) {
      throw new DomainError(CommonErrors.validation, { fields: { email: 'email, expiresFrom and expiresAt go together' } });
    }
    const { records: stored, total } = await listOwnShares(
      ctx.pool,
      userId,
      { recipientEmail: q.email?.trim().toLowerCase(), expiresFrom: q.expiresFrom, expiresTo: q.expiresAt, title: q.q },
      q,
    );
    const [access, sizes] = await Promise.all([
      accessFiguresOf(
        ctx,
        stored.map((r) => r.id),
      ),
      sharedSizesOf(ctx, stored),
    ]);
    const records = stored.map((r) => ({ ...r, totalSize: sizes.get(r.id) ?? 0 }));
    const now = ctx.now();
    return {
      totalCount: total,
      page: q.page,
      perPage: q.perPage,
      data: records.map((r) => shareJson(ctx, r, { owner: true, access: access.get(r.id), now })),
    };
  };

  app.get('/api/shares/', { schema: { tags, summary: 'The own shares, newest first', querystring: ListSharesQuery }, config: reads }, async (request) => {
    const { user } = await requireUser(ctx, request);
    return list(user.id, request.query);
  });

  app.get(
    '/api/shares/search',
    { schema: { tags, summary: 'Search the own shares by title', querystring: SearchSharesQuery }, config: reads },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      return list(user.id, request.query);
    },
  );

  app.get(
    '/api/shares/shared-with-me',
    {
      schema: { tags, summary: "Live private shares sent to the signed-in user's verified e-mail (not blocked), newest first", querystring: SharedWithMeQuery },
      config: reads,
    },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      const q = request.query;
      // an address the user never proved is not theirs to read shares by
      if (!user.email || !user.email_verified) return { data: [], totalCount: 0, page: q.page, perPage: q.perPage };
      const email = normalizeShareEmail(user.email);
      const now = ctx.now();
      const { records, total } = await listSharesSentTo(ctx.pool, { email, userId: user.id, now }, q);
      const [sizes, owners] = await Promise.all([
        sharedSizesOf(ctx, records),
        shareOwnersOf(
          ctx,
          records.map((r) => r.ownerId),
        ),
      ]);
      const data = records.map((r) => sharedWithMeJson(ctx, { ...r, totalSize: sizes.get(r.id) ?? 0 }, owners.get(r.ownerId) ?? null, now));
      return { totalCount: total, page: q.page, perPage: q.perPage, data };
    },
  );

  const since = (sinceDate: string | undefined) => (sinceDate ? new Date(sinceDate) : startOfSharePeriod(ctx.now()));

  app.get(
    '/api/shares/user-plan-count/',
    { schema: { tags, summary: "Shares counted against the plan since a date (default: this UTC month's start)", querystring: SinceQuery }, config: reads },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      const [count, plan] = await Promise.all([countSharesSince(ctx.pool, user.id, since(request.query.sinceDate)), entitlementsOf(ctx, user.id)]);
      return { count, limit: plan.secureShareMaxCountPerPeriod };
    },
  );

  app.get(
    '/api/users/:id/counters/sf/',
    { schema: { tags, summary: 'Secure fetches counted against the plan since a date', params: UserParams, querystring: SinceQuery }, config: reads },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      return { count: await secureFetchCount(ctx, user.id, since(request.query.sinceDate)) };
    },
  );
};

/**
 * A share as its recipient sees it in their list: who sent it (as the share's mail told them) and
 * what the link's summary tells once let in, but never the names of its items (a password still
 * guards those), nor the other recipients.
 */
const sharedWithMeJson = (ctx: AppContext, share: ShareRecord, owner: ShareOwnerFacts | null, now: Date) => {
  const {
    id,
    shareId,
    shareLinkId,
    type,
    kind,
    status,
    title,
    description,
    expiresAt,
    expired,
    createdAt,
    modifiedAt,
    downloadable,
    requireLogin,
    hasPassword,
    url,
    totalSize,
  } = shareJson(ctx, share, { owner: false, now });
  const sender = shareSenderFor(share.kind, owner);
  return {
    id,
    shareId,
    shareLinkId,
    type,
    kind,
    status,
    title,
    description,
    expiresAt,
    expired,
    createdAt,
    modifiedAt,
    downloadable,
    requireLogin,
    hasPassword,
    url,
    totalSize,
    itemsCount: share.items.length,
    ownerName: sender.name,
    ownerEmail: sender.email,
  };
};

/** Months of counter streams read back at most (a sinceDate further back counts from here). */
const MAX_COUNTER_MONTHS = 24;

/** Secure fetches counted since a date, from the secure-fetch counter streams of each UTC month since. */
const secureFetchCount = async (ctx: AppContext, userId: string, since: Date): Promise<number> => {
  const now = ctx.now();
  let month = new Date(Math.max(startOfSharePeriod(since).getTime(), Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - MAX_COUNTER_MONTHS + 1, 1)));
  let count = 0;
  while (month.getTime() <= now.getTime()) {
    const { events } = await ctx.store.readStream(`secure-fetch-counter-${userId}-${month.toISOString().slice(0, 7)}`);
    count += events.filter((e) => e.type === 'SecureFetchCounted' && Date.parse((e.data as { countedAt: string }).countedAt) >= since.getTime()).length;
    month = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
  }
  return count;
};
