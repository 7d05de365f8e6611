import {
  admitUpload,
  DomainError,
  isLink,
  openLink,
  planBatch,
  receiptBody,
  receiptJson,
  relpathFolders,
  SecureFetchErrors,
  StorageErrors,
  type BatchCommand,
  type ReceivedFile,
  type SecureFetchLink,
  type SecureFetchMetadata,
  type StorageCommand,
  type StorageState,
} from '@axel/domain';
import { deterministicId, type CommandContext } from '@axel/platform';
import type { AuditSigningKey } from '@axel/platform/audit/keys';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { SecureFetchUploadGate } from '../files/contracts';
import type { StorageBytes } from '../files/storage.bytes';
import { failpoint, pausepoint } from '../../failpoints';
import { ensureOnlineStorage, onlineStorageId, runStorageCommand } from '../files/storage.service';
import { readStorageState } from '../files/storage.stream';
import type { SubmitBody } from './secure-fetch.schema';
import { linkByHandle, loadSecureFetch, maxFileSize, runSecureFetchCommand } from './secure-fetch.service';

const systemActor: CommandContext = { actorId: null, actorKind: 'system' };

/**
 * What a submission needs beyond the link: the byte pipeline (claims, content) and the key receipts
 * are signed with, the audit keyring's signing key, so a receipt is always signed by a key
 * `/.well-known/audit-key?keys=all` lists (a key rotated on disk signs from the next start, when it
 * is published too).
 */
export interface SubmissionDeps {
  readonly bytes: StorageBytes;
  readonly receiptKey: () => AuditSigningKey;
}

/**
 * The gate of anonymous tus creations (contracts.ts): the link can take files and the file is within
 * the owner's per-file limit; the owner's quota is then reserved by the storage as for any upload.
 */
export const secureFetchGate = (ctx: AppContext): SecureFetchUploadGate => ({
  async admit({ linkId, size }) {
    const state = await linkByHandle(ctx, linkId);
    const maxSize = isLink(state) ? await maxFileSize(ctx, state.ownerId) : null;
    const { ownerId } = admitUpload(state, { size, maxSize }, ctx.now());
    return { ownerId, storageId: await ensureOnlineStorage(ctx, ownerId, systemActor) };
  },
});

/** The folder a link's files arrive in: one per link, its id derived from the link's. */
export const folderIdOf = (fetchId: string): string => deterministicId('secure-fetch-folder', fetchId);
const fileIdOf = (uploadId: string): string => deterministicId('file-from-upload', uploadId);

const folderName = (link: SecureFetchLink, now: Date) =>
  `Secure Fetch ${now.toISOString().slice(0, 10)} ${link.linkId.slice(0, 6).replace(/[^A-Za-z0-9]/g, 'x')}`;

const metadataOf = (body: z.infer<typeof SubmitBody>['metadata']): SecureFetchMetadata | null =>
  body
    ? {
        contactEmail: body.contactEmail || null,
        copyrightTypeId: body.copyrightTypeId ?? null,
        isbn: body.isbn?.trim() || null,
        keywords: body.keywords ?? null,
        publisher: body.publisher ?? null,
        website: body.website || null,
        author: body.author ?? null,
      }
    : null;

/** Advisory lock space of a link's submissions: one at a time per link, across processes. */
const SUBMISSION_LOCK_SPACE = 7_310_044;

const oneSubmissionAtATime = async <T>(ctx: AppContext, linkId: string, work: () => Promise<T>): Promise<T> => {
  const client = await ctx.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1, hashtext($2))', [SUBMISSION_LOCK_SPACE, linkId]);
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  try {
    return await work();
  } finally {
    try {
      await client.query('select pg_advisory_unlock($1, hashtext($2))', [SUBMISSION_LOCK_SPACE, linkId]);
      client.release();
    } catch (error) {
      // a broken connection drops its locks with it
      client.release(error as Error);
    }
  }
};

/**
 * Runs `work` under the link's submission lock when no submission of the link is under way (in any
 * process: a stopped process's connection, and its lock, are gone); null without running it otherwise.
 */
export const unlessSubmitting = async <T>(ctx: AppContext, linkId: string, work: () => Promise<T>): Promise<T | null> => {
  const client = await ctx.pool.connect();
  let locked = false;
  try {
    const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, hashtext($2)) as ok', [SUBMISSION_LOCK_SPACE, linkId]);
    locked = rows[0]!.ok;
    if (!locked) return null;
    return await work();
  } finally {
    if (locked) await client.query('select pg_advisory_unlock($1, hashtext($2))', [SUBMISSION_LOCK_SPACE, linkId]).catch(() => undefined);
    client.release();
  }
};

/**
 * Completes a submission: every upload finished through this link, with its hashes, is claimed (none
 * can be discarded from then on; one already gone fails the whole submission, its claims given back,
 * nothing placed, no receipt); the link is used (decided in its stream, so two submissions cannot both
 * use it); then the files are made in a folder of the owner's online storage, and the link's other
 * uploads are discarded. A retried submission of the same uploads answers the same receipt.
 */
export const submitToLink = async (
  ctx: AppContext,
  { bytes, receiptKey }: SubmissionDeps,
  linkId: string,
  body: z.infer<typeof SubmitBody>,
  actor: CommandContext,
) => {
  // the claims and the use of the link, one submission of a link at a time: a failed one gives back
  // only claims no other submission of the link has made since
  const link = await oneSubmissionAtATime(ctx, linkId, async () => {
    const before = await linkByHandle(ctx, linkId);
    const submitted = [...(body.file ? [body.file] : []), ...(body.files ?? [])];
    const uploadIds = submitted.map((f) => f.uploadId);
    if (new Set(uploadIds).size !== uploadIds.length) throw new DomainError(StorageErrors.incompleteUpload);
    const retry = isLink(before) && before.submission && before.submission.files.map((f) => f.uploadId).join() === uploadIds.join();
    if (retry) return before as SecureFetchLink;
    const link = openLink(before, ctx.now());
    const storageId = onlineStorageId(link.ownerId);
    const claimed: string[] = [];
    try {
      const files: ReceivedFile[] = [];
      for (const f of submitted) {
        const upload = await bytes.uploads.claim(f.uploadId, link.ownerId, link.linkId);
        if (upload) claimed.push(f.uploadId);
        if (!upload || upload.secureFetchLinkId !== link.linkId || upload.storageId !== storageId || !upload.hashes) {
          throw new DomainError(StorageErrors.incompleteUpload, { uploadId: f.uploadId });
        }
        files.push({
          itemId: fileIdOf(f.uploadId),
          uploadId: f.uploadId,
          name: f.name,
          size: upload.manifest.size,
          mime: f.mime || 'application/octet-stream',
          relpath: f.relpath ?? null,
          modified: f.modified ? new Date(f.modified).toISOString() : null,
          hashes: { ...upload.hashes },
        });
      }
      await pausepoint('secure-fetch-submit:claimed');
      failpoint('secure-fetch-submit:claimed');
      const folderId = folderIdOf(link.fetchId);
      await runSecureFetchCommand(
        ctx,
        link.fetchId,
        { type: 'SubmitSecureFetch', data: { storageId, folderId, files, metadata: metadataOf(body.metadata), maxSize: await maxFileSize(ctx, link.ownerId) } },
        actor,
      );
    } catch (error) {
      for (const uploadId of claimed) await bytes.uploads.unclaim(uploadId, link.linkId);
      throw error;
    }
    return link;
  });

  const used = await loadSecureFetch(ctx, link.fetchId);
  if (!isLink(used) || !used.submission) throw new DomainError(SecureFetchErrors.missing);
  // files collected unpaid are not made again by a late retry
  if (!used.collectedAt) await placeFiles(ctx, bytes, used, actor);
  // the link is used: what else was sent through it gives the owner's space back
  await bytes.uploads.endLink(link.linkId);
  const receipt = receiptBody(used);
  const key = receiptKey();
  return { ...receipt, keyId: key.keyId, signature: key.signMessage(Buffer.from(receiptJson(receipt), 'utf8')).toString('base64') };
};

/** The files of a used link, made in its folder (again, harmlessly, on a retry: the ids are derived). */
const placeFiles = async (ctx: AppContext, bytes: StorageBytes, link: SecureFetchLink, actor: CommandContext) => {
  const submission = link.submission!;
  await ensureOnlineStorage(ctx, link.ownerId, systemActor);
  await runStorageCommand(
    ctx,
    submission.storageId,
    { type: 'CreateFolder', data: { itemId: submission.folderId, parentId: null, name: folderName(link, new Date(submission.submittedAt)), rename: true } },
    actor,
    { owner: link.ownerId },
  );
  // the folders the files were sent from, under the link's folder (ids derived from their paths)
  const folderOf = new Map<string, string>([['', submission.folderId]]);
  for (const f of submission.files) {
    let path = '';
    for (const name of relpathFolders(f.relpath)) {
      const parentId = folderOf.get(path)!;
      path = `${path}/${name}`;
      if (folderOf.has(path)) continue;
      const itemId = deterministicId('secure-fetch-subfolder', link.fetchId, path);
      await runStorageCommand(ctx, submission.storageId, { type: 'CreateFolder', data: { itemId, parentId, name, rename: true } }, actor, {
        owner: link.ownerId,
      });
      folderOf.set(path, itemId);
    }
  }
  let position = 0;
  for (const f of submission.files) {
    // claimed by the submission (a retry claims it again), so nothing can have discarded it since
    const upload = await bytes.uploads.claim(f.uploadId, link.ownerId, link.linkId);
    if (!upload) {
      // made into its file already (by an earlier or concurrent call): it must be there
      const made = await readStorageState(ctx, submission.storageId, (s) => s.items.has(f.itemId));
      if (!made.value) throw new DomainError(StorageErrors.incompleteUpload, { uploadId: f.uploadId });
      position = Math.max(position, made.position);
      continue;
    }
    await pausepoint('secure-fetch-submit:placing');
    const result = await runStorageCommand(
      ctx,
      submission.storageId,
      {
        type: 'AddFile',
        data: {
          itemId: f.itemId,
          parentId: folderOf.get(
            relpathFolders(f.relpath)
              .map((n) => `/${n}`)
              .join(''),
          )!,
          name: f.name,
          rename: true,
          uploadId: f.uploadId,
          manifest: { ...upload.manifest, chunks: [...upload.manifest.chunks] },
          encrypted: true,
          e2eeEnabled: false,
        },
      },
      actor,
      { owner: link.ownerId },
    );
    await bytes.uploads.consumed(f.uploadId);
    position = Math.max(position, result.position);
  }
  if (position) await ctx.caughtUp(position);
};

/**
 * Unpaid received files are collected: decided in the link's stream (never once paid or paying), then
 * the link's folder and files are deleted from the owner's storage and their content destroyed.
 */
export const collectUnpaidFiles = async (ctx: AppContext, bytes: StorageBytes, fetchId: string, actor: CommandContext): Promise<{ position: number }> => {
  const result = await runSecureFetchCommand(ctx, fetchId, { type: 'CollectUnpaidFiles', data: {} }, actor);
  const collected = result.events.find((e) => e.type === 'SecureFetchFilesCollected');
  // a redelivered command finds it collected already: the deletion is repeated harmlessly
  const state = result.state;
  const target = collected?.data ?? (isLink(state) && state.collectedAt && state.submission ? state.submission : null);
  if (!target || !isLink(state)) return { position: result.position };
  const decide = (command: StorageCommand, s: StorageState) => planBatch(command as BatchCommand, s).events;
  const deleted = await runStorageCommand(ctx, target.storageId, { type: 'DeleteItems', data: { itemIds: [target.folderId, ...target.itemIds] } }, actor, {
    owner: state.ownerId,
    decide,
  }).catch((error: unknown) => {
    if (error instanceof DomainError) return null;
    throw error;
  });
  for (const e of deleted?.events ?? []) {
    if (e.type !== 'ItemDeleted') continue;
    for (const manifest of e.data.destroyed) {
      await bytes.content
        .destroy(manifest)
        .catch((err: unknown) => ctx.log.error({ err, keyId: manifest.keyId }, 'could not destroy the content of a collected file'));
    }
  }
  return { position: Math.max(result.position, deleted?.position ?? 0) };
};

/**
 * A purged account's links are forgotten: each link stream's key is destroyed, so the notes, file
 * names and metadata read as erased in the log, and the read model drops the rows. Called after
 * `PurgeAccount`; repeating it does nothing more.
 */
export const forgetSecureFetches = async (ctx: AppContext, userId: string, actor: CommandContext & { now: Date }) => {
  const { rows } = await ctx.pool.query<{ id: string }>('select id from secure_fetches where owner_id = $1', [userId]);
  for (const { id } of rows) await runSecureFetchCommand(ctx, id, { type: 'ForgetSecureFetch', data: {} }, actor, actor.now);
};
