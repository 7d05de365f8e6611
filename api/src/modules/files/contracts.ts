import type { Readable } from 'node:stream';
import type { StorageRegion } from '@axel/domain';
import type { ReadOptions } from '@axel/platform/blobs/index';

/*
 * The seams between the byte pipeline (blob store, encryption, tus uploads, streamed reads) and the
 * storage slice (storages, folders, files, quota, trash, tasks). Each side is built against these
 * types; the composition root (files.module.ts) wires one to the other.
 */

/** One stored chunk: its CIDv1 (raw codec, sha2-256, base32 `b...`) and its ciphertext size. */
export interface ChunkRef {
  readonly cid: string;
  readonly size: number;
}

/** What it takes to read a file version back: which key, which chunks, what the plaintext was. */
export interface FileManifest {
  /** Row of the file-key table holding the data key wrapped by a master key (rotation re-wraps it there). */
  readonly keyId: string;
  /** Plaintext bytes per chunk (1 MiB less the 28 bytes of nonce and tag). */
  readonly chunkPlainSize: number;
  readonly chunks: readonly ChunkRef[];
  /** Exact plaintext size (the last chunk is padded). */
  readonly size: number;
  /** The region its chunks were put in (absent: uploaded before regions, on the home shards). */
  readonly region?: StorageRegion;
  /** SHA-256 of the plaintext, hex. */
  readonly sha256: string;
}

/** A tus upload whose bytes have all arrived, not yet turned into a file. */
export interface FinishedUpload {
  readonly uploadId: string;
  readonly userId: string;
  readonly storageId: string;
  readonly manifest: FileManifest;
  /**
   * MD5, SHA-1 and SHA3-512 of the plaintext (lowercase hex), computed in the same streaming pass
   * as the bytes arrived: present on Secure Fetch uploads only.
   */
  readonly hashes?: UploadHashes;
  /** The Secure Fetch link (its public linkId) this upload was created through, if any. */
  readonly secureFetchLinkId?: string;
}

/** The certificate's hashes of one upload's plaintext, lowercase hex. */
export interface UploadHashes {
  readonly md5: string;
  readonly sha1: string;
  readonly sha3_512: string;
}

/** Implemented by the upload pipeline. */
export interface Uploads {
  /**
   * The finished upload of this user, or null (unknown, someone else's, unfinished or already used).
   * A Secure Fetch upload belongs to the link owner: pass the owner's id and check `secureFetchLinkId`.
   */
  finished(uploadId: string, userId: string): Promise<FinishedUpload | null>;
  /**
   * Claims the finished upload for the file being made of it: from then on it can no longer be
   * discarded (a tus DELETE answers that it is being saved). A file creation passes
   * `secureFetchLinkId` null and claims only session uploads; a Secure Fetch submission passes its
   * link and claims only that link's uploads. Claiming again for the same answers the same (a retry).
   * Null when unknown, someone else's, unfinished, used up or discarded.
   */
  claim(uploadId: string, userId: string, secureFetchLinkId: string | null): Promise<FinishedUpload | null>;
  /** The claim given back (the file was refused): the upload is unused again. */
  unclaim(uploadId: string, secureFetchLinkId: string | null): Promise<void>;
  /** The claimed upload became a file: its chunks now belong to that file and the upload is gone. */
  consumed(uploadId: string): Promise<void>;
  /** A Secure Fetch link revoked or used: its uploads not claimed by its submission are discarded. */
  endLink(linkId: string): Promise<void>;
  /** The Secure Fetch links' uploads claimed before `claimedBefore` and claimed still. */
  linkClaimsBefore(claimedBefore: Date): Promise<readonly { uploadId: string; linkId: string }[]>;
  /**
   * A link's claim made before `claimedBefore` (by a submission that stopped) given back, and the
   * upload discarded with its reserved space; false when it was claimed again since, or is gone.
   */
  discardClaim(uploadId: string, linkId: string, claimedBefore: Date): Promise<boolean>;
}

/**
 * Implemented by the storage slice: whether the file of a claimed upload was made (the claim's
 * process may have stopped before it said so).
 */
export interface UploadPlacements {
  placed(input: { userId: string; storageId: string; uploadId: string; keyId: string }): Promise<boolean>;
}

/**
 * Implemented by the storage slice: decided in the storage's own event stream, so concurrent
 * uploads can never together exceed the quota. Called by the pipeline when a tus upload is created
 * (before a byte is stored) and when it is abandoned, expires or is terminated.
 */
export interface QuotaGate {
  /** Throws the spec's quota error (a DomainError) when the storage has no room for `size` more bytes. */
  reserve(input: { userId: string; storageId: string; uploadId: string; size: number }): Promise<void>;
  release(input: { userId: string; storageId: string; uploadId: string }): Promise<void>;
}

/** Implemented by the pipeline: verified plaintext out of the encrypted, sharded chunks. */
export interface FileContent {
  /** Plaintext bytes [start, end] inclusive (the whole file without a range); every chunk verified. */
  read(
    manifest: FileManifest,
    range?: { start: number; end: number },
    options?: ReadOptions & { itemId?: string },
  ): Readable & { firstChunk?(): Promise<void> };
  /** A file version forgotten for ever: its key is destroyed and its chunks collected. */
  destroy(manifest: FileManifest): Promise<void>;
}

/**
 * Implemented by the Secure Fetch slice: an anonymous tus creation whose Upload-Metadata carries
 * `secureFetchId <linkId>` is admitted (or refused) here instead of by a session.
 */
export interface SecureFetchUploadGate {
  /** On tus creation: admits the upload into the link owner's storage or throws the spec's DomainError. */
  admit(request: { linkId: string; size: number }): Promise<{ ownerId: string; storageId: string }>;
}
