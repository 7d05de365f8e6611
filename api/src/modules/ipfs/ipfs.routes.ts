import { Readable } from 'node:stream';
import { DomainError, IpfsErrors, ipfsGatewayLink, ipfsSettingsDecider, ipfsSettingsStreamName, isPin, type IpfsSettingsCommand, type Pin } from '@axel/domain';
import { FileKeyDestroyedError } from '@axel/platform/blobs/index';
import { handleCommand, loadState, type CommandContext } from '@axel/platform';
import type { IpfsPinRow } from '@axel/projections/ipfs/ipfs-pins.projection';
import { findIpfsPin, listIpfsPins, pinsOfSecureFetch, type IpfsPinListRow } from '@axel/projections/ipfs/ipfs-pins.queries';
import * as dagPb from '@ipld/dag-pb';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CID } from 'multiformats/cid';
import type { DagBlock } from '@axel/platform/ipfs/pinning';
import type { AppContext } from '../../context';
import { requireSelf, requireStaff } from '../../http/auth';
import { limitsFor } from '../../http/rate-limits';
import { requestMeta } from '../../http/request-meta';
import { contentRange, ListQuerySchema, parseListQuery } from '../admin/list-query';
import { ownLink } from '../secure-fetch/secure-fetch.service';
import { carOf } from './ipfs.car';
import { canonicalCid } from './ipfs.dag';
import { LeafMismatchError, type EmbeddedPinning } from './ipfs.embedded.store';
import { CidParams, FetchPinsParams, GatewayBody, GatewayQuery, PinParams, tags, UnpinBody, UserParams } from './ipfs.schema';
import { loadPin, removePin, retryPin, type Pinning } from './ipfs.service';

const RAW = 'application/vnd.ipld.raw';
const CAR = 'application/vnd.ipld.car';
const staffActor = (request: FastifyRequest, staffId: string): CommandContext => ({ actorId: staffId, actorKind: 'staff', ...requestMeta(request) });

/** Which answer the client asked for: `?format=` first, else the first of the Accept header's types we serve. */
const wanted = (format: 'raw' | 'car' | undefined, acceptHeader: string | undefined): 'raw' | 'car' | null => {
  if (format) return format;
  const accept = String(acceptHeader ?? '');
  const types = accept
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase())
    .filter(Boolean);
  for (const type of types) {
    if (type === RAW) return 'raw';
    if (type === CAR) return 'car';
  }
  return null;
};

/** A block's bytes, or not found when its leaf can no longer be read as it was pinned (the file destroyed or changed). */
const bytesOf = async (block: { bytes(): Promise<Uint8Array> }): Promise<Uint8Array> => {
  try {
    return await block.bytes();
  } catch (error) {
    if (error instanceof LeafMismatchError || error instanceof FileKeyDestroyedError) throw new DomainError(IpfsErrors.blockNotFound);
    throw error;
  }
};

/** The DAG under `cid`, depth first, each block read from the embedded service (only pinned ones). */
async function* dagUnder(embedded: EmbeddedPinning, cid: string, first: DagBlock): AsyncGenerator<DagBlock> {
  yield first;
  if (CID.parse(cid).code === dagPb.code) {
    for (const link of dagPb.decode(first.bytes).Links) {
      const child = link.Hash.toString();
      const block = await embedded.block(child);
      if (!block) throw new Error(`block ${child} of ${cid} is not held`);
      yield* dagUnder(embedded, child, { cid: child, bytes: await block.bytes() });
    }
  }
}

const trustlessHeaders = (reply: FastifyReply, cid: string, format: 'raw' | 'car') =>
  reply
    .header('content-type', format === 'raw' ? RAW : `${CAR}; version=1; order=dfs; dups=n`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'public, max-age=29030400, immutable')
    .header('etag', `"${cid}.${format}"`)
    .header('vary', 'Accept')
    .header('x-ipfs-path', `/ipfs/${cid}`)
    .header('x-ipfs-roots', cid)
    .header('content-disposition', `attachment; filename="${cid}.${format === 'raw' ? 'bin' : 'car'}"`);

/** A pin as staff and owners see it: the Pinning Service API status as it is, and its public link. */
const pinView = (row: IpfsPinRow | IpfsPinListRow, link: (cid: string) => string) => ({
  id: row.id,
  status: row.status,
  cid: row.cid,
  size: Number(row.size),
  dagSize: row.dag_size === null ? null : Number(row.dag_size),
  blocks: row.blocks,
  service: row.service,
  ownerId: row.owner_id,
  ...('owner_username' in row ? { ownerUsername: row.owner_username, ownerEmail: row.owner_email } : {}),
  fetchId: row.fetch_id,
  itemId: row.item_id,
  txId: row.tx_id,
  attempts: row.attempts,
  failure: row.failure,
  removedReason: row.removed_reason,
  requestedAt: row.requested_at,
  pinnedAt: row.pinned_at,
  updatedAt: row.updated_at,
  url: row.cid && row.status === 'pinned' ? link(row.cid) : null,
});

const preferredGateway = async (ctx: AppContext, userId: string): Promise<string | null> =>
  (await loadState(ctx.commands, ipfsSettingsDecider, ipfsSettingsStreamName(userId))).state.gateway;

export const ipfsRoutes = (ctx: AppContext, pinning: () => Pinning) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const ownGateway = (cid: string) => `${ctx.config.publicUrl}/ipfs/${cid}`;

  // the trustless gateway: blocks and CARs of paid, pinned roots only (an unpaid file has no pin)
  for (const url of ['/api/ipfs/:cid', '/ipfs/:cid']) {
    app.get(
      url,
      {
        schema: {
          tags,
          summary: 'Trustless gateway: a block (Accept application/vnd.ipld.raw) or a DAG as a CAR (application/vnd.ipld.car) of a paid, pinned file',
          params: CidParams,
          querystring: GatewayQuery,
        },
        config: limit({ perIp: 600 }),
      },
      async (request, reply) => {
        const cid = canonicalCid(request.params.cid);
        if (!cid) throw new DomainError(IpfsErrors.blockNotFound);
        const format = wanted(request.query.format, request.headers.accept);
        if (!format) throw new DomainError(IpfsErrors.notAcceptable, { accepts: [RAW, CAR] });
        const { embedded } = pinning();
        const block = await embedded.block(cid);
        if (!block) throw new DomainError(IpfsErrors.blockNotFound);
        const bytes = await bytesOf(block);
        trustlessHeaders(reply, cid, format);
        if (format === 'raw') return reply.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        const car = Readable.from(carOf(cid, dagUnder(embedded, cid, { cid, bytes })), { objectMode: false });
        car.on('error', (err) => request.log.warn({ err, cid }, 'a CAR was cut short'));
        return reply.send(car);
      },
    );
  }

  // the owner's pins of a Secure Fetch link, with the public links of their preferred gateway
  app.get(
    '/api/users/:id/secure-fetches/:fetchId/pins',
    { schema: { tags, summary: "The IPFS pins of a link's paid files, with their public links", params: FetchPinsParams } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const link = await ownLink(ctx, user.id, request.params.fetchId);
      const gateway = await preferredGateway(ctx, user.id);
      const make = (cid: string) => (gateway ? ipfsGatewayLink(gateway, cid) : ownGateway(cid));
      const rows = await pinsOfSecureFetch(ctx.pool, link.fetchId);
      return { data: rows.map((r) => pinView(r, make)), gateway };
    },
  );

  app.get(
    '/api/users/:id/ipfs-gateway',
    { schema: { tags, summary: 'The preferred IPFS gateway (null: the product’s own)', params: UserParams } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      return { gateway: await preferredGateway(ctx, user.id), defaultGateway: ctx.config.publicUrl };
    },
  );

  app.put(
    '/api/users/:id/ipfs-gateway',
    {
      schema: {
        tags,
        summary: 'Choose the preferred IPFS gateway (https, path or {cid} subdomain form); null or empty: the product’s own',
        params: UserParams,
        body: GatewayBody,
      },
      config: limit({ perIp: 60, perAccount: 30 }),
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const actor: CommandContext = { actorId: user.id, actorKind: 'user', ...requestMeta(request) };
      const command = { type: 'ChooseIpfsGateway', data: { gateway: request.body.gateway }, metadata: { now: ctx.now() } } as IpfsSettingsCommand;
      const result = await handleCommand(ctx.commands, ipfsSettingsDecider, ipfsSettingsStreamName(user.id), command, actor);
      return { gateway: result.state.gateway, defaultGateway: ctx.config.publicUrl };
    },
  );

  // the console's IPFS pinning section
  app.get(
    '/api/admin/ipfs-pins/',
    {
      schema: {
        tags,
        summary: 'Pins with status, size, owner and paid transaction (ra-data-simple-rest: range, filter q/status)',
        querystring: ListQuerySchema,
      },
    },
    async (request, reply) => {
      await requireStaff(ctx, request);
      const params = parseListQuery(request.query, { sortField: 'requestedAt', sortDir: 'desc', perPage: 25 }, ['requestedAt']);
      const status = typeof params.filter.status === 'string' ? params.filter.status : undefined;
      const { rows, total } = await listIpfsPins(ctx.pool, { status, search: params.search ?? undefined, offset: params.offset, limit: params.limit });
      reply.header('content-range', contentRange('ipfs-pins', params.offset, rows.length, total));
      reply.header('x-total-count', String(total));
      return rows.map((r) => pinView(r, ownGateway));
    },
  );

  const staffPin = async (pinId: string) => {
    const row = await findIpfsPin(ctx.pool, pinId);
    if (!row) throw new DomainError(IpfsErrors.pinNotFound);
    return pinView(row, ownGateway);
  };
  const settle = async (pin: Pin | { status: 'none' }) => {
    if (!isPin(pin)) throw new DomainError(IpfsErrors.pinNotFound);
    const { events } = await ctx.store.readStream(`ipfs-pin-${pin.pinId}`);
    await ctx.caughtUp(events.at(-1)?.position ?? 0);
    return staffPin(pin.pinId);
  };

  app.get('/api/admin/ipfs-pins/:id', { schema: { tags, summary: 'A pin', params: PinParams } }, async (request) => {
    await requireStaff(ctx, request);
    return staffPin(request.params.id);
  });

  app.post(
    '/api/admin/ipfs-pins/:id/retry',
    { schema: { tags, summary: 'Retry a failed pin', params: PinParams }, config: limit({ perIp: 60 }) },
    async (request) => {
      const { user } = await requireStaff(ctx, request);
      if (!isPin(await loadPin(ctx, request.params.id))) throw new DomainError(IpfsErrors.pinNotFound);
      return settle(await retryPin(ctx, pinning(), request.params.id, staffActor(request, user.id)));
    },
  );

  app.post(
    '/api/admin/ipfs-pins/:id/unpin',
    {
      schema: { tags, summary: 'Unpin with a reason (recorded as an event): the gateway no longer serves it', params: PinParams, body: UnpinBody },
      config: limit({ perIp: 60 }),
      // staff without the feature learn nothing about the body's rules
      preValidation: async (request) => {
        await requireStaff(ctx, request, 'admin:ipfs:unpin');
      },
    },
    async (request) => {
      const { user } = await requireStaff(ctx, request, 'admin:ipfs:unpin');
      return settle(await removePin(ctx, pinning(), request.params.id, request.body.reason, staffActor(request, user.id)));
    },
  );
};
