import { createHash } from 'node:crypto';
import {
  DomainError,
  E2eeErrors,
  e2eeDecider,
  e2eeKeysStreamName,
  type E2eeCommand,
  shareSignaturesDecider,
  shareSignaturesStreamName,
  type ShareSignatureCommand,
  StorageErrors,
} from '@axel/domain';
import { e2eeKeysOf, signaturesOfShare, type E2eeKeysRow } from '@axel/projections/e2ee/e2ee.queries';
import type { CommandContext } from '@axel/platform';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { readSignature } from 'openpgp';
import { cachedStreamCommands } from '../../cached-stream';
import type { AppContext } from '../../context';
import { requireSelf, requireUser } from '../../http/auth';
import { limitsFor } from '../../http/rate-limits';
import { userActor } from '../../http/request-meta';
import { entitlementsOf } from '../billing/billing.service';
import { parentsOf } from '../files/storage.service';
import { loadShare } from '../sharing/shares.read';
import { ownShareOrNotFound } from '../sharing/sharing.service';
import { checkedPrivateKey } from './e2ee.keys';
import { DefaultsBody, KeyBody, ShareParams, SignatureBody, tags, UserParams } from './e2ee.schema';

const runE2ee = cachedStreamCommands(e2eeDecider);
const runSignatures = cachedStreamCommands(shareSignaturesDecider);

/** What the user info and the settings page show of the end-to-end key (spec §3 User info). */
export const e2eeJson = (row: E2eeKeysRow | null, hasE2EEAccess: boolean) => ({
  hasE2EEAccess,
  passphraseSet: !!row?.private_key,
  e2eePrivateKey: row?.private_key ?? null,
  e2eePublicKey: row?.public_key ?? null,
  e2eePassphraseHint: row?.hint ?? null,
  e2eeKeyFingerprint: row?.fingerprint ?? null,
  e2eeKeyResetAt: row?.key_reset_at?.toISOString() ?? null,
  encryptionDefault: row?.encryption_default ?? false,
  e2eeEnabledGlobalDefault: row?.global_default ?? false,
});

const COMMAND_OF = { set: 'SetPassphraseKey', change: 'ChangePassphrase', reset: 'ResetPassphrase' } as const;

/** The end-to-end key and defaults of a user (settings: passphrase, end-to-end switch), and shared files' signatures. */
export const e2eeRoutes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const writes = limit({ perIp: 120, perAccount: 60 });

  const run = async (userId: string, command: Omit<E2eeCommand, 'metadata'>, actor: CommandContext) => {
    const result = await runE2ee(ctx, e2eeKeysStreamName(userId), command, actor, (full, state) => e2eeDecider.decide(full as E2eeCommand, state));
    if (result.position) await ctx.caughtUp(result.position);
  };
  const answer = async (userId: string) => e2eeJson(await e2eeKeysOf(ctx.pool, userId), (await entitlementsOf(ctx, userId)).flags.hasE2EEAccess);

  app.get(
    '/api/users/:id/e2ee/',
    { schema: { tags, summary: 'The end-to-end key (locked by its passphrase), its hint and the defaults', params: UserParams } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      return answer(user.id);
    },
  );

  app.put(
    '/api/users/:id/e2ee/key',
    {
      schema: {
        tags,
        summary: 'Set the passphrase (a first key), change it (the same key re-protected) or reset it (a new key: older files become unreadable)',
        params: UserParams,
        body: KeyBody,
      },
      config: writes,
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const key = await checkedPrivateKey(request.body.privateKey);
      const hasAccess = (await entitlementsOf(ctx, user.id)).flags.hasE2EEAccess;
      await run(user.id, { type: COMMAND_OF[request.body.mode], data: { key, hint: request.body.hint, hasAccess } }, userActor(request, user.id));
      return answer(user.id);
    },
  );

  app.put(
    '/api/users/:id/e2ee/settings',
    { schema: { tags, summary: 'The end-to-end switch and the default for new uploads', params: UserParams, body: DefaultsBody }, config: writes },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const hasAccess = (await entitlementsOf(ctx, user.id)).flags.hasE2EEAccess;
      await run(user.id, { type: 'ChangeE2eeDefaults', data: { ...request.body, hasAccess } }, userActor(request, user.id));
      return answer(user.id);
    },
  );

  /** Whether the file is one the share gives: one of its items, or inside one of its folders. */
  const sharedFile = async (share: { storageId: string; items: readonly { id: string }[] }, fileId: string) => {
    const shared = new Set(share.items.map((i) => i.id));
    if (shared.has(fileId)) return true;
    return (await parentsOf(ctx, share.storageId, fileId)).some((p) => shared.has(p.id));
  };

  app.post(
    '/api/shares/:id/pgp-signatures',
    {
      schema: {
        tags,
        summary: "Keep a shared file's detached OpenPGP signature, verified in the recipient's browser",
        params: ShareParams,
        body: SignatureBody,
      },
      config: writes,
    },
    async (request, reply) => {
      const { user } = await requireUser(ctx, request);
      const { state } = await loadShare(ctx, request.params.id);
      const share = ownShareOrNotFound(state, user.id);
      const body = request.body;
      if (!(await sharedFile(share, body.signedFileId))) throw new DomainError(StorageErrors.fileNotAccessible);
      let signerKeyId: string;
      try {
        const signature = await readSignature({ armoredSignature: body.pgpmessage });
        signerKeyId = signature.getSigningKeyIDs()[0]?.toHex() ?? '';
      } catch {
        throw new DomainError(E2eeErrors.invalidSignature);
      }
      const signatureId = createHash('sha256').update(`${body.signedFileId}\u0000${body.pgpmessage}`).digest('hex').slice(0, 32);
      const command: Omit<ShareSignatureCommand, 'metadata'> = {
        type: 'AddShareSignature',
        data: {
          signatureId,
          ownerId: user.id,
          signedFileId: body.signedFileId,
          signedFileName: body.signedFileName,
          mime: body.mime ?? null,
          size: body.size ?? null,
          signerKeyId,
          pgpmessage: body.pgpmessage,
        },
      };
      const result = await runSignatures(ctx, shareSignaturesStreamName(share.id), command, userActor(request, user.id), (full, s) =>
        shareSignaturesDecider.decide(full as ShareSignatureCommand, s),
      );
      if (result.position) await ctx.caughtUp(result.position);
      return reply.status(201).send({ id: signatureId, shareId: share.id, signedFileId: body.signedFileId, signerKeyId });
    },
  );

  app.get('/api/shares/:id/pgp-signatures', { schema: { tags, summary: "The signatures kept for a share's files", params: ShareParams } }, async (request) => {
    const { user } = await requireUser(ctx, request);
    const { state } = await loadShare(ctx, request.params.id);
    const share = ownShareOrNotFound(state, user.id);
    const rows = await signaturesOfShare(ctx.pool, share.id);
    return {
      data: rows.map((r) => ({
        id: r.id,
        signedFileId: r.signed_file_id,
        signedFileName: r.signed_file_name,
        mime: r.mime,
        size: r.size === null ? null : Number(r.size),
        signerKeyId: r.signer_key_id,
        pgpmessage: r.pgpmessage,
        createdAt: r.created_at.toISOString(),
      })),
    };
  });
};
