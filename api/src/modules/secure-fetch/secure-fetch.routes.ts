import { randomBytes, randomUUID } from 'node:crypto';
import {
  CommonErrors,
  DomainError,
  isLink,
  secureFetchCounterDecider,
  secureFetchCounterStreamName,
  secureFetchDecider,
  SecureFetchErrors,
  type CreateSecureFetch,
} from '@axel/domain';
import { handleCommand } from '@axel/platform';
import { listOwnSecureFetches } from '@axel/projections/secure-fetch/secure-fetches.queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { requireSelf } from '../../http/auth';
import { entitlementsOf } from '../billing/billing.service';
import { contentDisposition, sendItemBytes } from '../files/storage-downloads';
import type { StorageBytes } from '../files/storage.bytes';
import { userActor } from '../../http/request-meta';
import { liveItem } from '../files/storage.service';
import { CreateBody, FetchParams, ItemParams, ListQuery, tags, UserParams } from './secure-fetch.schema';
import { fetchJson, itemsJson, loadSecureFetch, ownLink, runSecureFetchCommand } from './secure-fetch.service';

/** The owner's Secure Fetch links (spec §7 Shares and secure fetch). */
export const secureFetchOwnerRoutes = (ctx: AppContext, bytes: StorageBytes) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const writes = limit({ perIp: 120, perAccount: 60 });
  const reads = limit({ perIp: 1200, perAccount: 600 });

  app.post(
    '/api/users/:id/secure-fetches/',
    {
      schema: { tags, summary: 'Create a Secure Fetch link (note required; the plan counts them per month)', params: UserParams, body: CreateBody },
      config: writes,
    },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const actor = userActor(request, user.id);
      const now = ctx.now();
      const body = request.body;
      const create: CreateSecureFetch = {
        type: 'CreateSecureFetch',
        data: {
          fetchId: randomUUID(),
          linkId: randomBytes(16).toString('base64url'),
          ownerId: user.id,
          note: body.note,
          expiresAt: body.expiresAt ? new Date(body.expiresAt).toISOString() : null,
          includeMetadata: body.includeMetadata,
          hashChoice: body.hashChoice ?? [],
          certificated: body.certificate,
        },
        metadata: { now },
      };
      // a refused note or expiry costs nothing of the month's count
      secureFetchDecider.decide(create, secureFetchDecider.initialState());
      const entitlements = await entitlementsOf(ctx, user.id);
      if (!entitlements.permissions.includes('secure-fetch')) throw new DomainError(CommonErrors.forbidden);
      await handleCommand(
        ctx.commands,
        secureFetchCounterDecider,
        secureFetchCounterStreamName(user.id, now),
        { type: 'CountSecureFetch', data: { fetchId: create.data.fetchId, limit: entitlements.secureFetchMaxCountPerPeriod }, metadata: { now } },
        actor,
      );
      const result = await runSecureFetchCommand(ctx, create.data.fetchId, create, actor, now);
      await ctx.caughtUp(result.position);
      return reply.status(201).send(fetchJson(ctx, await ownLink(ctx, user.id, create.data.fetchId)));
    },
  );

  app.get(
    '/api/users/:id/secure-fetches/',
    {
      schema: {
        tags,
        summary: 'Secure Fetch links, newest first (kept while not expired, or uploaded, or active)',
        params: UserParams,
        querystring: ListQuery,
      },
      config: reads,
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const q = request.query;
      const { links, total } = await listOwnSecureFetches(ctx.pool, user.id, ctx.now(), { ...q, expiresTo: q.expiresAt, note: q.q });
      return { data: links.map((link) => fetchJson(ctx, link)), totalCount: total, page: q.page, perPage: q.perPage };
    },
  );

  app.get(
    '/api/users/:id/secure-fetches/:fetchId/',
    { schema: { tags, summary: 'A Secure Fetch link', params: FetchParams }, config: reads },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const link = await ownLink(ctx, user.id, request.params.fetchId);
      return { ...fetchJson(ctx, link), items: itemsJson(link) };
    },
  );

  app.get(
    '/api/users/:id/secure-fetches/:fetchId/items/',
    { schema: { tags, summary: 'The files received through a link', params: FetchParams }, config: reads },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const link = await ownLink(ctx, user.id, request.params.fetchId);
      const folder =
        link.submission && !link.collectedAt
          ? { id: link.submission.folderId, label: 'sfFolder' as const, type: 'sfFolder' as const, storageId: link.submission.storageId }
          : null;
      const data = itemsJson(link);
      return { data, folder, totalCount: data.length, paid: !!link.payment?.txId };
    },
  );

  app.post(
    '/api/users/:id/secure-fetches/:fetchId/revoke',
    { schema: { tags, summary: 'Revoke a link: it takes no more files', params: FetchParams }, config: writes },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      await ownLink(ctx, user.id, request.params.fetchId);
      const result = await runSecureFetchCommand(ctx, request.params.fetchId, { type: 'RevokeSecureFetch', data: {} }, userActor(request, user.id));
      // what was being sent through the link gives the owner's space back
      const revoked = await loadSecureFetch(ctx, request.params.fetchId);
      if (isLink(revoked)) await bytes.uploads.endLink(revoked.linkId);
      await ctx.caughtUp(result.position);
      return fetchJson(ctx, await ownLink(ctx, user.id, request.params.fetchId));
    },
  );

  app.get(
    '/api/users/:id/secure-fetches/:fetchId/items/:itemId/download',
    { schema: { tags, summary: 'A received file, decrypted', params: ItemParams }, config: limit({ perIp: 600, perAccount: 300 }) },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const link = await ownLink(ctx, user.id, request.params.fetchId);
      const file = link.submission?.files.find((f) => f.itemId === request.params.itemId);
      if (!file || link.collectedAt) throw new DomainError(SecureFetchErrors.itemNotFound);
      const item = await liveItem(ctx, link.submission!.storageId, file.itemId, 'file');
      if (!item.manifest) throw new DomainError(SecureFetchErrors.itemNotFound);
      await runSecureFetchCommand(ctx, link.fetchId, { type: 'OpenSecureFetchItem', data: { itemId: file.itemId } }, userActor(request, user.id));
      // as every file download: by Range too (a broken download resumes), buffers reused once written out
      return sendItemBytes(bytes.content, request, reply, item, { type: 'application/octet-stream', disposition: contentDisposition(file.name, false) });
    },
  );
};
