import { Readable } from 'node:stream';
import { keyringPem, loadKeyring, type AuditKeyring, type AuditSigningKey } from '@axel/platform/audit/keys';
import type { Pool } from '@axel/platform';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Module } from '../../module';
import type { WalletOf } from '../wallet/wallet.service';
import type { AppContext } from '../../context';
import { requireStaff } from '../../http/auth';
import { createPortChain, portChainMigrations } from './audit.chain-port';
import { SealerLoop } from './sealer-loop';
import { CheckpointRecord } from '@axel/platform/audit/record';
import { describeRestore } from './audit.restore';
import { auditMigrations, exportRange, SEAL_BATCH, sealBatch, verifyAudit } from './audit.chain-store';
import { anchorMigrations, anchoredCheckpoints, AnchorLoop } from './audit.anchor';

const tags = ['admin'];

const position = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** A global position, or an instant (ISO 8601 with offset) that stands for the events recorded from or until it. */
const bound = z.union([position, z.iso.datetime({ offset: true })]);

/** The position range an export covers: instants become the first and last positions recorded within them. */
const positionsOf = async (pool: Pool, from: number | string | undefined, to: number | string | undefined) => {
  const start =
    typeof from === 'string'
      ? Number(
          (await pool.query<{ p: number | null }>('select min(position) as p from es_events where recorded_at >= $1', [from])).rows[0]!.p ??
            Number.MAX_SAFE_INTEGER,
        )
      : from;
  const end =
    typeof to === 'string'
      ? Number((await pool.query<{ p: number | null }>('select max(position) as p from es_events where recorded_at <= $1', [to])).rows[0]!.p ?? 0)
      : to;
  return { from: start, to: end };
};

const VerificationSchema = z.object({
  ok: z.boolean(),
  checkedUpTo: z.number(),
  firstMismatch: z.number().nullable(),
  reason: z.enum(['changed', 'deleted', 'inserted', 'checkpoint', 'rewritten']).nullable(),
  events: z.number(),
  unsealedEvents: z.number(),
  recordedUpTo: z.number().nullable(),
  anchoredUpTo: z.number().nullable(),
  /** The restores of the database staff accepted, oldest first: the log goes on from `upto`, the record's checkpoints after it up to `supersededUpTo` were left behind. */
  acceptedRestores: z.array(
    z.object({ upto: z.number(), supersededUpTo: z.number(), reason: z.string(), acceptedAt: z.string(), operator: z.string(), description: z.string() }),
  ),
  /** Why this process's sealer stopped sealing (a rewritten log is refused), or null. */
  sealerError: z.string().nullable(),
  /** Why the last anchoring on the AXEL chain failed, or null. */
  anchorError: z.string().nullable(),
});

/** The audit module as `app.ts` wires it: a module, and the key receipts are signed with. */
export interface AuditModule extends Module {
  /** The audit keyring's signing key, loaded once: what signs a checkpoint signs a receipt, and `/.well-known/audit-key` lists it. */
  signingKey(ctx: AppContext): AuditSigningKey;
}

/** The audit chain: sealing, signed checkpoints, their anchors on the AXEL chain (through the wallet it is given), verification. */
export const createAuditModule = (deps: { readonly walletOf: WalletOf }): AuditModule => {
  let keyring: AuditKeyring | undefined;
  let sealer: SealerLoop | undefined;
  let anchors: AnchorLoop | undefined;
  let record: CheckpointRecord | undefined;
  /** The record of signed checkpoints beside the signing key (DATA_DIR). */
  const recordOf = (ctx: AppContext) => (record ??= new CheckpointRecord(ctx.config.dataDir));
  // with EVENTSTORE_URL the chain reads the store through its port and keeps links and checkpoints here
  const portChain = createPortChain();
  const keysOf = (ctx: AppContext) => (keyring ??= loadKeyring(ctx.config.AUDIT_SIGNING_KEY, ctx.config.AUDIT_PREVIOUS_KEYS, ctx.config.dataDir));
  const signingKey = (ctx: AppContext) => keysOf(ctx).signing;

  const routes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { signing: own, keys } = keysOf(ctx);
    app.get(
      '/.well-known/audit-key',
      {
        schema: {
          tags: ['system'],
          summary:
            'The Ed25519 public key that signs the audit checkpoints (PEM); with keys=all, every key a checkpoint may be signed by, each after a line naming its id; as JSON with Accept: application/json',
          querystring: z.object({ keys: z.enum(['all']).optional() }),
        },
      },
      async (request, reply) => {
        reply.header('x-audit-key-id', own.keyId).header('cache-control', 'public, max-age=300').header('vary', 'accept');
        if (/\bapplication\/json\b/.test(request.headers.accept ?? '')) {
          return reply.send({ current: own.keyId, keys: keys.map((k) => ({ keyId: k.keyId, publicKey: k.publicKeyPem, current: k.keyId === own.keyId })) });
        }
        return reply.header('content-type', 'application/x-pem-file').send(request.query.keys === 'all' ? keyringPem(keys, own.keyId) : own.publicKeyPem);
      },
    );
    app.get(
      '/api/admin/audit/verify',
      {
        schema: {
          tags,
          summary:
            'Re-read the log and its signed checkpoints against the record kept beside the signing key and the anchors on the AXEL chain: the first position that was altered or rewritten, and how many events are not sealed yet',
          response: { 200: VerificationSchema },
        },
      },
      async (request) => {
        await requireStaff(ctx, request);
        if (ctx.adapters.eventStore !== 'postgres') {
          const result = await portChain.verify(ctx, keys);
          return {
            ...result,
            unsealedEvents: 0,
            recordedUpTo: null,
            anchoredUpTo: null,
            acceptedRestores: [],
            sealerError: portChain.lastError,
            anchorError: null,
          };
        }
        const result = await verifyAudit(ctx.pool, keys, { record: recordOf(ctx), anchored: await anchoredCheckpoints(ctx, deps.walletOf, recordOf(ctx)) });
        return {
          ...result,
          acceptedRestores: result.acceptedRestores.map((r) => ({ ...r, description: describeRestore(r) })),
          sealerError: sealer?.lastError ?? null,
          anchorError: anchors?.lastError ?? null,
        };
      },
    );
    app.get(
      '/api/admin/audit/export',
      {
        schema: {
          tags,
          summary: 'The sealed events of a range (positions, or ISO instants) with their links and checkpoints, as JSON Lines',
          querystring: z.object({ from: bound.optional(), to: bound.optional() }),
        },
      },
      async (request, reply) => {
        await requireStaff(ctx, request);
        const viaPort = ctx.adapters.eventStore !== 'postgres';
        const { from, to } = await (viaPort
          ? portChain.positionsOf(ctx, request.query.from, request.query.to)
          : positionsOf(ctx.pool, request.query.from, request.query.to));
        const name = `axel-audit-${from ?? 0}-${to ?? 'end'}.jsonl`;
        return reply
          .header('content-type', 'application/x-ndjson; charset=utf-8')
          .header('content-disposition', `attachment; filename="${name}"`)
          .send(Readable.from(viaPort ? await portChain.export(ctx, keys, { from, to }) : exportRange(ctx.pool, keys, { from, to })));
      },
    );
  };

  return {
    name: 'audit',
    signingKey,
    migrations: [...auditMigrations, ...portChainMigrations, ...anchorMigrations],
    routes,
    async start(ctx, roles) {
      if (!roles.has('worker')) return;
      if (ctx.adapters.eventStore !== 'postgres') return portChain.start(ctx, signingKey(ctx));
      const key = signingKey(ctx);
      // a full batch means more may be waiting
      const checkpoints = recordOf(ctx);
      sealer = new SealerLoop(async () => (await sealBatch(ctx.pool, key, SEAL_BATCH, undefined, checkpoints)) === SEAL_BATCH, ctx.log, 'audit sealing failed');
      sealer.start();
      anchors = new AnchorLoop(ctx, deps.walletOf, checkpoints, key);
      anchors.start();
    },
    async stop() {
      await sealer?.stop();
      sealer = undefined;
      await anchors?.stop();
      anchors = undefined;
      await portChain.stop();
    },
    async health() {
      return {
        sealing: sealer !== undefined || portChain.sealing,
        keyId: keyring?.signing.keyId ?? null,
        previousKeyIds: keyring?.keys.slice(1).map((k) => k.keyId) ?? [],
        lastError: sealer?.lastError ?? portChain.lastError,
        anchoredUpTo: anchors?.anchoredUpTo ?? null,
        anchorError: anchors?.lastError ?? null,
      };
    },
  };
};
