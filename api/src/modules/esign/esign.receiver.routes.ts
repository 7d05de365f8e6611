import { DomainError, EsignErrors, mayStartSigning, type EsignPackageState } from '@axel/domain';
import { findEsignLink } from '@axel/projections/esign/esign.queries';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { requestMeta } from '../../http/request-meta';
import { verifyPassword } from '../accounts/passwords';
import { ErrorSchema, LeaseSchema, LinkEntryParams, LinkEntrySchema, LinkParams, LinkViewSchema, SignBody } from './esign.schema';
import { sendPdf } from './esign.routes';
import { LEASE_MS, loadPackage, mailDueSigners, runEsignCommand, sealedDocument, sealFor } from './esign.service';
import type { SealKey } from './esign.seal-key';
import { acquireLease, leasedByOther, readDocument, releaseLease } from './esign.store';
import { findUser } from '@axel/projections/users/users.queries';

const tags = ['esign'];
const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 423: ErrorSchema, 429: ErrorSchema };

/** `Authorization: Password <password>` (the package's password, given to signers by the owner). */
const passwordOf = (request: FastifyRequest): string => {
  const header = request.headers.authorization ?? '';
  const m = /^Password (.+)$/s.exec(header);
  if (!m?.[1]) throw new DomainError(EsignErrors.passwordRequired);
  return m[1];
};

/**
 * The receiver's calls, `/esign-package-links/{linkId}/...`, each with the package password: the
 * package and the signer's own state, the documents with their fields, signing and finishing, and
 * the signing lease (one signer at a time has the documents open to sign: `POST .../lock/` is the
 * heartbeat, `DELETE` lets go; silence lets it expire).
 */
export const esignReceiverRoutes = (ctx: AppContext, deps: { sealKey: () => SealKey }) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  // a password is guessed per link: each link has its own budget besides the address's
  const guarded = (perIp: number) => limit({ perIp, perAccount: 60, account: (r) => `esign-link:${(r.params as { linkId?: string }).linkId ?? ''}` });
  const base = '/api/esign-package-links/:linkId';

  /** The link's signer and package once the password is right; a link of a draft or deleted package does not exist. */
  const open = async (request: FastifyRequest, linkId: string) => {
    const password = passwordOf(request);
    const link = await findEsignLink(ctx.pool, linkId);
    if (!link) throw new DomainError(EsignErrors.linkNotFound);
    const { state } = await loadPackage(ctx, link.package_id);
    const signer = state.signers[link.signer_id];
    if (!state.exists || state.deleted || !signer || !state.passwordHash) throw new DomainError(EsignErrors.linkNotFound);
    if (!(await verifyPassword(state.passwordHash, password))) throw new DomainError(EsignErrors.wrongPassword);
    return { state, signer };
  };

  const signingState = (state: EsignPackageState, signerId: string) => {
    const s = state.signers[signerId]!;
    if (s.finishedAt) return 'finished' as const;
    if (state.status !== 'awaiting_signatures') return 'closed' as const;
    if (!mayStartSigning(state, signerId)) return 'waiting' as const;
    return s.signedAt ? ('signed' as const) : ('ready' as const);
  };

  const view = async (linkId: string, state: EsignPackageState, signerId: string) => {
    const s = state.signers[signerId]!;
    const completed = state.status === 'completed' || (state.status === 'archived' && state.archivedFrom === 'completed');
    return {
      linkId,
      packageId: state.packageId,
      name: state.name,
      message: state.message,
      status: state.status,
      signer: { id: s.id, name: s.name, email: s.email, color: s.color, signedAt: s.signedAt, finishedAt: s.finishedAt },
      signingState: signingState(state, signerId),
      locked: await leasedByOther(ctx.pool, state.packageId, signerId, ctx.now()),
      documentReady: completed,
    };
  };

  /** The signing lease for this signer, or the spec's "locked while another user signs". */
  const hold = async (state: EsignPackageState, signerId: string) => {
    if (!(await acquireLease(ctx.pool, state.packageId, signerId, ctx.now(), LEASE_MS))) throw new DomainError(EsignErrors.locked);
  };

  for (const path of [base, `${base}/`]) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary: "The package and this signer's state (ready, waiting for an earlier signer, signed, finished)",
          params: LinkParams,
          response: { 200: LinkViewSchema, ...errors },
        },
        config: guarded(300),
      },
      async (request) => {
        const { state, signer } = await open(request, request.params.linkId);
        return view(request.params.linkId, state, signer.id);
      },
    );
  }

  for (const path of [`${base}/entries`, `${base}/entries/`]) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary:
            "The documents with every field (this signer's marked `mine`); opening them to sign takes the signing lease, or answers that another user signs",
          params: LinkParams,
          response: { 200: LinkEntrySchema.array(), ...errors },
        },
        config: guarded(300),
      },
      async (request) => {
        const { state, signer } = await open(request, request.params.linkId);
        if (signingState(state, signer.id) === 'ready' || signingState(state, signer.id) === 'signed') await hold(state, signer.id);
        return Object.values(state.entries).map((e) => ({
          id: e.id,
          name: e.name,
          size: e.size,
          sha256: e.sha256,
          pageCount: e.pageCount,
          contentUrl: `/api/esign-package-links/${request.params.linkId}/entries/${e.id}/content`,
          pins: Object.values(state.pins)
            .filter((p) => p.entryId === e.id)
            .map((p) => ({
              id: p.id,
              entryId: p.entryId,
              signerId: p.signerId,
              kind: p.kind,
              page: p.page,
              x: p.x,
              y: p.y,
              width: p.width,
              height: p.height,
              filled: p.filled,
              mine: p.signerId === signer.id,
              color: state.signers[p.signerId]?.color ?? 1,
            })),
        }));
      },
    );
  }

  app.get(
    `${base}/entries/:entryId/content`,
    { schema: { tags, summary: "A document's PDF as the owner added it", params: LinkEntryParams, response: errors }, config: guarded(300) },
    async (request, reply) => {
      const { state } = await open(request, request.params.linkId);
      const entry = state.entries[request.params.entryId];
      const doc = entry && (await readDocument(ctx.pool, ctx.secrets, state.packageId, entry.id));
      if (!entry || !doc) throw new DomainError(EsignErrors.entryNotFound);
      return sendPdf(reply, doc.bytes, entry.name, true);
    },
  );

  app.post(
    `${base}/lock/`,
    {
      schema: {
        tags,
        summary: 'Takes or renews the signing lease (the heartbeat, every ~20 s while signing)',
        params: LinkParams,
        response: { 200: LeaseSchema, ...errors },
      },
      config: guarded(600),
    },
    async (request) => {
      const { state, signer } = await open(request, request.params.linkId);
      const s = signingState(state, signer.id);
      if (s === 'finished') throw new DomainError(EsignErrors.alreadySigned);
      if (s === 'closed') throw new DomainError(state.status === 'completed' ? EsignErrors.completed : EsignErrors.notAwaiting);
      await hold(state, signer.id);
      return { expiresAt: new Date(ctx.now().getTime() + LEASE_MS).toISOString() };
    },
  );
  app.delete(
    `${base}/lock/`,
    { schema: { tags, summary: 'Lets go of the signing lease', params: LinkParams, response: { 204: z.null(), ...errors } }, config: guarded(600) },
    async (request, reply) => {
      const { state, signer } = await open(request, request.params.linkId);
      await releaseLease(ctx.pool, state.packageId, signer.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${base}/sign/`,
    {
      schema: {
        tags,
        summary: 'Signs with a typed name or a drawn PNG (data URL), filling every field of this signer',
        params: LinkParams,
        body: SignBody,
        response: { 200: LinkViewSchema, ...errors },
      },
      config: guarded(120),
    },
    async (request) => {
      const { state, signer } = await open(request, request.params.linkId);
      if (signingState(state, signer.id) === 'ready' || signingState(state, signer.id) === 'signed') await hold(state, signer.id);
      const meta = requestMeta(request);
      const result = await runEsignCommand(
        ctx,
        state.packageId,
        { type: 'Sign', data: { signerId: signer.id, signature: request.body.signature, ip: meta.ip, userAgent: meta.userAgent } },
        { actorId: null, actorKind: 'anonymous', ...meta },
      );
      return view(request.params.linkId, result.state, signer.id);
    },
  );

  app.post(
    `${base}/finish/`,
    {
      schema: {
        tags,
        summary: "Finishes this signer's signing; the last one's finish seals the completed document; with a signing order the next signer gets their mail",
        params: LinkParams,
        response: { 200: LinkViewSchema, ...errors },
      },
      config: guarded(60),
    },
    async (request) => {
      const { state, signer } = await open(request, request.params.linkId);
      if (signingState(state, signer.id) === 'ready' || signingState(state, signer.id) === 'signed') await hold(state, signer.id);
      const meta = requestMeta(request);
      const seal = await sealFor(ctx, deps.sealKey, state, signer.id, { ip: meta.ip, userAgent: meta.userAgent });
      const actor = { actorId: null, actorKind: 'anonymous' as const, ...meta };
      const result = await runEsignCommand(
        ctx,
        state.packageId,
        { type: 'FinishSigning', data: { signerId: signer.id, seal, ip: meta.ip, userAgent: meta.userAgent } },
        actor,
      );
      await releaseLease(ctx.pool, state.packageId, signer.id);
      if (result.state.status === 'awaiting_signatures') {
        // signers already due before this finish were mailed then: only those whose turn comes now are
        const before = new Set(
          Object.values(state.signers)
            .filter((s) => s.finishedAt === null && mayStartSigning(state, s.id))
            .map((s) => s.id),
        );
        const owner = await findUser(ctx.pool, state.ownerId);
        await mailDueSigners(ctx, result.state, { email: owner?.email ?? null, locale: owner?.locale ?? 'en_us' }, before, actor);
      }
      return view(request.params.linkId, result.state, signer.id);
    },
  );

  for (const path of [`${base}/document`, `${base}/document/`]) {
    app.get(
      path,
      { schema: { tags, summary: 'The completed, sealed PDF, once every signer has finished', params: LinkParams, response: errors }, config: guarded(120) },
      async (request, reply) => {
        const { state } = await open(request, request.params.linkId);
        const doc = await sealedDocument(ctx, state);
        if (!doc) throw new DomainError(EsignErrors.documentNotReady, { status: state.status });
        return sendPdf(reply, doc.bytes, `${state.name} (signed).pdf`, false);
      },
    );
  }
};
