import { buffer } from 'node:stream/consumers';
import {
  DomainError,
  esignPackageDecider,
  esignPackageStreamName,
  EsignErrors,
  isLastToFinish,
  signersDue,
  StorageErrors,
  type EsignCommand,
  type EsignPackageState,
  type EsignSigner,
} from '@axel/domain';
import { handleCommand, loadState, type CommandContext } from '@axel/platform';
import { findEsignPackage } from '@axel/projections/esign/esign.queries';
import type { AppContext } from '../../context';
import type { StorageBytes } from '../files/storage.bytes';
import { liveItem, onlineStorageId, ownStorage } from '../files/storage.service';
import type { PinSchema, SignerSchema, EntrySchema, PackageSchema } from './esign.schema';
import { auditLinkAt, readDocument, saveDocument } from './esign.store';
import { sealPackage, pdfPageCount } from './esign.seal';
import type { SealKey } from './esign.seal-key';
import type { z } from 'zod';

/** The plan of a user, as billing answers it: eSign is one of its features (Professional, Team, Enterprise). */
export type EsignPlanOf = (ctx: AppContext, userId: string) => Promise<{ readonly entitlements: { readonly features: readonly string[] } }>;

/** The largest PDF a package takes (a copy is kept with the package and read whole to seal it). */
export const MAX_ENTRY_BYTES = 50 * 1024 * 1024;
/** A signer's hold on a package's documents lasts this long without a heartbeat. */
export const LEASE_MS = 60_000;

export const requireEsignPlan = async (ctx: AppContext, planOf: EsignPlanOf, userId: string) => {
  const { entitlements } = await planOf(ctx, userId);
  if (!entitlements.features.includes('esign')) throw new DomainError(EsignErrors.planRequired);
};

export const loadPackage = async (ctx: AppContext, packageId: string) => loadState(ctx.commands, esignPackageDecider, esignPackageStreamName(packageId));

/** The package, when it exists and is this user's; otherwise 404 whether it exists or not. */
export const ownedPackage = async (ctx: AppContext, userId: string, packageId: string): Promise<EsignPackageState> => {
  const { state } = await loadPackage(ctx, packageId);
  if (!state.exists || state.deleted || state.ownerId !== userId) throw new DomainError(EsignErrors.packageNotFound);
  return state;
};

export const runEsignCommand = async (ctx: AppContext, packageId: string, command: Omit<EsignCommand, 'metadata'>, actor: CommandContext) => {
  const result = await handleCommand(
    ctx.commands,
    esignPackageDecider,
    esignPackageStreamName(packageId),
    { ...command, metadata: { now: ctx.now() } } as EsignCommand,
    actor,
  );
  if (result.position) await ctx.caughtUp(result.position);
  return result;
};

type Json<T extends z.ZodType> = z.infer<T>;

export const entryJson = (state: EsignPackageState): Json<typeof EntrySchema>[] =>
  Object.values(state.entries).map((e) => ({ id: e.id, fileId: e.fileId, name: e.name, size: e.size, sha256: e.sha256, pageCount: e.pageCount }));

export const signerJson = (s: EsignSigner): Json<typeof SignerSchema> => ({
  id: s.id,
  linkId: s.linkId,
  name: s.name,
  email: s.email,
  color: s.color,
  order: s.order,
  signedAt: s.signedAt,
  finishedAt: s.finishedAt,
});

export const pinJson = (state: EsignPackageState): Json<typeof PinSchema>[] =>
  Object.values(state.pins).map((p) => ({
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
  }));

/** The package as its owner sees it: the decided state, with the read model's dates once it has them. */
export const packageJson = async (ctx: AppContext, state: EsignPackageState): Promise<Json<typeof PackageSchema>> => {
  const row = await findEsignPackage(ctx.pool, state.ownerId, state.packageId);
  const signers = Object.values(state.signers);
  return {
    id: state.packageId,
    name: state.name,
    message: state.message,
    status: state.status,
    createdAt: row?.created_at.toISOString() ?? null,
    modifiedAt: row?.modified_at.toISOString() ?? null,
    sentAt: state.sentAt,
    completedAt: state.completedAt,
    documentSha256: state.documentSha256,
    entriesCount: Object.keys(state.entries).length,
    signersCount: signers.length,
    finishedCount: signers.filter((s) => s.finishedAt !== null).length,
  };
};

/** A PDF of the user's storage, read whole: its bytes, name and page count; the spec's errors otherwise. */
export const pdfFromStorage = async (
  ctx: AppContext,
  bytes: StorageBytes,
  userId: string,
  body: { fileId: string; storageId?: string },
  actor: CommandContext,
) => {
  const storage = await ownStorage(ctx, userId, body.storageId ?? onlineStorageId(userId), actor);
  const item = await liveItem(ctx, storage.id, body.fileId, 'file');
  if (!item.manifest) throw new DomainError(StorageErrors.fileDeleted);
  // the server cannot read an end-to-end encrypted file, so it cannot draw into it or seal it
  if (item.e2ee_enabled || Number(item.size) > MAX_ENTRY_BYTES) throw new DomainError(EsignErrors.pdfOnly, { fileId: item.id });
  const content = await buffer(bytes.content.read(item.manifest));
  const pageCount = await pdfPageCount(content);
  return { item, content, pageCount, mime: pageCount === null ? (item.mime ?? 'application/octet-stream') : 'application/pdf' };
};

const sealedDocumentId = (sha256: string) => `sealed:${sha256}`;

/** The sealed document of a completed package, or null before. */
export const sealedDocument = async (ctx: AppContext, state: EsignPackageState) =>
  state.status === 'completed' || (state.status === 'archived' && state.archivedFrom === 'completed')
    ? state.documentSha256 && readDocument(ctx.pool, ctx.secrets, state.packageId, sealedDocumentId(state.documentSha256))
    : null;

/**
 * The seal for a signer's finish: null unless it completes the package; otherwise the completed
 * document is built, certified, signed and stored before the finish is decided, so a completed
 * package always has its document.
 */
export const sealFor = async (
  ctx: AppContext,
  key: () => SealKey,
  state: EsignPackageState,
  signerId: string,
  finishing: { ip: string | null; userAgent: string | null },
) => {
  const signer = state.signers[signerId];
  if (!signer?.signedAt || signer.finishedAt || state.status !== 'awaiting_signatures' || !isLastToFinish(state, signerId)) return null;
  const now = ctx.now();
  const entries = [];
  for (const e of Object.values(state.entries)) {
    const doc = await readDocument(ctx.pool, ctx.secrets, state.packageId, e.id);
    if (!doc) throw new DomainError(EsignErrors.entryNotFound, { entryId: e.id });
    entries.push({ id: e.id, name: e.name, bytes: doc.bytes, sha256: doc.sha256 });
  }
  const { events } = await ctx.store.readStream(esignPackageStreamName(state.packageId));
  const last = events.at(-1);
  const signers = Object.values(state.signers).map((s) => {
    const done = s.id === signerId ? { at: now.toISOString(), ...finishing } : { at: s.finishedAt!, ...s.finishedFrom! };
    return {
      id: s.id,
      name: s.name,
      email: s.email,
      color: s.color,
      signature: s.signature!,
      signedAt: s.signedAt!,
      finishedAt: done.at,
      ip: done.ip ?? s.signedFrom?.ip ?? null,
      userAgent: done.userAgent ?? s.signedFrom?.userAgent ?? null,
    };
  });
  const sealed = await sealPackage(
    {
      packageId: state.packageId,
      name: state.name,
      entries,
      signers,
      pins: Object.values(state.pins),
      completedAt: now,
      auditChain: last
        ? { position: Number(last.position), link: await auditLinkAt(ctx.pool, Number(last.position)), verifyUrl: `${ctx.config.publicUrl}/verify-document` }
        : null,
    },
    key(),
  );
  await saveDocument(ctx.pool, ctx.secrets, {
    packageId: state.packageId,
    documentId: sealedDocumentId(sealed.sha256),
    ownerId: state.ownerId,
    bytes: sealed.bytes,
  });
  return { documentSha256: sealed.sha256, originalSha256: Object.fromEntries(entries.map((e) => [e.id, e.sha256])) };
};

/** Mails each signer whose turn has come and who was not mailed yet a link to `/esigns/<linkId>`. */
export const mailDueSigners = async (
  ctx: AppContext,
  state: EsignPackageState,
  owner: { email: string | null; locale: string },
  already: ReadonlySet<string>,
  actor: CommandContext,
) => {
  for (const s of signersDue(state)) {
    if (already.has(s.id)) continue;
    await ctx.mailer.request(
      {
        to: s.email,
        template: 'esign-request',
        locale: owner.locale,
        params: { link: `${ctx.config.publicUrl}/esigns/${s.linkId}`, title: state.name, message: state.message ?? undefined, email: owner.email ?? undefined },
        userId: null,
      },
      actor,
    );
  }
};
