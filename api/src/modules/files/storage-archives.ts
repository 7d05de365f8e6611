import { PassThrough, Readable } from 'node:stream';
import {
  DomainError,
  DOWNLOAD_TOTAL_MAX_BYTES,
  FORBIDDEN_NAME_CHARACTERS,
  nameProblem,
  StorageErrors,
  type BatchFailure,
  type ShareArchiveBinding,
} from '@axel/domain';
import { newId } from '@axel/platform';
import type { FastifyReply } from 'fastify';
import { ZipFile } from 'yazl';
import type { AppContext } from '../../context';
import type { FileContent } from './contracts';
import { contentDisposition, SIGNED_URL_TTL_MS } from './storage-downloads';
import type { ItemRow } from './storage.service';
import { keyPacketBytes } from '../e2ee/key-packets';

/*
 * Archives of storage items: the task a download of many items records, its signed URL, and the zip
 * streamed from the encrypted chunks when it is opened. The storage's task routes and a share's
 * visitors both make them.
 */

const ARCHIVE_NAME_MAX = 50;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what an archive name must not carry
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;
/** Spec §9: an archive name over 50 characters becomes its first 5, '...', and its last 5. */
export const shortArchiveName = (name: string): string => {
  const chars = [...name];
  return chars.length > ARCHIVE_NAME_MAX ? `${chars.slice(0, 5).join('')}...${chars.slice(-5).join('')}` : name;
};

/**
 * The file name of an archive: a name the caller gives follows the file name rules (spec §5: no
 * `* \\ / < > ? " | :`, no leading dot, no emoji, at most 255) or is refused with INVALID_NAME; a
 * name made from a title or an item has any forbidden character replaced. Shortened per §9, `.zip` added.
 */
export const archiveFileName = (given: string | undefined, fallback: string): string => {
  if (given !== undefined && given !== '') {
    const problem = nameProblem(given, 'file');
    if (problem) throw new DomainError(StorageErrors.invalidName, { field: 'archiveName', reason: problem });
    return `${shortArchiveName(given.replace(/\.zip$/i, ''))}.zip`;
  }
  let name = fallback;
  for (const c of FORBIDDEN_NAME_CHARACTERS) name = name.split(c).join('_');
  name = name.replace(CONTROL_CHARACTERS, '_').replace(/^\.+/, '').trim() || 'archive';
  return `${shortArchiveName(name.replace(/\.zip$/i, ''))}.zip`;
};

/** A storage task row, as the task routes and a share's archive read it. */
export interface TaskRow {
  id: string;
  user_id: string;
  type: string;
  status: string;
  total: number;
  failed: number;
  failures: BatchFailure[];
  error_code: string | null;
  error_message: string | null;
  item_ids: string[];
  archive_name: string | null;
  share_id: string | null;
  share_visit_id: string | null;
  share_email: string | null;
  share_user_id: string | null;
  share_password_stamp: string | null;
}

/** `prefix`, then everything `rest` yields. */
const withPrefix = (prefix: Uint8Array, rest: Readable): Readable =>
  Readable.from(
    (async function* () {
      yield Buffer.from(prefix);
      yield* rest;
    })(),
    { objectMode: false },
  );

export const archiveMac = (ctx: AppContext, taskId: string, expires: number) => ctx.secrets.mac(['storage-archive', taskId, String(expires)].join('\u0000'));

/** The signed, short-lived URL of an archive task's zip (streamed from the chunks when opened). */
export const archiveDownloadUrl = (ctx: AppContext, taskId: string): { url: string; expiresAt: string } => {
  const expires = ctx.now().getTime() + SIGNED_URL_TTL_MS;
  const query = new URLSearchParams({ expires: String(expires), signature: archiveMac(ctx, taskId, expires) });
  return { url: `${ctx.config.publicUrl}/api/storage-archives/${taskId}/?${query.toString()}`, expiresAt: new Date(expires).toISOString() };
};

/** Where a share's archive task came from: the share and visit it is served to, and nothing else. */
export type ArchiveBinding = ShareArchiveBinding;

/**
 * A finished archive task of these items of the user's storages, as the task route records one:
 * for callers that decided the items themselves (a share's visitor downloading its files), bound
 * to the share and visit that asked for it.
 */
export const recordArchiveTask = async (
  ctx: AppContext,
  userId: string,
  itemIds: readonly string[],
  archiveName: string,
  binding: ArchiveBinding,
): Promise<string> => {
  const taskId = newId();
  await ctx.pool.query(
    `insert into storage_tasks (id, user_id, type, status, total, failed, failures, error_code, error_message, item_ids, archive_name, created_at, finished_at,
       share_id, share_visit_id, share_email, share_user_id, share_password_stamp)
     values ($1, $2, 'archive', 'done', $3, 0, '[]', null, null, $4, $5, $6, $6, $7, $8, $9, $10, $11)`,
    [
      taskId,
      userId,
      new Set(itemIds).size,
      JSON.stringify(itemIds),
      archiveName,
      ctx.now(),
      binding.shareId,
      binding.visitId,
      binding.email,
      binding.userId,
      binding.passwordStamp,
    ],
  );
  return taskId;
};

/** A finished share archive task: its owner, items, name and the share and visit it belongs to. */
export interface ShareArchiveTask {
  readonly id: string;
  readonly ownerId: string;
  readonly itemIds: readonly string[];
  readonly archiveName: string;
  readonly binding: ArchiveBinding | null;
}

export const loadShareArchiveTask = async (ctx: AppContext, taskId: string): Promise<ShareArchiveTask | null> => {
  const { rows } = await ctx.pool.query<TaskRow>(`select * from storage_tasks where id = $1 and type = 'archive' and status = 'done'`, [taskId]);
  const task = rows[0];
  if (!task) return null;
  return {
    id: task.id,
    ownerId: task.user_id,
    itemIds: task.item_ids,
    archiveName: task.archive_name ?? 'archive.zip',
    binding:
      task.share_id && task.share_visit_id
        ? {
            shareId: task.share_id,
            visitId: task.share_visit_id,
            email: task.share_email,
            userId: task.share_user_id,
            passwordStamp: task.share_password_stamp ?? '',
          }
        : null,
  };
};

/** Every file an archive holds, with its path inside the zip. */
export const archiveEntries = async (ctx: AppContext, userId: string, itemIds: readonly string[]) => {
  const { rows } = await ctx.pool.query<ItemRow & { path: string }>(
    `with recursive tree as (
       select i.*, i.name::text as path, 0 as depth from storage_items i join storages s on s.id = i.storage_id
        where s.owner_id = $1 and i.id = any($2) and not i.in_trash
       union all
       select c.*, tree.path || '/' || c.name, tree.depth + 1 from tree join storage_items c on c.folder = tree.id and c.storage_id = tree.storage_id
        where not c.in_trash and tree.depth < 1000
     ) select * from tree order by path`,
    [userId, itemIds],
  );
  return rows;
};

/**
 * Streams a zip of these entries (stored, not compressed: its length is known before a byte is read).
 * An end-to-end file is a whole OpenPGP message in the zip, named with `.pgp`: its key packets, then
 * its content (the encrypted data packet), so the unlocker needs only the reader's private key.
 */
export const sendArchive = async (content: FileContent, reply: FastifyReply, entries: readonly (ItemRow & { path: string })[], archiveName: string) => {
  const total = entries.reduce((n, e) => n + Number(e.size), 0);
  if (total > DOWNLOAD_TOTAL_MAX_BYTES) throw new DomainError(StorageErrors.downloadSizeExceeded, { size: total });
  const zip = new ZipFile();
  for (const entry of entries) {
    const options = { mtime: entry.modified_at, compress: false };
    if (entry.label === 'folder') zip.addEmptyDirectory(entry.path, { mtime: entry.modified_at });
    else if (entry.manifest) {
      const manifest = entry.manifest;
      const size = Number(entry.size);
      const packets = entry.e2ee_enabled && entry.pgpmessage ? await keyPacketBytes(entry.pgpmessage) : null;
      const bytes = () => (size === 0 ? content.read(manifest) : content.read(manifest, { start: 0, end: size - 1 }));
      const path = packets ? `${entry.path}.pgp` : entry.path;
      zip.addReadStreamLazy(path, { ...options, size: size + (packets?.length ?? 0) }, (cb) => {
        try {
          cb(null, packets ? withPrefix(packets, bytes()) : bytes());
        } catch (err) {
          cb(err as Error, undefined as never);
        }
      });
    }
  }
  const out = new PassThrough();
  zip.outputStream.on('error', (err) => out.destroy(err)).pipe(out);
  zip.on('error', (err: Error) => out.destroy(err));
  let sending = false;
  const announceSize = (size: number) => {
    if (!sending && size >= 0) reply.header('content-length', String(size));
  };
  // @types/yazl leaves out the size yazl passes to this callback
  zip.end({ forceZip64Format: false, comment: '' }, announceSize as unknown as () => void);
  sending = true;
  reply
    .header('content-type', 'application/zip')
    .header('content-disposition', contentDisposition(archiveName, false))
    .header('x-content-type-options', 'nosniff');
  return reply.send(out);
};
