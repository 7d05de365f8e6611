import { randomBytes } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import { DomainError, IntegrationErrors } from '@axel/domain';
import type { CommandContext } from '@axel/platform';
import { Upload } from '@tus/utils';
import type { AppContext } from '../../../context';
import { ownStorage } from '../../files/storage.service';
import type { BytePipeline } from '../../files/uploads';
import { runIntegrationCommand, withDropboxToken, type IntegrationPorts } from '../integrations.service';
import { DropboxHashingStream } from './dropbox.content-hash';
import { isBytes } from './dropbox.port';

interface FileMetadata {
  '.tag'?: string;
  name?: string;
  path_display?: string;
  path_lower?: string;
  size?: number;
  content_hash?: string;
}

const providerAnswer = (status: number) => {
  if (status === 409) return new DomainError(IntegrationErrors.notAFile, { reason: 'not_found' });
  if (status === 429) return new DomainError(IntegrationErrors.providerBusy, { app: 'dropbox' });
  return new DomainError(IntegrationErrors.providerFailed, { app: 'dropbox', status });
};

/**
 * A Dropbox file streamed into a finished upload of the user's storage, as a tus upload would have
 * arrived (encrypted in chunks, quota reserved first). Dropbox's `content_hash` of the file is read
 * first and the bytes are hashed the same way as they stream: a file that changed in between, or
 * bytes damaged on the way, discard the upload and refuse the import. The upload is then made into
 * a file like any other (`POST .../items/` with its `uploadId`).
 */
export const importFromDropbox = async (
  ctx: AppContext,
  ports: IntegrationPorts,
  bytes: BytePipeline,
  input: { userId: string; path: string; storageId: string },
  actor: CommandContext,
) => {
  const { userId, storageId } = input;
  const dropbox = ports.dropbox!;
  await ownStorage(ctx, userId, storageId, actor);
  const meta = await withDropboxToken(ctx, ports, userId, actor, (token) => dropbox.rpc(token, 'get_metadata', { path: input.path }));
  if (meta.status !== 200) throw providerAnswer(meta.status);
  const file = meta.body as FileMetadata;
  if (file['.tag'] !== 'file' || typeof file.size !== 'number' || typeof file.content_hash !== 'string') throw new DomainError(IntegrationErrors.notAFile);
  const uploadId = randomBytes(16).toString('hex');
  const size = file.size;
  // refused here, before a byte is stored, as a tus creation is
  await bytes.quota.reserve({ userId, storageId, uploadId, size });
  await bytes.store.create(new Upload({ id: uploadId, size, offset: 0, metadata: { userId, storageId } }));
  const hashing = new DropboxHashingStream();
  let source: Readable | undefined;
  try {
    const download = await withDropboxToken(ctx, ports, userId, actor, async (token) => {
      const answer = await dropbox.content(token, 'download', { path: file.path_lower ?? input.path });
      return answer;
    });
    if (!isBytes(download)) throw providerAnswer(download.status);
    source = download.body;
    // a failure on either side ends both: the pipeline destroys the hashing stream the store reads
    pipeline(download.body, hashing, () => undefined);
    if (size > 0) {
      const written = await bytes.store.write(hashing, uploadId, 0);
      if (written !== size) throw new DomainError(IntegrationErrors.contentHashMismatch, { expected: file.content_hash });
    } else {
      hashing.resume();
      await new Promise((resolve) => hashing.once('end', resolve).once('error', resolve));
    }
    const contentHash = hashing.hasher.digest();
    if (contentHash !== file.content_hash || hashing.hasher.size !== size) {
      throw new DomainError(IntegrationErrors.contentHashMismatch, { expected: file.content_hash, received: contentHash });
    }
    await runIntegrationCommand(
      ctx,
      userId,
      { type: 'RecordDropboxImport', data: { importId: uploadId, path: file.path_display ?? input.path, contentHash, size, storageId, uploadId } },
      actor,
    );
    return { uploadId, name: file.name ?? input.path.split('/').pop()!, size, contentHash };
  } catch (error) {
    source?.destroy();
    await bytes.store.remove(uploadId).catch(() => undefined);
    throw error;
  }
};
