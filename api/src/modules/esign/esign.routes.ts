import { randomBytes, randomUUID } from 'node:crypto';
import { DomainError, EsignErrors } from '@axel/domain';
import { listEsignPackages, type EsignPackageRow } from '@axel/projections/esign/esign.queries';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireSelf } from '../../http/auth';
import { limitsFor } from '../../http/rate-limits';
import { userActor } from '../../http/request-meta';
import { randomToken } from '../../secrets';
import { hashPassword } from '../accounts/passwords';
import type { StorageBytes } from '../files/storage.bytes';
import { contentDisposition } from '../files/storage-downloads';
import {
  AddEntryBody,
  AddSignerBody,
  CreatePackageBody,
  EntriesQuery,
  EntryParams,
  EntrySchema,
  ErrorSchema,
  ListQuery,
  PackageDetailSchema,
  PackagePageSchema,
  PackageParams,
  PackageSchema,
  PinParams,
  PinSchema,
  PlacePinBody,
  SendBody,
  SentSchema,
  SignerParams,
  SignerSchema,
  OwnerParams,
} from './esign.schema';
import {
  entryJson,
  mailDueSigners,
  ownedPackage,
  packageJson,
  pdfFromStorage,
  pinJson,
  requireEsignPlan,
  runEsignCommand,
  sealedDocument,
  signerJson,
  type EsignPlanOf,
} from './esign.service';
import { dropDocument, dropPackageDocuments, readDocument, saveDocument } from './esign.store';

const tags = ['esign'];
const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema };

const rowJson = (r: EsignPackageRow) => ({
  id: r.id,
  name: r.name,
  message: r.message,
  status: r.status,
  createdAt: r.created_at.toISOString(),
  modifiedAt: r.modified_at.toISOString(),
  sentAt: r.sent_at?.toISOString() ?? null,
  completedAt: r.completed_at?.toISOString() ?? null,
  documentSha256: r.document_sha256,
  entriesCount: r.entries_count,
  signersCount: r.signers_count,
  finishedCount: r.finished_count,
});

/** A signer's link id: 16 random bytes, base64url (22 characters), like a share's. */
const newLinkId = () => randomBytes(16).toString('base64url');

export const sendPdf = (reply: FastifyReply, bytes: Uint8Array, name: string, inline: boolean) =>
  reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', contentDisposition(name, inline))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "sandbox; default-src 'none'")
    .header('cache-control', 'private, no-store')
    .send(Buffer.from(bytes));

/** `/users/{id}/esign/packages/`: the owner's packages, their documents, signers and fields, sending, the sealed document. */
export const esignOwnerRoutes = (ctx: AppContext, deps: { bytes: StorageBytes; planOf: EsignPlanOf }) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const writes = limit({ perIp: 240 });
  const base = '/api/users/:id/esign/packages';

  const detail = async (state: Awaited<ReturnType<typeof ownedPackage>>) => ({
    ...(await packageJson(ctx, state)),
    entries: entryJson(state),
    links: Object.values(state.signers).map(signerJson),
    pins: pinJson(state),
  });

  for (const path of [base, `${base}/`]) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary: 'Your e-sign packages, last changed first, 500 a page; `status` narrows to draft, awaiting_signatures, completed or archived',
          params: OwnerParams,
          querystring: ListQuery,
          response: { 200: PackagePageSchema, ...errors },
        },
      },
      async (request) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        const q = request.query;
        const { rows, total } = await listEsignPackages(ctx.pool, user.id, q);
        return { data: rows.map(rowJson), totalCount: total, page: q.page, perPage: q.perPage };
      },
    );
    app.post(
      path,
      {
        schema: {
          tags,
          summary: 'A new draft package (eSign is on the Professional, Team and Enterprise plans); the name has no special characters',
          params: OwnerParams,
          body: CreatePackageBody,
          response: { 201: PackageSchema, ...errors },
        },
        config: writes,
      },
      async (request, reply) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        await requireEsignPlan(ctx, deps.planOf, user.id);
        const packageId = randomUUID();
        const { state } = await runEsignCommand(
          ctx,
          packageId,
          { type: 'CreatePackage', data: { packageId, ownerId: user.id, name: request.body.name, message: request.body.message ?? null } },
          userActor(request, user.id),
        );
        return reply.status(201).send(await packageJson(ctx, state));
      },
    );
  }

  for (const path of [`${base}/:packageId`, `${base}/:packageId/`]) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary: 'A package with its documents, signers (links) and fields',
          params: PackageParams,
          response: { 200: PackageDetailSchema, ...errors },
        },
      },
      async (request) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        return detail(await ownedPackage(ctx, user.id, request.params.packageId));
      },
    );
    app.delete(
      path,
      { schema: { tags, summary: 'Deletes a package; its links stop working', params: PackageParams, response: { 204: z.null(), ...errors } }, config: writes },
      async (request, reply) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        await ownedPackage(ctx, user.id, request.params.packageId);
        await runEsignCommand(ctx, request.params.packageId, { type: 'DeletePackage', data: {} }, userActor(request, user.id));
        await dropPackageDocuments(ctx.pool, request.params.packageId);
        return reply.status(204).send(null);
      },
    );
  }

  for (const [action, type] of [
    ['archive', 'ArchivePackage'],
    ['unarchive', 'UnarchivePackage'],
  ] as const) {
    app.post(
      `${base}/:packageId/${action}/`,
      {
        schema: {
          tags,
          summary: `${action === 'archive' ? 'Archives' : 'Unarchives'} a package`,
          params: PackageParams,
          response: { 200: PackageSchema, ...errors },
        },
        config: writes,
      },
      async (request) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        await ownedPackage(ctx, user.id, request.params.packageId);
        const { state } = await runEsignCommand(ctx, request.params.packageId, { type, data: {} }, userActor(request, user.id));
        return packageJson(ctx, state);
      },
    );
  }

  for (const path of [`${base}/:packageId/entries`, `${base}/:packageId/entries/`]) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary: "The package's documents; with q=download-url each carries the URL of its PDF",
          params: PackageParams,
          querystring: EntriesQuery,
          response: { 200: EntrySchema.array(), ...errors },
        },
      },
      async (request) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        const state = await ownedPackage(ctx, user.id, request.params.packageId);
        const prefix = `/api/users/${user.id}/esign/packages/${state.packageId}/entries`;
        return entryJson(state).map((e) => (request.query.q === 'download-url' ? { ...e, downloadUrl: `${prefix}/${e.id}/content` } : e));
      },
    );
    app.post(
      path,
      {
        schema: {
          tags,
          summary: 'Adds a PDF of your storage to a draft package (PDF only)',
          params: PackageParams,
          body: AddEntryBody,
          response: { 201: EntrySchema, ...errors },
        },
        config: limit({ perIp: 60 }),
      },
      async (request, reply) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        const state = await ownedPackage(ctx, user.id, request.params.packageId);
        if (state.status !== 'draft') throw new DomainError(EsignErrors.notDraft, { status: state.status });
        const actor = userActor(request, user.id);
        const pdf = await pdfFromStorage(ctx, deps.bytes, user.id, request.body, actor);
        if (pdf.pageCount === null) throw new DomainError(EsignErrors.pdfOnly, { fileId: pdf.item.id });
        const entryId = randomUUID();
        const sha256 = await saveDocument(ctx.pool, ctx.secrets, { packageId: state.packageId, documentId: entryId, ownerId: user.id, bytes: pdf.content });
        try {
          const result = await runEsignCommand(
            ctx,
            state.packageId,
            {
              type: 'AddEntry',
              data: { entryId, fileId: pdf.item.id, name: pdf.item.name, mime: pdf.mime, size: pdf.content.length, sha256, pageCount: pdf.pageCount },
            },
            actor,
          );
          return reply.status(201).send(entryJson(result.state).find((e) => e.id === entryId)!);
        } catch (error) {
          await dropDocument(ctx.pool, state.packageId, entryId);
          throw error;
        }
      },
    );
  }
  app.delete(
    `${base}/:packageId/entries/:entryId`,
    {
      schema: { tags, summary: 'Removes a document (and its fields) from a draft package', params: EntryParams, response: { 204: z.null(), ...errors } },
      config: writes,
    },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      await ownedPackage(ctx, user.id, request.params.packageId);
      await runEsignCommand(ctx, request.params.packageId, { type: 'RemoveEntry', data: { entryId: request.params.entryId } }, userActor(request, user.id));
      await dropDocument(ctx.pool, request.params.packageId, request.params.entryId);
      return reply.status(204).send(null);
    },
  );
  app.get(
    `${base}/:packageId/entries/:entryId/content`,
    { schema: { tags, summary: "A document's PDF as it was added", params: EntryParams, response: errors } },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const state = await ownedPackage(ctx, user.id, request.params.packageId);
      const entry = state.entries[request.params.entryId];
      const doc = entry && (await readDocument(ctx.pool, ctx.secrets, state.packageId, entry.id));
      if (!entry || !doc) throw new DomainError(EsignErrors.entryNotFound);
      return sendPdf(reply, doc.bytes, entry.name, true);
    },
  );

  for (const path of [`${base}/:packageId/links`, `${base}/:packageId/links/`]) {
    app.get(
      path,
      {
        schema: { tags, summary: "The package's signers, each with their link id", params: PackageParams, response: { 200: SignerSchema.array(), ...errors } },
      },
      async (request) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        return Object.values((await ownedPackage(ctx, user.id, request.params.packageId)).signers).map(signerJson);
      },
    );
    app.post(
      path,
      {
        schema: {
          tags,
          summary: 'Adds a signer (e-mail unique in the package, color 1 to 10, optional signing order)',
          params: PackageParams,
          body: AddSignerBody,
          response: { 201: SignerSchema, ...errors },
        },
        config: writes,
      },
      async (request, reply) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        await ownedPackage(ctx, user.id, request.params.packageId);
        const signerId = randomUUID();
        const { name, email, color, order } = request.body;
        const { state } = await runEsignCommand(
          ctx,
          request.params.packageId,
          { type: 'AddSigner', data: { signerId, linkId: newLinkId(), name, email, color, order: order ?? null } },
          userActor(request, user.id),
        );
        return reply.status(201).send(signerJson(state.signers[signerId]!));
      },
    );
  }
  app.delete(
    `${base}/:packageId/links/:signerId`,
    {
      schema: { tags, summary: 'Removes a signer (and their fields) from a draft package', params: SignerParams, response: { 204: z.null(), ...errors } },
      config: writes,
    },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      await ownedPackage(ctx, user.id, request.params.packageId);
      await runEsignCommand(ctx, request.params.packageId, { type: 'RemoveSigner', data: { signerId: request.params.signerId } }, userActor(request, user.id));
      return reply.status(204).send(null);
    },
  );

  for (const path of [`${base}/:packageId/pins`, `${base}/:packageId/pins/`]) {
    app.get(
      path,
      { schema: { tags, summary: "The package's fields", params: PackageParams, response: { 200: PinSchema.array(), ...errors } } },
      async (request) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        return pinJson(await ownedPackage(ctx, user.id, request.params.packageId));
      },
    );
    app.post(
      path,
      {
        schema: {
          tags,
          summary: "Places a signer's field on a page: position and size as fractions of the page's unrotated CropBox, from its top-left corner",
          params: PackageParams,
          body: PlacePinBody,
          response: { 201: PinSchema, ...errors },
        },
        config: writes,
      },
      async (request, reply) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        await ownedPackage(ctx, user.id, request.params.packageId);
        const pinId = randomUUID();
        const { state } = await runEsignCommand(
          ctx,
          request.params.packageId,
          { type: 'PlacePin', data: { pinId, ...request.body } },
          userActor(request, user.id),
        );
        return reply.status(201).send(pinJson(state).find((p) => p.id === pinId)!);
      },
    );
  }
  app.delete(
    `${base}/:packageId/pins/:pinId`,
    { schema: { tags, summary: 'Removes a field from a draft package', params: PinParams, response: { 204: z.null(), ...errors } }, config: writes },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      await ownedPackage(ctx, user.id, request.params.packageId);
      await runEsignCommand(ctx, request.params.packageId, { type: 'RemovePin', data: { pinId: request.params.pinId } }, userActor(request, user.id));
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${base}/:packageId/send/`,
    {
      schema: {
        tags,
        summary:
          'Sends the package: each signer whose turn it is gets an e-mail with their link; the password (given, or made here and answered once) goes to them by a channel of your choice',
        params: PackageParams,
        body: SendBody,
        response: { 200: SentSchema, ...errors },
      },
      config: limit({ perIp: 30 }),
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      await requireEsignPlan(ctx, deps.planOf, user.id);
      await ownedPackage(ctx, user.id, request.params.packageId);
      const given = request.body?.password;
      const password = given ?? randomToken(9);
      const actor = userActor(request, user.id);
      const { state, events } = await runEsignCommand(
        ctx,
        request.params.packageId,
        { type: 'SendPackage', data: { passwordHash: await hashPassword(password) } },
        actor,
      );
      if (events.length) await mailDueSigners(ctx, state, { email: user.email, locale: user.locale }, new Set(), actor);
      return { ...(await packageJson(ctx, state)), ...(given ? {} : { password }) };
    },
  );

  for (const path of [`${base}/:packageId/document`, `${base}/:packageId/document/`]) {
    app.get(
      path,
      { schema: { tags, summary: 'The completed, sealed PDF (PAdES-signed, with its certificate page)', params: PackageParams, response: errors } },
      async (request, reply) => {
        const { user } = await requireSelf(ctx, request, request.params.id);
        const state = await ownedPackage(ctx, user.id, request.params.packageId);
        const doc = await sealedDocument(ctx, state);
        if (!doc) throw new DomainError(EsignErrors.documentNotReady, { status: state.status });
        return sendPdf(reply, doc.bytes, `${state.name} (signed).pdf`, false);
      },
    );
  }
};
