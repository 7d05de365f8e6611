import { createHash } from 'node:crypto';
import {
  DomainError,
  formatAxel,
  isLink,
  pinningCost,
  SECURE_FETCH_FILE_LIMIT,
  secureFetchDecider,
  SecureFetchErrors,
  secureFetchStreamName,
  type SecureFetchCommand,
  type SecureFetchLink,
  type SecureFetchState,
} from '@axel/domain';
import { handleCommand, loadState, type CommandContext } from '@axel/platform';
import type { SecureFetchRow } from '@axel/projections/secure-fetch/secure-fetches.projection';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { requestMeta } from '../../http/request-meta';
import { entitlementsOf } from '../billing/billing.service';

/** The public handle of a link: 16 random bytes, base64url (22 characters). */
export const LINK_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export const anonymousActor = (request: FastifyRequest): CommandContext => {
  const meta = requestMeta(request);
  return { actorId: null, actorKind: 'anonymous', ip: meta.ip, userAgent: meta.userAgent, client: meta.client, correlationId: meta.correlationId };
};

export const runSecureFetchCommand = (
  ctx: AppContext,
  fetchId: string,
  command: Omit<SecureFetchCommand, 'metadata'>,
  actor: CommandContext,
  now = ctx.now(),
) => handleCommand(ctx.commands, secureFetchDecider, secureFetchStreamName(fetchId), { ...command, metadata: { now } } as SecureFetchCommand, actor);

export const loadSecureFetch = async (ctx: AppContext, fetchId: string): Promise<SecureFetchState> =>
  (await loadState(ctx.commands, secureFetchDecider, secureFetchStreamName(fetchId))).state;

/** The caller's own link; another's, or none, is not found. */
export const ownLink = async (ctx: AppContext, ownerId: string, fetchId: string): Promise<SecureFetchLink> => {
  const state = await loadSecureFetch(ctx, fetchId);
  if (!isLink(state) || state.ownerId !== ownerId) throw new DomainError(SecureFetchErrors.notFound);
  return state;
};

/** The link behind a public handle, folded from its stream: the decisions never trust a read model. */
export const linkByHandle = async (ctx: AppContext, linkId: string): Promise<SecureFetchState> => {
  if (!LINK_ID_PATTERN.test(linkId)) throw new DomainError(SecureFetchErrors.invalid);
  const { rows } = await ctx.pool.query<Pick<SecureFetchRow, 'id'>>('select id from secure_fetches where link_id = $1', [linkId]);
  if (!rows[0]) return { status: 'none' };
  return loadSecureFetch(ctx, rows[0].id);
};

/** The per-file limit of the owner's plan: 10 MiB without unlimited-shared-file-size (spec §6). */
export const maxFileSize = async (ctx: AppContext, ownerId: string): Promise<number | null> =>
  (await entitlementsOf(ctx, ownerId)).permissions.includes('unlimited-shared-file-size') ? null : SECURE_FETCH_FILE_LIMIT;

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export const linkUrl = (ctx: AppContext, linkId: string): string => `${ctx.config.publicUrl.replace(/\/$/, '')}/secure-fetch/${linkId}`;

const expired = (link: SecureFetchLink, now: Date) => !!link.expiresAt && new Date(link.expiresAt).getTime() <= now.getTime();

/** A link as the owner sees it (spec §3 Share and Secure Fetch). */
export const fetchJson = (ctx: AppContext, link: SecureFetchLink) => {
  const now = ctx.now();
  const submission = link.submission;
  const files = submission && !link.collectedAt ? submission.files : [];
  return {
    id: link.fetchId,
    shareId: link.fetchId,
    shareLinkId: link.linkId,
    linkId: link.linkId,
    url: linkUrl(ctx, link.linkId),
    uploadUrl: linkUrl(ctx, link.linkId),
    type: link.type,
    status: link.status,
    note: link.note,
    expiresAt: link.expiresAt,
    includeMetadata: link.includeMetadata,
    hashChoice: link.hashChoice,
    certificated: link.certificated,
    paid: !!link.payment?.txId,
    txId: link.payment?.txId ?? null,
    certificateId: link.payment?.txId ? link.payment.certificateId : null,
    ownerId: link.ownerId,
    personal: true,
    storageId: submission?.storageId ?? null,
    folderId: submission?.folderId ?? null,
    metadata: submission?.metadata ?? null,
    totalSize: submission?.totalSize ?? 0,
    itemsCount: files.length,
    cost: formatAxel(pinningCost({ certificate: link.certificated })),
    valid: !link.usedAt && !link.revokedAt && !expired(link, now),
    expired: expired(link, now),
    createdAt: link.createdAt,
    modifiedAt: [link.createdAt, link.revokedAt, link.usedAt, link.payment?.paidAt ?? null, link.collectedAt]
      .filter((t): t is string => !!t)
      .sort()
      .at(-1)!,
    revokedAt: link.revokedAt,
    usedAt: link.usedAt,
    collectedAt: link.collectedAt,
    collectsAt:
      submission && !link.payment?.txId && !link.collectedAt ? new Date(new Date(submission.submittedAt).getTime() + 2 * 3_600_000).toISOString() : null,
  };
};

/** The received files of a link (entries labelled sfFile, in their sfFolder). */
export const itemsJson = (link: SecureFetchLink) => {
  const submission = link.submission;
  if (!submission || link.collectedAt) return [];
  return submission.files.map((f) => ({
    id: f.itemId,
    fileId: f.itemId,
    name: f.name,
    size: f.size,
    mime: f.mime,
    label: 'sfFile' as const,
    type: 'sfFile' as const,
    parentId: submission.folderId,
    storageId: submission.storageId,
    relpath: f.relpath,
    md5: f.hashes.md5,
    sha1: f.hashes.sha1,
    sha3_512: f.hashes.sha3_512,
    receivedAt: submission.submittedAt,
    createdAt: submission.submittedAt,
    modified: f.modified,
    lastOpened: link.lastOpened[f.itemId] ?? null,
  }));
};
