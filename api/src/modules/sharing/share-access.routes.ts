import {
  checkSharedFileSize,
  decideShareAccess,
  decideShareArchiveHandOut,
  decideShareArchiveServe,
  decideShareLink,
  DomainError,
  DOWNLOAD_TOTAL_MAX_BYTES,
  ShareAccessErrors,
  SharingErrors,
  StorageErrors,
  type ShareRecord,
} from '@axel/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { requireUser } from '../../http/auth';
import { safeEqual } from '../../secrets';
import { entitlementsOf } from '../billing/billing.service';
import { archiveEntries, archiveFileName, loadShareArchiveTask, recordArchiveTask, sendArchive } from '../files/storage-archives';
import { SIGNED_URL_TTL_MS } from '../files/storage-downloads';
import type { StorageBytes } from '../files/storage.bytes';
import {
  DOWNLOAD_URL_TTL_MS,
  passwordStamp,
  readAccessToken,
  readSignedDownload,
  shareAccessVersion,
  signDownload,
  type ShareVisit,
} from './share-access.credentials';
import {
  fromFirstByte,
  letIn,
  listEntries,
  OBJECT_ACCESS_HEADER,
  optionalUser,
  recordAccess,
  refuseViewOnly,
  sendSharedFile,
  sharedEntry,
  shareEntryJson,
  shareSummary,
  sizeOfEntries,
  visitActor,
} from './share-access.service';
import { accessLogOf } from './share-access.summary';
import { shareBrandingOf } from './share-branding';
import { loadShare, loadShareByLinkId, shareOwnersOf, withSharedSize } from './shares.read';

const tags = ['sharing'];
const linkId = z.string().min(1).max(64);
const entryId = z.string().min(1).max(64);
const shareId = z.string().min(1).max(64);
const LinkParams = z.object({ linkId });
const LinkEntryParams = z.object({ linkId, entryId });
const ShareParams = z.object({ id: shareId });
const ShareEntryParams = z.object({ id: shareId, entryId });
const yes = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const EntriesQuery = z.object({
  vertexId: entryId.optional(),
  /** Secure Fetch folders are listed the same way inside a share. */
  sfFolderId: entryId.optional(),
  name: z.string().min(1).max(255).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(500),
});
const EntryQuery = z.object({ q: z.enum(['download-url']).optional(), inline: yes.optional() });
const ArchiveBody = z.object({ itemIds: z.array(entryId).min(1).max(500).optional(), archiveName: z.string().min(1).max(255).optional() });
const taskId = z.string().min(1).max(64);
const ArchiveUrlQuery = z.object({ shareId, archiveTaskId: taskId });
const ArchiveParams = z.object({ linkId, taskId });
const SignedArchiveQuery = z.object({ expires: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER), signature: z.string().max(200) });
const AccessLogQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(50),
});
const DownloadUrl = z.object({ url: z.string(), expiresAt: z.string() });

/** The owner's own live share, or 404 whether it exists or not. */
const ownShare = async (ctx: AppContext, request: FastifyRequest, id: string): Promise<{ share: ShareRecord; userId: string }> => {
  const { user } = await requireUser(ctx, request);
  const { state } = await loadShare(ctx, id);
  if (state.status === 'none' || state.status === 'deleted' || state.ownerId !== user.id) throw new DomainError(SharingErrors.shareNotFound);
  return { share: state, userId: user.id };
};

export const shareAccessRoutes = (ctx: AppContext, bytes: StorageBytes) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  /**
   * Anonymous calls on a link, per client address, and per link and client address together. A
   * visit that holds a valid token spends no password check and is not counted, so a crowd that
   * was let in never locks out the next visitor; one client's password guesses are. Guesses from
   * many clients on one link are slowed down link-wide in `letIn`, where a right password still
   * gets in: nobody can shut a link for everyone.
   */
  const anonymous = (perIp: number) =>
    limit({
      perIp,
      perAccount: 60,
      account: (r) => `share-link:${(r.params as { linkId?: string }).linkId ?? ''}|${r.ip}`,
      accountTrusted: async (r) => {
        const token = r.headers[OBJECT_ACCESS_HEADER];
        const link = (r.params as { linkId?: string }).linkId;
        if (typeof token !== 'string' || !link) return false;
        const { state } = await loadShareByLinkId(ctx, link);
        return state.status !== 'none' && readAccessToken(ctx.secrets, token, { linkId: link, passwordHash: state.passwordHash, now: ctx.now() }) !== null;
      },
    });

  /** Whether the owner's plan lifts the 10 MiB rule on shared files, as it is now. */
  const unlimitedFiles = async (share: ShareRecord) => (await entitlementsOf(ctx, share.ownerId)).permissions.includes('unlimited-shared-file-size');
  /** The 10 MiB rule where a shared file's bytes leave, whenever the file came into the share. */
  const checkSharedFile = async (share: ShareRecord, entry: { id: string; size: string | number }) => {
    checkSharedFileSize({ id: entry.id, size: Number(entry.size) }, await unlimitedFiles(share));
  };

  const downloadUrl = (share: ShareRecord, visit: ShareVisit, entry: string, inline: boolean, userId: string | null) => {
    const expiresAt = ctx.now().getTime() + DOWNLOAD_URL_TTL_MS;
    const t = signDownload(
      ctx.secrets,
      { linkId: share.linkId, entryId: entry, visitId: visit.visitId, email: visit.email, inline, expiresAt, userId },
      shareAccessVersion(ctx.secrets, share),
    );
    return {
      // relative: the page that asked may be on any host name of this server (its CSP allows only its own origin)
      url: `/api/share-links/${share.linkId}/download/${entry}?${new URLSearchParams({ t }).toString()}`,
      expiresAt: new Date(expiresAt).toISOString(),
    };
  };

  const entryAnswer = async (share: ShareRecord, visit: ShareVisit, id: string, query: z.infer<typeof EntryQuery>, userId: string | null) => {
    const entry = await sharedEntry(ctx, share, id);
    if (!entry) throw new DomainError(StorageErrors.itemNotFound);
    if (query.q !== 'download-url') return shareEntryJson(share, entry);
    if (entry.label !== 'file') throw new DomainError(ShareAccessErrors.notAFile);
    const inline = query.inline ?? false;
    refuseViewOnly(share, entry, inline);
    if (userId !== share.ownerId) await checkSharedFile(share, entry);
    return downloadUrl(share, visit, entry.id, inline, userId);
  };

  app.get(
    '/api/share-links/:linkId',
    {
      schema: {
        tags,
        summary: "A share link's summary once let in; refusals name what is missing (password, e-mail, login) in `data`",
        params: LinkParams,
      },
      config: anonymous(300),
    },
    async (request, reply) => {
      const { share } = await letIn(ctx, request, reply, request.params.linkId);
      const [owners, branding] = await Promise.all([shareOwnersOf(ctx, [share.ownerId]), shareBrandingOf(ctx, share.ownerId)]);
      return { ...shareSummary(await withSharedSize(ctx, share), owners.get(share.ownerId) ?? null), branding };
    },
  );

  app.get(
    '/api/share-links/:linkId/entries/',
    {
      schema: { tags, summary: 'The shared items, or a folder inside the share (`vertexId`)', params: LinkParams, querystring: EntriesQuery },
      config: anonymous(300),
    },
    async (request, reply) => {
      const { share } = await letIn(ctx, request, reply, request.params.linkId);
      const { sfFolderId, vertexId, ...rest } = request.query;
      return listEntries(ctx, share, { ...rest, vertexId: vertexId ?? sfFolderId });
    },
  );

  app.get(
    '/api/share-links/:linkId/entries/:entryId',
    {
      schema: {
        tags,
        summary: 'An entry of the share; `q=download-url` answers a signed URL of its bytes (`inline=true` for a preview)',
        params: LinkEntryParams,
        querystring: EntryQuery,
      },
      config: anonymous(300),
    },
    async (request, reply) => {
      const { share, visit, user } = await letIn(ctx, request, reply, request.params.linkId);
      return entryAnswer(share, visit, request.params.entryId, request.query, user?.id ?? null);
    },
  );

  app.get(
    '/api/share-links/:linkId/download/:entryId',
    {
      schema: {
        tags,
        summary: 'The decrypted bytes of a shared file behind a signed URL (HTTP Range; attachment, or inline for a preview)',
        params: LinkEntryParams,
        querystring: z.object({ t: z.string().min(1).max(2000) }),
      },
      config: limit({ perIp: 600 }),
    },
    async (request, reply) => {
      const { linkId: link, entryId: id } = request.params;
      const now = ctx.now();
      const { state } = await loadShareByLinkId(ctx, link);
      const version = shareAccessVersion(ctx.secrets, state.status === 'none' ? null : state);
      const signed = readSignedDownload(ctx.secrets, request.query.t, { linkId: link, entryId: id, access: version, now });
      if (!signed) {
        // handed out before the share was revoked: it says so, as the share's page does
        const gone = decideShareLink(state, { now, viewer: { userId: null, email: null } });
        throw new DomainError(state.status === 'revoked' && !gone.ok ? gone.error : StorageErrors.invalidUrl);
      }
      // revoked, expired, deleted or the recipient blocked since the URL was handed out: no more bytes
      const access = decideShareAccess(state, { now, viewer: { userId: signed.userId, email: signed.email }, passwordOk: true });
      if (!access.ok) throw new DomainError(access.error);
      const share = state as ShareRecord;
      const entry = await sharedEntry(ctx, share, id);
      if (!entry || entry.label !== 'file') throw new DomainError(StorageErrors.fileDeleted);
      const isOwner = signed.userId === share.ownerId;
      if (!isOwner) refuseViewOnly(share, entry, signed.inline);
      if (!isOwner) await checkSharedFile(share, entry);
      if (!signed.inline && !isOwner && request.method === 'GET' && fromFirstByte(request, Number(entry.size))) {
        const data = {
          shareId: share.id,
          ownerId: share.ownerId,
          kind: share.kind,
          visitId: signed.visitId,
          recipientEmail: signed.email,
          access,
          entryId: entry.id,
          archive: false,
        };
        await recordAccess(ctx, share, { type: 'RecordShareDownload', data }, visitActor(request, share.id, await optionalUser(ctx, request)));
      }
      return sendSharedFile(bytes.content, request, reply, entry, signed.inline);
    },
  );

  const archiveMac = (link: string, task: string, expires: number) => ctx.secrets.mac(['share-archive', link, task, String(expires)].join('\u0000'));
  /** The signed, short-lived URL of a share archive's zip: served through the share, while the share lets its visit in. */
  const shareArchiveUrl = (share: ShareRecord, task: string) => {
    const expires = ctx.now().getTime() + SIGNED_URL_TTL_MS;
    const query = new URLSearchParams({ expires: String(expires), signature: archiveMac(share.linkId, task, expires) });
    return { url: `${ctx.config.publicUrl}/api/share-links/${share.linkId}/archives/${task}/?${query.toString()}`, expiresAt: new Date(expires).toISOString() };
  };

  /** The files of an archive's entries, each held to the 10 MiB rule unless the owner reads them. */
  const archiveFilesOf = async (share: ShareRecord, itemIds: readonly string[], byOwner: boolean) => {
    const entries = await archiveEntries(ctx, share.ownerId, itemIds);
    if (!byOwner) {
      const unlimited = await unlimitedFiles(share);
      for (const e of entries) if (e.label === 'file') checkSharedFileSize({ id: e.id, size: Number(e.size) }, unlimited);
    }
    return entries;
  };

  /**
   * An archive of shared entries (all of them unless named), recorded as a storage archive task of
   * the owner's items that belongs to this share and this visit (or the owner's session).
   */
  const startArchive = async (share: ShareRecord, body: z.infer<typeof ArchiveBody>, visit: ShareVisit, userId: string | null) => {
    if (!share.downloadable) throw new DomainError(ShareAccessErrors.viewOnly);
    const archiveName = archiveFileName(body.archiveName, share.title);
    const named = body.itemIds !== undefined;
    const itemIds: string[] = [];
    // named entries must all be there; the whole share is what it still holds
    for (const id of new Set(body.itemIds ?? share.items.map((i) => i.id))) {
      if (await sharedEntry(ctx, share, id)) itemIds.push(id);
      else if (named) throw new DomainError(StorageErrors.itemNotFound, { itemId: id });
    }
    if (!itemIds.length) throw new DomainError(SharingErrors.shareEntryEmpty);
    const size = await sizeOfEntries(ctx, share, itemIds);
    if (size > DOWNLOAD_TOTAL_MAX_BYTES) throw new DomainError(StorageErrors.downloadSizeExceeded, { size });
    await archiveFilesOf(share, itemIds, userId === share.ownerId);
    const binding = { shareId: share.id, visitId: visit.visitId, email: visit.email, userId, passwordStamp: passwordStamp(ctx.secrets, share.passwordHash) };
    const id = await recordArchiveTask(ctx, share.ownerId, itemIds, archiveName, binding);
    return { id, status: 'done' as const, type: 'archive' as const, size };
  };

  app.post(
    '/api/share-links/:linkId/archive-tasks/',
    {
      schema: {
        tags,
        summary: 'Start an archive of the shared entries (at most 10 GB); its URL comes from /urls/share-archive-download/',
        params: LinkParams,
        body: ArchiveBody,
      },
      config: anonymous(30),
    },
    async (request, reply) => {
      const { share, visit, user } = await letIn(ctx, request, reply, request.params.linkId);
      return reply.status(201).send(await startArchive(share, request.body, visit, user?.id ?? null));
    },
  );

  app.post(
    '/api/shares/:id/archive-tasks/',
    {
      schema: { tags, summary: "Start an archive of the owner's shared entries", params: ShareParams, body: ArchiveBody },
      config: limit({ perIp: 120, perAccount: 60 }),
    },
    async (request, reply) => {
      const { share, userId } = await ownShare(ctx, request, request.params.id);
      return reply.status(201).send(await startArchive({ ...share, downloadable: true }, request.body, ownerVisit(share, userId), userId));
    },
  );

  app.get(
    '/api/urls/share-archive-download/',
    {
      schema: {
        tags,
        summary:
          "The signed URL of a share archive's zip, for the visit (or the owner) that made it; `shareId` is the link id for visitors, the share's id for its owner",
        querystring: ArchiveUrlQuery,
        response: { 200: DownloadUrl },
      },
      config: limit({ perIp: 120, perAccount: 60, account: (r) => `share-link:${(r.query as { shareId?: string }).shareId ?? ''}|${r.ip}` }),
    },
    async (request, reply) => {
      const { shareId: given, archiveTaskId } = request.query;
      const owner = /^[0-9a-f-]{36}$/i.test(given);
      const visitor = owner ? null : await letIn(ctx, request, reply, given);
      const own = visitor ? null : await ownShare(ctx, request, given);
      const share = visitor?.share ?? own!.share;
      const visit = visitor?.visit ?? ownerVisit(share, own!.userId);
      if (visitor && !share.downloadable) throw new DomainError(ShareAccessErrors.viewOnly);
      const task = await loadShareArchiveTask(ctx, archiveTaskId);
      const handOut = decideShareArchiveHandOut(task?.binding ?? null, { shareId: share.id, visitId: visit.visitId });
      if (!handOut.ok || !task || task.ownerId !== share.ownerId) throw new DomainError(StorageErrors.taskNotFound);
      // a visitor's archive download is recorded when its URL is handed out
      if (visitor && !visitor.isOwner) {
        const data = {
          shareId: share.id,
          ownerId: share.ownerId,
          kind: share.kind,
          visitId: visit.visitId,
          recipientEmail: visit.email,
          access: { ok: true as const },
          entryId: task.id,
          archive: true,
        };
        await recordAccess(ctx, share, { type: 'RecordShareDownload', data }, visitActor(request, share.id, visitor.user));
      }
      return shareArchiveUrl(share, task.id);
    },
  );

  app.get(
    '/api/share-links/:linkId/archives/:taskId/',
    {
      schema: {
        tags,
        summary: "A share archive's zip behind a signed URL: served while the share still lets in the visit that made it, with what the share still holds",
        params: ArchiveParams,
        querystring: SignedArchiveQuery,
      },
      config: limit({ perIp: 600 }),
    },
    async (request, reply) => {
      const { linkId: link, taskId: id } = request.params;
      const { expires, signature } = request.query;
      const now = ctx.now();
      if (!safeEqual(signature, archiveMac(link, id, expires)) || expires < now.getTime()) throw new DomainError(StorageErrors.invalidUrl);
      const task = await loadShareArchiveTask(ctx, id);
      if (!task?.binding) throw new DomainError(StorageErrors.taskNotFound);
      const { state } = await loadShareByLinkId(ctx, link);
      const stamp = state.status === 'none' ? '' : passwordStamp(ctx.secrets, state.passwordHash);
      const verdict = decideShareArchiveServe(task.binding, state, { now, passwordStamp: stamp });
      if (!verdict.ok) throw new DomainError(verdict.error);
      const share = state as ShareRecord;
      if (share.ownerId !== task.ownerId) throw new DomainError(StorageErrors.taskNotFound);
      // only what the share still holds now (an item taken out of it since is left out)
      const itemIds: string[] = [];
      for (const itemId of task.itemIds) if (await sharedEntry(ctx, share, itemId)) itemIds.push(itemId);
      if (!itemIds.length) throw new DomainError(SharingErrors.shareEntryEmpty);
      const entries = await archiveFilesOf(share, itemIds, task.binding.userId === share.ownerId);
      return sendArchive(bytes.content, reply, entries, task.archiveName);
    },
  );

  // ---- the owner's equivalents ----------------------------------------------------------------

  const ownerVisit = (share: ShareRecord, userId: string): ShareVisit => ({
    linkId: share.linkId,
    visitId: `owner-${userId}`,
    email: null,
    expiresAt: ctx.now().getTime() + DOWNLOAD_URL_TTL_MS,
  });

  app.get(
    '/api/shares/:id/entries/',
    { schema: { tags, summary: "The owner's view of a share's entries", params: ShareParams, querystring: EntriesQuery } },
    async (request) => {
      const { share } = await ownShare(ctx, request, request.params.id);
      const { sfFolderId, vertexId, ...rest } = request.query;
      return listEntries(ctx, share, { ...rest, vertexId: vertexId ?? sfFolderId });
    },
  );

  app.get(
    '/api/shares/:id/entries/:entryId',
    { schema: { tags, summary: "The owner's view of an entry of a share (`q=download-url`)", params: ShareEntryParams, querystring: EntryQuery } },
    async (request) => {
      const { share, userId } = await ownShare(ctx, request, request.params.id);
      return entryAnswer({ ...share, downloadable: true }, ownerVisit(share, userId), request.params.entryId, request.query, userId);
    },
  );

  app.get(
    '/api/shares/:id/access-log',
    {
      schema: {
        tags,
        summary: 'Who opened and downloaded the share: time, recipient e-mail when known, ip, user agent, action',
        params: ShareParams,
        querystring: AccessLogQuery,
      },
    },
    async (request) => {
      const { share } = await ownShare(ctx, request, request.params.id);
      return accessLogOf(ctx, share.id, request.query);
    },
  );
};
