import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  ByteRangeError,
  ChunkLostError,
  readPlaintext,
  type FileKeys,
  type PlaintextStream,
  type ReadOptions,
  type ReplicatedBlobStore,
} from '@axel/platform/blobs/index';
import { DomainError, type ErrorDefinition } from '@axel/domain';
import type { BlobFaults } from './blob-faults';
import type { FileContent, FileManifest } from './contracts';

const rangeNotSatisfiable: ErrorDefinition = { code: 'RANGE_NOT_SATISFIABLE', status: 416, message: 'The requested range is outside the file' };

/** Verified plaintext out of the encrypted, sharded chunks; crypto-erasure of a file version. */
export class ChunkedFileContent implements FileContent {
  constructor(
    private readonly blobs: ReplicatedBlobStore,
    private readonly keys: FileKeys,
    private readonly faults?: BlobFaults,
  ) {}

  /** A chunk found without an intact replica, before the first byte or in the middle of a stream, is recorded for staff. */
  read(manifest: FileManifest, range?: { start: number; end: number }, options?: ReadOptions & { itemId?: string }): PlaintextStream {
    try {
      const stream = readPlaintext(this.blobs, this.keys, manifest, range, options);
      const lost = (error: unknown) => {
        if (error instanceof ChunkLostError) this.faults?.record({ kind: 'chunk-lost', detail: 'read', cid: error.cid, itemId: options?.itemId ?? null });
      };
      stream.on('error', lost);
      const firstChunk = stream.firstChunk;
      stream.firstChunk = () =>
        firstChunk().catch((error: unknown) => {
          lost(error);
          throw error;
        });
      return stream;
    } catch (error) {
      if (error instanceof ByteRangeError) throw new DomainError(rangeNotSatisfiable, { size: manifest.size });
      throw error;
    }
  }

  async destroy(manifest: FileManifest): Promise<void> {
    // the key first: from this moment every copy of the chunks, wherever it lies, is unreadable
    await this.keys.destroy(manifest.keyId);
    for (const chunk of manifest.chunks) await this.blobs.delete(chunk.cid);
  }
}

/** A stable id of this server node: generated once into DATA_DIR. */
export const loadNodeId = (dataDir: string): string => {
  const file = path.join(dataDir, 'node.id');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, `node-${createHash('sha256').update(randomBytes(32)).digest('hex').slice(0, 16)}\n`, { flag: 'wx', mode: 0o644 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(file, 'utf8').trim();
};
