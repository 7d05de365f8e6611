import {
  CommonErrors,
  decideShareAccess,
  decideShareLink,
  DomainError,
  normalizeShareEmail,
  ShareAccessErrors,
  shareSenderFor,
  shareVisitorsActorId,
  SharingErrors,
  StorageErrors,
  type ShareAccess,
  type ShareAccessCommand,
  type ShareOwnerFacts,
  type ShareRecord,
  type ShareState,
} from '@axel/domain';
import { newId, type CommandContext } from '@axel/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { readSessionToken } from '../../http/sessions';
import { requestMeta } from '../../http/request-meta';
import { requireUser } from '../../http/auth';
import { verifyPassword } from '../accounts/passwords';
import type { UserRow } from '@axel/projections/users/users.queries';
import { ENTRY_COLUMNS } from '@axel/projections/storage/storage.queries';
import type { FileContent } from '../files/contracts';
import { ACTIVE_TYPES, contentDisposition, parseRange, sendItemBytes } from '../files/storage-downloads';
import { entryJson, type ItemRow } from '../files/storage.service';
import { linkFailures } from './share-access.failures';
import { ACCESS_TOKEN_TTL_MS, issueAccessToken, passwordOf, readAccessToken, type ShareVisit } from './share-access.credentials';
import { runShareAccessCommand } from './share-access.stream';
import { loadShareByLinkId, shareOwnersOf } from './shares.read';

export const OBJECT_ACCESS_HEADER = 'x-object-access';
export const SHARE_EMAIL_HEADER = 'x-share-email';

/** The signed-in user of a request that may also come without a session (an expired one counts as none). */
export const optionalUser = async (ctx: AppContext, request: FastifyRequest): Promise<UserRow | null> => {
  if (!readSessionToken(request)) return null;
  try {
    return (await requireUser(ctx, request)).user;
  } catch {
    return null;
  }
};

const headerValue = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const emailHeader = (request: FastifyRequest): string | null => {
  const value = headerValue(request, SHARE_EMAIL_HEADER)?.trim();
  return value && value.length <= 320 && EMAIL.test(value) ? normalizeShareEmail(value) : null;
};

/** A refusal carries what the page needs to ask for the missing credential (never the contents). */
const refuseUnless = (access: ShareAccess, state: ShareState): void => {
  if (access.ok) return;
  throw new DomainError(access.error, state.status === 'none' || state.status === 'deleted' ? undefined : shareGate(state));
};

/**
 * The actor of an access event: the signed-in viewer, else the share's anonymous visitors (their
 * ip and user agent are sealed under one subject per share, forgotten with its access stream).
 */
export const visitActor = (request: FastifyRequest, shareId: string, user: UserRow | null): CommandContext => {
  const meta = requestMeta(request);
  return {
    actorId: user?.id ?? shareVisitorsActorId(shareId),
    actorKind: user ? 'user' : 'anonymous',
    ip: meta.ip,
    userAgent: meta.userAgent,
    client: meta.client,
    correlationId: meta.correlationId,
  };
};

export const recordAccess = async (
  ctx: AppContext,
  share: ShareRecord,
  command: Omit<ShareAccessCommand, 'metadata'>,
  actor: CommandContext,
): Promise<void> => {
  await runShareAccessCommand(ctx, share.id, command, actor);
};

export interface LetIn {
  readonly share: ShareRecord;
  readonly visit: ShareVisit;
  readonly user: UserRow | null;
  readonly isOwner: boolean;
}

/** The wait before each password check on a link past LINK_FAILURES_PER_WINDOW failures. */
export const LINK_SLOWDOWN_MS = 250;

const liveShareOf = (state: ShareState | null | undefined): ShareState => state ?? { status: 'none' };

/**
 * A call on a share link, let in or refused with the spec's error. Credentials: a valid
 * `X-Object-Access` token of this link, else the password (Password or Basic form); private shares
 * also name the recipient (`X-Share-Email`, else the signed-in user's e-mail). The first call a
 * visit is let in with opens it: a token for the next calls is answered in `X-Object-Access` and,
 * unless the owner looks at their own share, the open is recorded.
 */
export const letIn = async (ctx: AppContext, request: FastifyRequest, reply: FastifyReply, linkId: string): Promise<LetIn> => {
  const now = ctx.now();
  const state = liveShareOf((await loadShareByLinkId(ctx, linkId))?.state);
  const user = await optionalUser(ctx, request);
  const token = headerValue(request, OBJECT_ACCESS_HEADER);
  const held = state.status === 'none' ? null : readAccessToken(ctx.secrets, token, { linkId, passwordHash: state.passwordHash, now });
  // a visit keeps the recipient it was let in as
  const viewerEmail = held?.email ?? emailHeader(request) ?? (user?.email ? normalizeShareEmail(user.email) : null);
  const viewer = { userId: user?.id ?? null, email: viewerEmail };
  // status, expiry and login first: a blocked link costs no password check
  refuseUnless(decideShareLink(state, { now, viewer }), state);
  const share = state as ShareRecord;
  const isOwner = user?.id === share.ownerId;
  if (held) {
    // the token stands for the password; the recipient it was let in as is checked again (blocked since?)
    refuseUnless(decideShareAccess(share, { now, viewer, passwordOk: true }), share);
    // a visit that goes on past half its hour gets a fresh token for the same visit (no new open)
    const renewed = held.expiresAt - now.getTime() < ACCESS_TOKEN_TTL_MS / 2 ? { ...held, expiresAt: now.getTime() + ACCESS_TOKEN_TTL_MS } : null;
    reply.header(OBJECT_ACCESS_HEADER, renewed ? issueAccessToken(ctx.secrets, renewed, share.passwordHash) : token);
    return { share, visit: renewed ?? held, user, isOwner };
  }
  let passwordOk: boolean | null = null;
  if (share.passwordHash !== null && !isOwner) {
    const credential = passwordOf(headerValue(request, 'authorization'));
    if (credential) {
      const failures = linkFailures(ctx);
      const crowded = await failures.over(share.linkId, now.getTime());
      // a link many wrong passwords were tried on answers more slowly, and a wrong one with 429;
      // the right password still gets in
      if (crowded) await new Promise((resolve) => setTimeout(resolve, LINK_SLOWDOWN_MS));
      passwordOk = await verifyPassword(share.passwordHash, credential.password);
      if (!passwordOk) {
        const resetAt = await failures.fail(share.linkId, now.getTime());
        if (crowded) {
          const retryAfter = Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000));
          throw new DomainError(CommonErrors.rateLimited, { retryAfter });
        }
      }
    }
  }
  const access = decideShareAccess(share, { now, viewer, passwordOk });
  refuseUnless(access, share);
  const visit: ShareVisit = { linkId, visitId: newId(), email: viewerEmail, expiresAt: now.getTime() + ACCESS_TOKEN_TTL_MS };
  if (!isOwner) {
    const data = { shareId: share.id, ownerId: share.ownerId, kind: share.kind, visitId: visit.visitId, recipientEmail: viewerEmail, access };
    await recordAccess(ctx, share, { type: 'RecordShareOpen', data }, visitActor(request, share.id, user));
  }
  reply.header(OBJECT_ACCESS_HEADER, issueAccessToken(ctx.secrets, visit, share.passwordHash));
  return { share, visit, user, isOwner };
};

/** What a page needs to know before credentials: which dialog to show, nothing of the contents. */
export const shareGate = (share: ShareRecord) => ({
  shareLinkId: share.linkId,
  kind: share.kind,
  requireLogin: share.requireLogin,
  hasPassword: share.passwordHash !== null,
  expiresAt: share.expiresAt,
});

/** The name a share's visitors see its owner by (see {@link shareOwnersOf}); never their e-mail. */
export const ownerNameOf = async (ctx: AppContext, ownerId: string): Promise<string | null> => (await shareOwnersOf(ctx, [ownerId])).get(ownerId)?.name ?? null;

/**
 * The public summary of a share a visitor was let in to: who it came from (as {@link shareSenderFor}
 * allows for its kind) and, on a private share, the message its recipients were sent.
 */
export const shareSummary = (share: ShareRecord, owner: ShareOwnerFacts | null) => {
  const sender = shareSenderFor(share.kind, owner);
  return {
    ...shareGate(share),
    id: share.id,
    shareId: share.id,
    type: 'normal' as const,
    status: 'active' as const,
    title: share.title,
    description: share.description,
    message: share.kind === 'private' ? share.message : null,
    downloadable: share.downloadable,
    esign: share.esign,
    ownerName: sender.name,
    ownerEmail: sender.email,
    itemsCount: share.items.length,
    totalSize: share.totalSize,
    createdAt: share.createdAt,
    modifiedAt: share.modifiedAt,
  };
};

// ---- the shared entries -------------------------------------------------------------------------

export interface EntryQuery {
  readonly vertexId?: string;
  readonly name?: string;
  readonly page: number;
  readonly perPage: number;
}

const rootIds = (share: ShareRecord) => share.items.map((i) => i.id);

/** An entry of the share: a shared item, or an item inside a shared folder, none of its folders in the trash. */
export const sharedEntry = async (ctx: AppContext, share: ShareRecord, entryId: string): Promise<ItemRow | null> => {
  const { rows } = await ctx.pool.query<ItemRow & { depth: number }>(
    `with recursive up as (
       select i.*, 0 as depth, i.id as start from storage_items i where i.id = $1 and i.storage_id = $2 and not i.in_trash
       union all
       select p.*, up.depth + 1, up.start from up join storage_items p on p.id = up.folder and p.storage_id = $2
        where not p.in_trash and not (up.id = any($3)) and up.depth < 1000
     ) select * from up where id = any($3) limit 1`,
    [entryId, share.storageId, rootIds(share)],
  );
  if (!rows[0]) return null;
  const { rows: own } = await ctx.pool.query<ItemRow>('select * from storage_items where id = $1 and storage_id = $2', [entryId, share.storageId]);
  return own[0] ?? null;
};

/** An entry as a visitor sees it: the shared items are the root (the owner's folders above stay hidden). */
export const shareEntryJson = (share: ShareRecord, row: Parameters<typeof entryJson>[0]) => {
  const json = entryJson(row);
  return { ...json, parentId: rootIds(share).includes(row.id) ? null : json.parentId, shareId: share.id, downloadable: share.downloadable };
};

/** The shared items (root), or the contents of a folder inside the share; `name` filters by part of the name. */
export const listEntries = async (ctx: AppContext, share: ShareRecord, query: EntryQuery) => {
  let where: string;
  const params: unknown[] = [share.storageId];
  if (query.vertexId) {
    const folder = await sharedEntry(ctx, share, query.vertexId);
    if (!folder || folder.label !== 'folder') throw new DomainError(StorageErrors.folderNotFound);
    params.push(folder.id);
    where = 'folder = $2';
  } else {
    params.push(rootIds(share));
    where = 'id = any($2)';
  }
  const nameFilter = query.name ? ` and strpos(lower(name), lower($3)) > 0` : '';
  if (query.name) params.push(query.name);
  // the listed columns only: never a file's manifest nor its details
  const { rows } = await ctx.pool.query<Parameters<typeof entryJson>[0] & { total: number }>(
    `select ${ENTRY_COLUMNS}, count(*) over ()::int as total from storage_items where storage_id = $1 and ${where} and not in_trash${nameFilter}
      order by label desc, lower(name), id limit ${query.perPage} offset ${(query.page - 1) * query.perPage}`,
    params,
  );
  // every shared item gone (deleted or in the trash): the share has nothing left to show
  if (!query.vertexId && !query.name && query.page === 1 && rows.length === 0) throw new DomainError(SharingErrors.shareEntryEmpty);
  return { data: rows.map((r) => shareEntryJson(share, r)), totalCount: rows[0]?.total ?? 0, page: query.page, perPage: query.perPage };
};

/** Every file the given entries hold (folders with their contents), for archives and the 10 GB rule. */
export const sizeOfEntries = async (ctx: AppContext, share: ShareRecord, entryIds: readonly string[]): Promise<number> => {
  const { rows } = await ctx.pool.query<{ total: string | null }>(
    `with recursive tree as (
       select i.id, i.storage_id, i.size, i.label, 0 as depth from storage_items i where i.storage_id = $1 and i.id = any($2) and not i.in_trash
       union all
       select c.id, c.storage_id, c.size, c.label, tree.depth + 1 from tree join storage_items c on c.folder = tree.id and c.storage_id = tree.storage_id
        where not c.in_trash and tree.depth < 1000
     ) select sum(size) as total from tree where label = 'file'`,
    [share.storageId, entryIds],
  );
  return Number(rows[0]?.total ?? 0);
};

// ---- bytes ---------------------------------------------------------------------------------------

const PREVIEWABLE = /^(image|audio|video)\/|^application\/pdf$|^text\/plain$/i;

/** Whether a file can be shown in the browser (a view-only share allows only that). */
export const previewable = (mime: string | null): boolean => !!mime && !ACTIVE_TYPES.test(mime) && PREVIEWABLE.test(mime);

export const refuseViewOnly = (share: ShareRecord, item: ItemRow, inline: boolean): void => {
  if (!share.downloadable && !(inline && previewable(item.mime))) throw new DomainError(ShareAccessErrors.viewOnly);
};

/** The decrypted bytes of a shared file, whole or by HTTP Range, inline (preview) or as an attachment. */
export const sendSharedFile = (content: FileContent, request: FastifyRequest, reply: FastifyReply, item: ItemRow, inline: boolean) =>
  sendItemBytes(content, request, reply, item, {
    type: item.mime && !ACTIVE_TYPES.test(item.mime) ? item.mime : 'application/octet-stream',
    disposition: contentDisposition(item.name, inline && previewable(item.mime)),
    headers: { 'cache-control': 'private, no-store' },
  });

/** Whether a request reads a file from its first byte (a resumed or seeking read is not another download). */
export const fromFirstByte = (request: FastifyRequest, size: number): boolean => {
  const range = parseRange(request.headers.range, size);
  return range === null || (range !== 'unsatisfiable' && range.start === 0);
};
