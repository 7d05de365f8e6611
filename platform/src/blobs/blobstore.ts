/** A blob's bytes, whole or as parts stored one after the other (a sealed chunk: nonce, body, tag). */
export type BlobBytes = Uint8Array | readonly Uint8Array[];

/** The parts of a blob's bytes. */
export const partsOf = (bytes: BlobBytes): readonly Uint8Array[] => (bytes instanceof Uint8Array ? [bytes] : bytes);

/** Length of a blob's bytes. */
export const lengthOf = (bytes: BlobBytes): number => partsOf(bytes).reduce((n, p) => n + p.byteLength, 0);

/**
 * Where chunk ciphertext lives, addressed by its CID. Adapters only move bytes: verification of a
 * chunk against its CID, replication and repair live above them (`ReplicatedBlobStore`).
 */
export interface BlobStore {
  /** Stores the bytes under their CID; storing the same CID again is a no-op. Durable when it resolves. */
  put(cid: string, bytes: BlobBytes): Promise<void>;
  /** The stored bytes, or null when this store holds no such blob. */
  get(cid: string): Promise<Buffer | null>;
  /**
   * Optional: reads the stored bytes into `target` (no new buffer per read); answers how many bytes
   * it read (at most `target.length`), or null when this store holds no such blob.
   */
  readInto?(cid: string, target: Buffer): Promise<number | null>;
  /**
   * Optional, for a store that is a folder on this machine: the file that holds the blob (whether or
   * not it exists), for a reader that opens it itself, and whether it may be read with O_DIRECT.
   */
  fileOf?(cid: string): { readonly file: string; readonly direct: boolean };
  has(cid: string): Promise<boolean>;
  /** Removes the blob; removing a missing one is a no-op. */
  delete(cid: string): Promise<void>;
  /** Every CID held (for scrub and health). */
  list(): AsyncIterable<string>;
  /**
   * Optional: what is wrong with the store itself (its folder gone, or made again and missing the
   * replicas it should hold), or null when nothing is known to be.
   */
  check?(): Promise<string | null>;
  /** Optional: records that a scrub has just checked every chunk this store should hold. */
  markIntact?(): Promise<void>;
  /** Chunks, bytes and free space (null where the backend cannot tell). */
  usage(): Promise<{ chunks: number; bytes: number; freeBytes: number | null }>;
  readonly name: string;
}
