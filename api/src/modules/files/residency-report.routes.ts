import {
  AccountErrors,
  AUTOMATIC_REGION,
  DATA_REGIONS,
  DomainError,
  residencyDecider,
  residencyStreamName,
  resolveRegion,
  STORAGE_REGIONS,
  type StorageRegion,
} from '@axel/domain';
import { loadState } from '@axel/platform';
import type { RegionRoutedBlobStore } from '@axel/platform/blobs/index';
import { residencyOfOwner } from '@axel/projections/storage/storage.queries';
import { findUser } from '@axel/projections/users/users.queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireSelf, requireStaff } from '../../http/auth';

const UserParams = z.object({ id: z.string().min(1).max(64) });
const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(100),
});

const Region = z.enum(STORAGE_REGIONS).nullable();
const Place = z.object({ shard: z.string(), region: Region });
export const ResidencyReportSchema = z.object({
  /** The account's region for new uploads, and where `automatic` puts them. */
  region: z.enum(DATA_REGIONS),
  effectiveRegion: z.enum(STORAGE_REGIONS),
  appliesTo: z.literal('new-uploads'),
  /** False when no region has shards of its own: every file is on the home shards, whatever its region. */
  regionsConfigured: z.boolean(),
  /** The shard sets: each configured region's own, and the home set (region null) every other region uses. */
  shardSets: z.array(z.object({ region: Region, shards: z.array(z.string()) })),
  /** Per recorded region (null: stored before regions), over all the account's files, and the set keeping them. */
  totals: z.array(z.object({ region: Region, keptIn: Region, files: z.number(), chunks: z.number(), bytes: z.number() })),
  totalCount: z.number(),
  page: z.number(),
  perPage: z.number(),
  data: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      inTrash: z.boolean(),
      region: Region,
      size: z.number(),
      chunks: z.array(z.object({ cid: z.string(), size: z.number(), shards: z.array(Place) })),
    }),
  ),
});
export type ResidencyReport = z.infer<typeof ResidencyReportSchema>;

const asRegion = (value: string | null | undefined): StorageRegion | null =>
  (STORAGE_REGIONS as readonly string[]).includes(value ?? '') ? (value as StorageRegion) : null;

/** The residency report of one account: where every chunk of its files is, shard by shard (spec §9 regions). */
export const residencyReport = async (
  ctx: AppContext,
  blobs: RegionRoutedBlobStore,
  userId: string,
  page: number,
  perPage: number,
): Promise<ResidencyReport> => {
  const preference = (await loadState(ctx.commands, residencyDecider, residencyStreamName(userId))).state.region;
  const { totalCount, files, totals } = await residencyOfOwner(ctx.pool, userId, page, perPage);
  const configured = blobs.regions;
  const keptIn = (region: StorageRegion | null) => (region && configured.includes(region) ? region : null);
  const data = [];
  for (const file of files) {
    const chunks = [];
    for (const chunk of file.manifest.chunks) chunks.push({ cid: chunk.cid, size: chunk.size, shards: await blobs.locate(chunk.cid) });
    data.push({ id: file.id, name: file.name, inTrash: file.in_trash, region: asRegion(file.manifest.region), size: file.manifest.size, chunks });
  }
  return {
    region: preference,
    effectiveRegion: resolveRegion(preference, AUTOMATIC_REGION),
    appliesTo: 'new-uploads',
    regionsConfigured: configured.length > 0,
    shardSets: [
      { region: null, shards: blobs.home.shards.map((s) => s.name) },
      ...configured.map((region) => ({ region, shards: blobs.forRegion(region).shards.map((s) => s.name) })),
    ],
    totals: totals.map((t) => ({ region: asRegion(t.region), keptIn: keptIn(asRegion(t.region)), files: t.files, chunks: t.chunks, bytes: Number(t.bytes) })),
    totalCount,
    page,
    perPage,
    data,
  };
};

/**
 * The residency report, for the account's owner and for staff: per file its recorded region and,
 * for every chunk, the shards holding it and their region; totals per region. Paged, 100 at most.
 */
export const residencyReportRoutes = (ctx: AppContext, blobs: RegionRoutedBlobStore) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/users/:id/residency/',
    {
      schema: {
        tags: ['settings: region'],
        summary: 'Where every chunk of my files is',
        params: UserParams,
        querystring: PageQuery,
        response: { 200: ResidencyReportSchema },
      },
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      return residencyReport(ctx, blobs, user.id, request.query.page, request.query.perPage);
    },
  );

  app.get(
    '/api/admin/users/:id/residency/',
    {
      schema: {
        tags: ['admin'],
        summary: "Where every chunk of an account's files is",
        params: UserParams,
        querystring: PageQuery,
        response: { 200: ResidencyReportSchema },
      },
    },
    async (request) => {
      await requireStaff(ctx, request);
      const user = await findUser(ctx.pool, request.params.id);
      if (!user) throw new DomainError(AccountErrors.userNotFound);
      return residencyReport(ctx, blobs, user.id, request.query.page, request.query.perPage);
    },
  );
};
