import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BrandingErrors, BRANDING_NAME_MAX, DomainError, LOGO_MAX_BYTES, LOGO_MIME_TYPES, type PlanFeature } from '@axel/domain';
import { brandingBySubdomain, brandingOf } from '@axel/projections/branding/branding.queries';
import { teamJoinedBy } from '@axel/projections/teams/teams.queries';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireSelf, requireUser } from '../../http/auth';
import { limitsFor } from '../../http/rate-limits';
import { userActor } from '../../http/request-meta';
import { ensureOwnTeam, teamForManager, teamIdOfOwner, type TeamPlanOf } from '../teams/teams.commands';
import {
  brandingJson,
  customUrlDomain,
  loadBranding,
  logoDir,
  removeCustomUrl,
  runBrandingCommand,
  setCustomUrl,
  storeLogo,
  subdomainOfHost,
} from './branding.service';

const tags = ['branding'];
const ErrorSchema = z.object({ code: z.union([z.string(), z.number()]), message: z.string(), data: z.unknown() });
const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 413: ErrorSchema };
const id = z.string().min(1).max(200);
const TeamParams = z.object({ teamId: id });
const BrandingSchema = z.object({
  teamId: z.string(),
  companyName: z.string().nullable(),
  logoUrl: z.string().nullable(),
  logoWidth: z.number().nullable(),
  logoHeight: z.number().nullable(),
  subdomain: z.string().nullable(),
  customUrl: z.string().nullable(),
});
const MyBrandingSchema = BrandingSchema.extend({
  teamId: z.string().nullable(),
  /** May this person change the team's branding and custom URL, and does the plan include each. */
  canManage: z.boolean(),
  brandingAllowed: z.boolean(),
  customUrlAllowed: z.boolean(),
  customUrlDomain: z.string(),
});

/**
 * Branding (company name or slogan, logo) and custom URL of an Enterprise team (spec §6, rules §5, §8):
 * set by its admin and co-admins, shown to its members, on its custom host and to Caddy's `ask`.
 */
export const brandingRoutes = (ctx: AppContext, planOf: TeamPlanOf) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const writes = limit({ perIp: 60 });
  const reads = limit({ perIp: 600 });

  const hasFeature = async (teamId: string, feature: PlanFeature) => (await planOf(ctx, teamId)).entitlements.features.includes(feature);

  /** The signed-in admin or co-admin of the team, on a plan with the feature. */
  const managing = async (request: FastifyRequest, teamId: string, feature: PlanFeature) => {
    const { user } = await requireUser(ctx, request);
    const actor = userActor(request, user.id);
    if (teamId === teamIdOfOwner(user.id)) await ensureOwnTeam(ctx, planOf, user.id, actor);
    await teamForManager(ctx, teamId, user.id);
    if (!(await hasFeature(teamId, feature))) throw new DomainError(BrandingErrors.notAllowed);
    return { actor };
  };
  const answer = async (teamId: string) => brandingJson(ctx, teamId, await brandingOf(ctx.pool, teamId));

  app.get(
    '/api/users/:id/branding',
    {
      config: reads,
      schema: {
        tags,
        summary: 'The branding of the team you belong to (or own), and whether you may change it; nulls outside any team',
        params: z.object({ id }),
        response: { 200: MyBrandingSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const actor = userActor(request, user.id);
      const owned = await ensureOwnTeam(ctx, planOf, user.id, actor);
      const teamId = owned ? teamIdOfOwner(user.id) : ((await teamJoinedBy(ctx.pool, user.id))?.team_id ?? null);
      const domain = customUrlDomain(ctx);
      if (!teamId) {
        return {
          ...brandingJson(ctx, '', undefined),
          teamId: null,
          canManage: false,
          brandingAllowed: false,
          customUrlAllowed: false,
          customUrlDomain: domain,
        };
      }
      const canManage = await teamForManager(ctx, teamId, user.id).then(
        () => true,
        () => false,
      );
      return {
        ...(await answer(teamId)),
        canManage,
        brandingAllowed: await hasFeature(teamId, 'branding'),
        customUrlAllowed: await hasFeature(teamId, 'custom-url'),
        customUrlDomain: domain,
      };
    },
  );

  app.put(
    '/api/teams/:teamId/branding',
    {
      config: writes,
      schema: {
        tags,
        summary: 'Set the company name or slogan shown to members (null or empty removes it)',
        params: TeamParams,
        body: z.object({ companyName: z.string().max(BRANDING_NAME_MAX).nullable() }),
        response: { 200: BrandingSchema, ...errors },
      },
    },
    async (request) => {
      const { teamId } = request.params;
      const { actor } = await managing(request, teamId, 'branding');
      await runBrandingCommand(ctx, teamId, { type: 'SetBrandingName', data: { companyName: request.body.companyName } }, actor);
      return answer(teamId);
    },
  );

  fastify.addContentTypeParser([...LOGO_MIME_TYPES], { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES }, (_req, body, done) => done(null, body));
  app.post(
    '/api/teams/:teamId/branding/logo',
    {
      config: writes,
      bodyLimit: LOGO_MAX_BYTES,
      schema: {
        tags,
        summary: 'Upload the logo: PNG or JPG, at least 40x40, at most 1 MB (re-encoded)',
        params: TeamParams,
        response: { 200: BrandingSchema, ...errors },
      },
      // body errors of this route in the spec's terms
      errorHandler: (error) => {
        const code = (error as { code?: string }).code;
        if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new DomainError(BrandingErrors.logoTooLarge);
        if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY') throw new DomainError(BrandingErrors.logoInvalid);
        throw error;
      },
    },
    async (request) => {
      const { teamId } = request.params;
      const { actor } = await managing(request, teamId, 'branding');
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) throw new DomainError(BrandingErrors.logoInvalid);
      await storeLogo(ctx, teamId, body, actor);
      return answer(teamId);
    },
  );

  app.delete(
    '/api/teams/:teamId/branding/logo',
    { config: writes, schema: { tags, summary: 'Remove the logo', params: TeamParams, response: { 200: BrandingSchema, ...errors } } },
    async (request) => {
      const { teamId } = request.params;
      const { actor } = await managing(request, teamId, 'branding');
      await runBrandingCommand(ctx, teamId, { type: 'RemoveTeamLogo', data: {} }, actor);
      return answer(teamId);
    },
  );

  app.get(
    '/api/teams/:teamId/branding/logo',
    {
      config: reads,
      schema: { tags, summary: "The team's logo: public, as it shows on the team's share pages and custom host", params: TeamParams },
    },
    async (request, reply) => {
      const state = await loadBranding(ctx, request.params.teamId);
      if (!state.logo) return reply.status(404).send({ code: 'NOT_FOUND', message: 'No logo', data: null });
      reply.header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').type(state.logo.mime);
      return readFile(path.join(logoDir(ctx), state.logo.logoId));
    },
  );

  app.put(
    '/api/teams/:teamId/custom-url',
    {
      config: writes,
      schema: {
        tags,
        summary: "Set the team's custom URL subdomain (409 when taken)",
        params: TeamParams,
        body: z.object({ subdomain: z.string().max(200) }),
        response: { 200: BrandingSchema, ...errors },
      },
    },
    async (request) => {
      const { teamId } = request.params;
      const { actor } = await managing(request, teamId, 'custom-url');
      await setCustomUrl(ctx, teamId, request.body.subdomain, actor);
      return answer(teamId);
    },
  );

  app.delete(
    '/api/teams/:teamId/custom-url',
    { config: writes, schema: { tags, summary: "Give the team's custom URL back", params: TeamParams, response: { 200: BrandingSchema, ...errors } } },
    async (request) => {
      const { teamId } = request.params;
      const { actor } = await managing(request, teamId, 'custom-url');
      await removeCustomUrl(ctx, teamId, actor);
      return answer(teamId);
    },
  );

  app.get(
    '/api/host-branding',
    {
      config: reads,
      schema: {
        tags,
        summary: "On a team's custom host: its branding and the main address to sign in at; 404 on any other host",
        response: { 200: z.object({ companyName: z.string().nullable(), logoUrl: z.string().nullable(), mainUrl: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      const sub = subdomainOfHost(ctx, request.host);
      const row = sub ? await brandingBySubdomain(ctx.pool, sub) : undefined;
      if (!row) return reply.status(404).send({ code: 'NOT_FOUND', message: 'Not a custom host', data: null });
      const json = brandingJson(ctx, row.team_id, row);
      return { companyName: json.companyName, logoUrl: json.logoUrl, mainUrl: ctx.config.publicUrl };
    },
  );

  // Caddy's on-demand TLS asks here before it gets a certificate for a host (docs/teams.md)
  app.get(
    '/api/tls/ask',
    {
      config: reads,
      schema: {
        tags,
        summary: 'For the reverse proxy: 200 when the domain is a custom URL a team holds, else 404',
        querystring: z.object({ domain: z.string().max(300) }),
      },
    },
    async (request, reply) => {
      const sub = subdomainOfHost(ctx, request.query.domain);
      const row = sub ? await brandingBySubdomain(ctx.pool, sub) : undefined;
      return row ? reply.status(200).send({ ok: true }) : reply.status(404).send({ code: 'NOT_FOUND', message: 'Unknown host', data: null });
    },
  );
};
