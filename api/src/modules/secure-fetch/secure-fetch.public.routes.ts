import { isLink, openLink } from '@axel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { ownerNameOf } from '../sharing/share-access.service';
import { LinkParams, ShareLinkParams, SubmitBody, tags } from './secure-fetch.schema';
import { anonymousActor, linkByHandle, maxFileSize } from './secure-fetch.service';
import { submitToLink, type SubmissionDeps } from './secure-fetch.submission';

/** What anyone holding a link may do: read what it asks for, and send files once. */
export const secureFetchPublicRoutes = (ctx: AppContext, deps: SubmissionDeps) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const noAccount = () => null;

  app.get(
    '/api/secure-fetch-links/:linkId',
    {
      schema: { tags, summary: 'What a Secure Fetch link asks for and who asks (missing, invalid, used or expired links are refused)', params: LinkParams },
      config: limit({ perIp: 120, account: noAccount }),
    },
    async (request) => {
      const link = openLink(await linkByHandle(ctx, request.params.linkId), ctx.now());
      return {
        note: link.note,
        includeMetadata: link.includeMetadata,
        certificated: link.certificated,
        hashChoice: link.hashChoice,
        maxSize: await maxFileSize(ctx, link.ownerId),
        status: link.status,
        expiresAt: link.expiresAt,
        // Who asks, by the name a share's visitors see its owner by (never the e-mail).
        ownerName: await ownerNameOf(ctx, link.ownerId),
      };
    },
  );

  app.post(
    '/api/shares/:id/',
    {
      schema: {
        tags,
        summary: 'Send the files uploaded through a Secure Fetch link: the link is used, the owner told, a signed receipt answered',
        params: ShareLinkParams,
        body: SubmitBody,
      },
      config: limit({ perIp: 60, account: noAccount }),
    },
    async (request, reply) => {
      const receipt = await submitToLink(ctx, deps, request.params.id, request.body, anonymousActor(request));
      const state = await linkByHandle(ctx, request.params.id);
      return reply.status(201).send({ ...receipt, status: isLink(state) ? state.status : 'uploaded' });
    },
  );
};
