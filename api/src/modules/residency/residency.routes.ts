import { AUTOMATIC_REGION, DATA_REGIONS, residencyDecider, residencyStreamName, resolveRegion, type ResidencyCommand } from '@axel/domain';
import { handleCommand, loadState } from '@axel/platform';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireSelf } from '../../http/auth';
import { limitsFor } from '../../http/rate-limits';
import { userActor } from '../../http/request-meta';

const tags = ['settings: region'];
const UserParams = z.object({ id: z.string().min(1).max(64) });
const RegionBody = z.object({ region: z.string().max(20) });

/**
 * The account's region (spec §2 settings: region; §9 regions). A change applies to uploads made
 * after it: files already stored keep the region they were stored in (the answer says so).
 */
export const residencyRoutes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const answer = (state: { region: (typeof DATA_REGIONS)[number]; chosenAt: string | null }) => ({
    region: state.region,
    effectiveRegion: resolveRegion(state.region, AUTOMATIC_REGION),
    regions: DATA_REGIONS,
    chosenAt: state.chosenAt,
    appliesTo: 'new-uploads' as const,
  });

  app.get('/api/users/:id/region', { schema: { tags, summary: "The account's region for new uploads", params: UserParams } }, async (request) => {
    const { user } = await requireSelf(ctx, request, request.params.id);
    return answer((await loadState(ctx.commands, residencyDecider, residencyStreamName(user.id))).state);
  });

  app.put(
    '/api/users/:id/region',
    { config: limit({ perIp: 60, perAccount: 30 }), schema: { tags, summary: 'Choose the region of new uploads', params: UserParams, body: RegionBody } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const result = await handleCommand(
        ctx.commands,
        residencyDecider,
        residencyStreamName(user.id),
        { type: 'ChooseRegion', data: { region: request.body.region }, metadata: { now: ctx.now() } } as ResidencyCommand,
        userActor(request, user.id),
      );
      return answer(result.state);
    },
  );
};
