import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { useTestApp } from '../../testing/harness';
import type { FileContent, FileManifest, FinishedUpload, Uploads } from './contracts';

/**
 * The byte pipeline's contracts kept in memory, for tests of the storage routes alone: uploads
 * finish at once, and reads serve the kept bytes (ranges included).
 */
export class MemoryBytes implements Uploads, FileContent {
  private readonly finishedUploads = new Map<string, FinishedUpload>();
  private readonly contents = new Map<string, Buffer>();
  readonly destroyed: string[] = [];

  /** A finished upload of these bytes; `claimedSize` pretends a larger file without holding its bytes. */
  upload(userId: string, storageId: string, bytes: Buffer | string, claimedSize?: number): string {
    const data = Buffer.from(bytes);
    const uploadId = randomUUID().replaceAll('-', '');
    const keyId = randomUUID();
    this.contents.set(keyId, data);
    const manifest: FileManifest = {
      keyId,
      chunkPlainSize: 1_048_548,
      chunks: [{ cid: `b${keyId}`, size: 1_048_576 }],
      size: claimedSize ?? data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
    };
    this.finishedUploads.set(uploadId, { uploadId, userId, storageId, manifest });
    return uploadId;
  }

  async finished(uploadId: string, userId: string): Promise<FinishedUpload | null> {
    const found = this.finishedUploads.get(uploadId);
    return found && found.userId === userId ? found : null;
  }

  private readonly claimed = new Set<string>();

  async claim(uploadId: string, userId: string, secureFetchLinkId: string | null): Promise<FinishedUpload | null> {
    const found = await this.finished(uploadId, userId);
    if (!found || (found.secureFetchLinkId ?? null) !== secureFetchLinkId) return null;
    this.claimed.add(uploadId);
    return found;
  }

  async unclaim(uploadId: string): Promise<void> {
    this.claimed.delete(uploadId);
  }

  async consumed(uploadId: string): Promise<void> {
    if (this.claimed.delete(uploadId)) this.finishedUploads.delete(uploadId);
  }

  async endLink(): Promise<void> {}

  async linkClaimsBefore(): Promise<{ uploadId: string; linkId: string }[]> {
    return [];
  }

  async discardClaim(): Promise<boolean> {
    return false;
  }

  read(manifest: FileManifest, range?: { start: number; end: number }): Readable {
    const data = this.contents.get(manifest.keyId);
    if (!data) throw new Error(`no content ${manifest.keyId}`);
    return Readable.from([range ? data.subarray(range.start, range.end + 1) : data]);
  }

  async destroy(manifest: FileManifest): Promise<void> {
    this.contents.delete(manifest.keyId);
    this.destroyed.push(manifest.keyId);
  }

  has(keyId: string): boolean {
    return this.contents.has(keyId);
  }
}

/**
 * A test app (rate limits x100) with its bytes kept in memory, started before the file's tests and
 * stopped after them: a getter of the app, and the bytes.
 */
export const storageTestApp = () => {
  const bytes = new MemoryBytes();
  const t = useTestApp({ env: { RATE_LIMIT_FACTOR: '100' }, bytes: { uploads: bytes, content: bytes } });
  return { t, bytes };
};
