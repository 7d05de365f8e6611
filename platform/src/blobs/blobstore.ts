/**
 * Where chunk ciphertext lives, addressed by its CID. Adapters only move bytes: verification of a
 * chunk against its CID, replication and repair live above them (`ReplicatedBlobStore`).
 */
export interface BlobStore {
  /** Stores the bytes under their CID; storing the same CID again is a no-op. Durable when it resolves. */
  put(cid: string, bytes: Uint8Array): Promise<void>;
  /** The stored bytes, or null when this store holds no such blob. */
  get(cid: string): Promise<Buffer | null>;
  has(cid: string): Promise<boolean>;
  /** Removes the blob; removing a missing one is a no-op. */
  delete(cid: string): Promise<void>;
  /** Every CID held (for scrub and health). */
  list(): AsyncIterable<string>;
  /** Chunks, bytes and free space (null where the backend cannot tell). */
  usage(): Promise<{ chunks: number; bytes: number; freeBytes: number | null }>;
  readonly name: string;
}
