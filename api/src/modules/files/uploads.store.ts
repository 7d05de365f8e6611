import { createHash, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { CHUNK_PLAIN_SIZE, ChunkWriter, openTail, readPlaintext, sealTail, type FileKeys, type ReplicatedBlobStore } from '@axel/platform/blobs/index';
import type { Pool, PoolClient } from '@axel/platform';
import { MultiHash, type MultiDigest } from '@axel/platform/hashing/index';
import { DomainError, SecureFetchErrors, StorageErrors, type StorageRegion } from '@axel/domain';
import { DataStore, ERRORS, Upload, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import { pausepoint } from '../../failpoints';
import type { ChunkRef, FileManifest, QuotaGate, UploadHashes, UploadPlacements } from './contracts';
import { resumeCertificateHashes, RunningSha256, UploadHashing } from './uploads.hashing';

export const UPLOAD_ID = /^[0-9a-f]{32}$/;

/**
 * Chunks of one request being stored at once: each is written to its shards as soon as it is
 * sealed, beside the earlier ones still waiting for their disks, and recorded strictly in order.
 */
export const CHUNKS_IN_FLIGHT = 8;

/**
 * Anonymous (Secure Fetch) uploads one link may have receiving at once: each holds its size of the
 * owner's quota, so a link holder can reserve at most this many times the link's size limit.
 */
export const LINK_UPLOADS_AT_ONCE = 6;

/** How long an anonymous upload may hold its reservation before its first bytes are stored. */
export const ANONYMOUS_IDLE_MS = 10 * 60_000;

interface UploadRow {
  id: string;
  user_id: string;
  storage_id: string;
  key_id: string;
  size: number;
  offset: number;
  tail: Buffer | null;
  /** `claimed`: being made into a file (or a Secure Fetch submission); it can no longer be discarded. */
  status: 'receiving' | 'finished' | 'claimed';
  sha256: string | null;
  created_at: Date;
  secure_fetch_link_id: string | null;
  hash_state: Buffer | null;
  hashes: UploadHashes | null;
  /** The account's region when the upload was made: its chunks are kept there (null: before regions, the home shards). */
  region: StorageRegion | null;
}

const ROW = `id, user_id, storage_id, key_id, size, "offset", tail, status, sha256, created_at, secure_fetch_link_id, hash_state, hashes, region`;

export { openHashState, sealHashState } from './uploads.hashing';

/**
 * A lock per upload on PostgreSQL advisory locks, so several API processes can serve one upload's
 * requests. A newer request for an upload held in this process asks the holder to let go (tus's
 * `requestRelease`: a client that reconnects need not wait for its dead request); one held by
 * another process is waited for until its request ends or the timeout.
 */
export class PgLocker implements Locker {
  readonly holders = new Map<string, RequestRelease>();
  /**
   * Awaited before a lock is let go: tus may end a request (a client that vanished) while the data
   * store still records what arrived, and the next holder, in any process, must see that record.
   */
  beforeUnlock: (id: string) => Promise<void> = async () => undefined;
  constructor(
    readonly pool: Pool,
    readonly timeoutMs = 30_000,
  ) {}
  newLock(id: string): Lock {
    return new PgLock(this, id);
  }
}

const LOCK_SPACE = 7_310_042;
const LINK_LOCK_SPACE = 7_310_043;

class PgLock implements Lock {
  private client: PoolClient | undefined;
  constructor(
    private readonly locker: PgLocker,
    private readonly id: string,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.locker.timeoutMs;
    const client = await this.locker.pool.connect();
    try {
      for (;;) {
        const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, hashtext($2)) as ok', [LOCK_SPACE, this.id]);
        if (rows[0]!.ok) break;
        await this.locker.holders.get(this.id)?.();
        if (signal.aborted || Date.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
        await new Promise((r) => setTimeout(r, 25));
      }
    } catch (error) {
      client.release();
      throw error;
    }
    this.client = client;
    this.locker.holders.set(this.id, requestRelease);
  }

  async unlock(): Promise<void> {
    const client = this.client;
    if (!client) return;
    await this.locker.beforeUnlock(this.id).catch(() => undefined);
    this.client = undefined;
    if (this.locker.holders.get(this.id)) this.locker.holders.delete(this.id);
    try {
      await client.query('select pg_advisory_unlock($1, hashtext($2))', [LOCK_SPACE, this.id]);
      client.release();
    } catch (error) {
      // a broken connection drops its locks with it
      client.release(error as Error);
    }
  }
}

/** The metadata tus answers: an anonymous uploader is told its link, never the owner's storage. */
const metadataOf = (row: Pick<UploadRow, 'storage_id' | 'secure_fetch_link_id'>): Record<string, string> =>
  row.secure_fetch_link_id ? { secureFetchId: row.secure_fetch_link_id } : { storageId: row.storage_id };

export interface EncryptingStoreDeps {
  readonly pool: Pool;
  readonly blobs: ReplicatedBlobStore;
  /** The region an account's new uploads are kept in, and the store of a region's shards (without them: the home shards). */
  readonly regionOf?: (userId: string) => Promise<StorageRegion>;
  readonly storeOfRegion?: (region: StorageRegion | null) => ReplicatedBlobStore;
  readonly keys: FileKeys;
  readonly quota: QuotaGate;
  /** Whether a claimed upload's file was made (asked when a claim outlives the expiry); unknown without it. */
  readonly placements?: UploadPlacements;
  readonly nodeId: string;
  /** How long an upload may stay unfinished (and a finished one unused) before it is collected. */
  readonly expiryMs: number;
  readonly now: () => Date;
  readonly onError?: (message: string, meta: Record<string, unknown>) => void;
}

/**
 * The tus data store: bytes are cut into chunks, encrypted under the upload's own file key and
 * placed on their shards as they arrive (`ChunkWriter`); the bytes after the last whole chunk are
 * kept sealed in PostgreSQL. No plaintext is ever written anywhere. Progress is recorded after every
 * chunk, so a crash loses at most the chunks in flight, and the offset a client resumes from is
 * always stored. This store keeps the rows: offsets, chunks, tails and hash states.
 *
 * The plaintext SHA-256 is computed as bytes arrive (`RunningSha256`, in memory while this process
 * serves the upload); when a restart or another process broke that chain, the hash is computed once
 * at the end by reading the verified chunks back.
 */
export class EncryptingDataStore extends DataStore {
  private readonly sha256 = new RunningSha256();
  /** A write still flushing after its request ended (a client that went away): the next request waits for it. */
  private readonly active = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: EncryptingStoreDeps) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  }

  private async row(id: string): Promise<UploadRow | undefined> {
    if (!UPLOAD_ID.test(id)) return undefined;
    const { rows } = await this.deps.pool.query<UploadRow>(`select ${ROW} from uploads where id = $1`, [id]);
    return rows[0];
  }

  /** Whose upload this is, and the Secure Fetch link it came through (anonymous uploads). */
  async ownerOf(id: string): Promise<{ userId: string; secureFetchLinkId: string | null } | undefined> {
    if (!UPLOAD_ID.test(id)) return undefined;
    // asked on every request: the row without its tail and hash state
    const { rows } = await this.deps.pool.query<Pick<UploadRow, 'user_id' | 'secure_fetch_link_id'>>(
      'select user_id, secure_fetch_link_id from uploads where id = $1',
      [id],
    );
    return rows[0] && { userId: rows[0].user_id, secureFetchLinkId: rows[0].secure_fetch_link_id };
  }

  override async create(upload: Upload): Promise<Upload> {
    const userId = upload.metadata?.userId;
    const storageId = upload.metadata?.storageId;
    const linkId = upload.metadata?.secureFetchId ?? null;
    if (!userId || !storageId || upload.size === undefined) throw ERRORS.INVALID_METADATA;
    const { keyId } = await this.deps.keys.create();
    const created = this.deps.now();
    // an anonymous upload holds the owner's space only briefly until its first bytes are stored
    const expires = new Date(created.getTime() + (linkId ? Math.min(ANONYMOUS_IDLE_MS, this.deps.expiryMs) : this.deps.expiryMs));
    // the region is fixed when the upload is made: a change of the account's region applies to later uploads
    const region = (await this.deps.regionOf?.(userId)) ?? null;
    const values = [upload.id, userId, storageId, this.deps.nodeId, keyId, upload.size, created, expires, linkId, region];
    const insert = `insert into uploads (id, user_id, storage_id, node_id, key_id, size, created_at, expires_at, secure_fetch_link_id, region)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;
    if (linkId) {
      // a few receiving uploads per link at once, counted under the link's lock (so across processes)
      const client = await this.deps.pool.connect();
      let refused = false;
      try {
        await client.query('begin');
        await client.query('select pg_advisory_xact_lock($1, hashtext($2))', [LINK_LOCK_SPACE, linkId]);
        const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from uploads where secure_fetch_link_id = $1 and status = 'receiving'`, [
          linkId,
        ]);
        refused = rows[0]!.n >= LINK_UPLOADS_AT_ONCE;
        if (!refused) await client.query(insert, values);
        await client.query('commit');
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
      if (refused) {
        await this.deps.keys.destroy(keyId);
        await this.deps.quota.release({ userId, storageId, uploadId: upload.id });
        throw new DomainError(SecureFetchErrors.busy, { uploadsAtOnce: LINK_UPLOADS_AT_ONCE });
      }
    } else {
      await this.deps.pool.query(insert, values);
    }
    upload.creation_date = created.toISOString();
    upload.metadata = metadataOf({ storage_id: storageId, secure_fetch_link_id: linkId });
    if (upload.size === 0) await this.finish(upload.id, keyId, 0, [], createHash('sha256'), linkId ? await MultiHash.open() : undefined);
    return upload;
  }

  async settled(id: string) {
    await this.active.get(id)?.catch(() => undefined);
  }

  override async getUpload(id: string): Promise<Upload> {
    await this.settled(id);
    const row = await this.row(id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    // every byte recorded but the upload not marked finished: the process stopped in between
    if (row.status === 'receiving' && row.offset === row.size && row.size > 0) await this.recover(row);
    return new Upload({
      id: row.id,
      size: row.size,
      offset: row.offset,
      metadata: metadataOf(row),
      creation_date: row.created_at.toISOString(),
      storage: { type: 'axel-chunks', path: row.id },
    });
  }

  /** Finishes an upload whose last chunk was recorded by a process that stopped before finishing it. */
  private async recover(row: UploadRow) {
    const multi = row.secure_fetch_link_id
      ? await resumeCertificateHashes(await this.deps.keys.get(row.key_id), row.key_id, row.offset, row.hash_state)
      : undefined;
    try {
      await this.finish(row.id, row.key_id, row.size, await this.chunksOf(row.id), undefined, multi);
    } finally {
      multi?.close();
    }
  }

  private async chunksOf(id: string): Promise<ChunkRef[]> {
    const { rows } = await this.deps.pool.query<{ cid: string; size: number }>('select cid, size from upload_chunks where upload_id = $1 order by index', [id]);
    return rows.map((r) => ({ cid: r.cid, size: r.size }));
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    await this.settled(id);
    const run = this.receive(stream, id, offset);
    this.active.set(id, run);
    try {
      return await run;
    } finally {
      if (this.active.get(id) === run) this.active.delete(id);
    }
  }

  private async receive(stream: Readable, id: string, offset: number): Promise<number> {
    const row = await this.row(id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    if (row.status !== 'receiving') throw ERRORS.INVALID_OFFSET;
    if (row.offset !== offset) throw ERRORS.INVALID_OFFSET;
    const { pool } = this.deps;
    const key = await this.deps.keys.get(row.key_id);
    const size = row.size;
    const tail = row.tail ? openTail(key, row.key_id, Math.floor(offset / CHUNK_PLAIN_SIZE), row.tail) : undefined;
    // a kept tail was hashed by its own request: the hashes go on from the offset
    const hashing = new UploadHashing(
      this.sha256.take(id, offset),
      // Secure Fetch uploads: MD5, SHA-1 and SHA3-512 of the plaintext, one pass, resumed from the stored state
      row.secure_fetch_link_id ? await resumeCertificateHashes(key, row.key_id, row.offset, row.hash_state) : undefined,
      key,
      row.key_id,
    );
    let received = offset;
    let recorded = offset;
    let streamError: unknown;
    try {
      // each chunk is recorded (offset and hash state included) once durable, in order: the chunks
      // found durable together are recorded together, the hash state of the last one with them
      const writer = new ChunkWriter<Buffer>({
        key,
        keyId: row.key_id,
        blobs: this.deps.storeOfRegion?.(row.region) ?? this.deps.blobs,
        size,
        offset,
        ...(tail ? { tail } : {}),
        inFlight: CHUNKS_IN_FLIGHT,
        cut: (plaintext, at) => hashing.add(plaintext, at),
        record: async (batch) => {
          const end = batch.at(-1)!;
          // only from the offset this request started at: a stale request can never overwrite a newer one
          const { rowCount } = await pool.query(
            `with u as (update uploads set "offset" = $2, tail = null, hash_state = coalesce($4, hash_state), expires_at = greatest(expires_at, $8)
                        where id = $1 and "offset" = $3 and status = 'receiving' returning id)
             insert into upload_chunks (upload_id, index, cid, size) select u.id, c.index, c.cid, c.size from u, unnest($5::int[], $6::text[], $7::int[]) as c(index, cid, size)`,
            [
              id,
              end.newOffset,
              batch[0]!.fromOffset,
              end.kept ?? null,
              batch.map((c) => c.index),
              batch.map((c) => c.cid),
              batch.map((c) => c.size),
              this.fullExpiry(row),
            ],
          );
          if (rowCount !== batch.length) throw ERRORS.INVALID_OFFSET;
        },
      });

      // the client went away: what arrived is still kept, and the stored offset says where to resume
      streamError = await writer.take(stream as AsyncIterable<Buffer>);
      try {
        const end = await writer.end();
        received = end.received;
        recorded = end.recorded;
        if (end.tail) {
          const sealedTail = sealTail(key, row.key_id, end.tail.index, end.tail.plaintext);
          const { rowCount } = await pool.query(
            `update uploads set "offset" = $2, tail = $3, hash_state = coalesce($5, hash_state), expires_at = greatest(expires_at, $6)
             where id = $1 and "offset" = $4 and status = 'receiving'`,
            [id, received, sealedTail, recorded, end.tail.kept ?? null, this.fullExpiry(row)],
          );
          if (!rowCount) throw ERRORS.INVALID_OFFSET;
          recorded = received;
        }
      } catch (error) {
        this.deps.onError?.('upload chunk could not be stored', { uploadId: id, err: error });
        throw streamError ?? error;
      }
      if (recorded === size) {
        await this.finish(id, row.key_id, size, await this.chunksOf(id), hashing.sha256, hashing.certificate);
      } else if (hashing.sha256 && recorded === received) {
        this.sha256.keep(id, recorded, hashing.sha256);
      }
    } finally {
      // idempotent: a digest has already ended the session
      hashing.close();
    }
    if (streamError && recorded === offset) throw streamError;
    return recorded;
  }

  private async finish(id: string, keyId: string, size: number, chunks: ChunkRef[], hash: Hash | undefined, multi?: MultiHash) {
    let digest: string;
    if (hash) {
      digest = hash.digest('hex');
    } else {
      const rehash = createHash('sha256');
      for await (const part of readPlaintext(this.deps.blobs, this.deps.keys, { keyId, chunkPlainSize: CHUNK_PLAIN_SIZE, chunks, size }))
        rehash.update(part as Buffer);
      digest = rehash.digest('hex');
    }
    const hashes: MultiDigest | null = multi ? await multi.digest() : null;
    const finished = this.deps.now();
    await this.deps.pool.query(
      `update uploads set status = 'finished', sha256 = $2, finished_at = $3, expires_at = greatest(expires_at, $4), tail = null, hash_state = null, hashes = $5
       where id = $1 and status = 'receiving'`,
      [id, digest, finished, new Date(finished.getTime() + this.deps.expiryMs), hashes],
    );
  }

  /** When an upload whose bytes are arriving expires: the full time from its creation. */
  private fullExpiry(row: Pick<UploadRow, 'created_at'>): Date {
    return new Date(row.created_at.getTime() + this.deps.expiryMs);
  }

  /**
   * The upload's bytes forgotten: key destroyed, chunks collected, quota given back. Only an upload
   * nothing has claimed: the row goes in one statement that a claim cannot pass (see `claim`), so an
   * upload is either discarded or made into a file, never both. False when it was not discarded.
   */
  private async discard(row: Pick<UploadRow, 'id' | 'user_id' | 'storage_id' | 'key_id'>) {
    const chunks = await this.chunksOf(row.id);
    await pausepoint('upload-discard:before-delete');
    const { rowCount } = await this.deps.pool.query(`delete from uploads where id = $1 and status in ('receiving', 'finished')`, [row.id]);
    if (!rowCount) return false;
    this.sha256.forget(row.id);
    await pausepoint('upload-discard:deleted');
    await this.deps.keys.destroy(row.key_id);
    for (const chunk of chunks) await this.deps.blobs.delete(chunk.cid);
    await this.deps.quota.release({ userId: row.user_id, storageId: row.storage_id, uploadId: row.id });
    return true;
  }

  override async remove(id: string): Promise<void> {
    await this.settled(id);
    const row = await this.row(id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    if (row.status !== 'claimed' && (await this.discard(row))) return;
    // claimed (now, or between the read and the deletion): its file is being made, the bytes stay
    if ((await this.row(id))?.status === 'claimed') throw new DomainError(StorageErrors.uploadBeingSaved);
    throw ERRORS.FILE_NOT_FOUND;
  }

  override async deleteExpired(): Promise<number> {
    const { rows } = await this.deps.pool.query<UploadRow>(
      'select id, user_id, storage_id, key_id, status, secure_fetch_link_id from uploads where expires_at < $1 order by expires_at limit 1000',
      [this.deps.now()],
    );
    let removed = 0;
    for (const row of rows) {
      if (row.status === 'claimed') await this.expireClaim(row);
      else if (await this.discard(row)) removed++;
    }
    return removed;
  }

  /**
   * A claim that outlived the expiry (its process stopped between the claim and the end): made into
   * its file, the row goes and the bytes stay with the file; a file creation that never made it gives
   * the upload back to expire as any other; anything unknown is kept, never destroyed.
   */
  private async expireClaim(row: Pick<UploadRow, 'id' | 'user_id' | 'storage_id' | 'key_id' | 'secure_fetch_link_id'>) {
    const placed = await this.deps.placements
      ?.placed({ userId: row.user_id, storageId: row.storage_id, uploadId: row.id, keyId: row.key_id })
      .catch(() => undefined);
    if (placed === true) return this.consumed(row.id);
    if (placed === false && !row.secure_fetch_link_id) return this.unclaim(row.id, null);
    await this.deps.pool.query(`update uploads set expires_at = $2 where id = $1 and status = 'claimed'`, [
      row.id,
      new Date(this.deps.now().getTime() + this.deps.expiryMs),
    ]);
    this.deps.onError?.('a claimed upload outlived its expiry: kept', { uploadId: row.id });
  }

  /** The anonymous uploads of a link not claimed by its submission, discarded (the link was revoked or used). */
  async endLink(linkId: string): Promise<number> {
    const { rows } = await this.deps.pool.query<UploadRow>(
      `select id, user_id, storage_id, key_id from uploads where secure_fetch_link_id = $1 and status in ('receiving', 'finished')`,
      [linkId],
    );
    let removed = 0;
    for (const row of rows) {
      await this.settled(row.id);
      if (await this.discard(row)) removed++;
    }
    return removed;
  }

  override getExpiration(): number {
    return this.deps.expiryMs;
  }

  // ---- the pipeline's side of the contracts --------------------------------------------------

  async finished(
    uploadId: string,
    userId: string,
  ): Promise<{ storageId: string; manifest: FileManifest; hashes?: UploadHashes; secureFetchLinkId?: string } | null> {
    const row = await this.row(uploadId);
    if (!row || row.user_id !== userId || row.status !== 'finished') return null;
    return {
      storageId: row.storage_id,
      manifest: {
        keyId: row.key_id,
        chunkPlainSize: CHUNK_PLAIN_SIZE,
        chunks: await this.chunksOf(uploadId),
        size: row.size,
        sha256: row.sha256!,
        ...(row.region ? { region: row.region } : {}),
      },
      ...(row.hashes ? { hashes: { md5: row.hashes.md5, sha1: row.hashes.sha1, sha3_512: row.hashes.sha3_512 } } : {}),
      ...(row.secure_fetch_link_id ? { secureFetchLinkId: row.secure_fetch_link_id } : {}),
    };
  }

  /**
   * Claims a finished upload for the file (or the Secure Fetch submission) it is being made into:
   * from then on it can no longer be discarded. A file creation claims only uploads made with a
   * session (`secureFetchLinkId` null), a submission only the uploads of its own link; claiming
   * again for the same (a retry) answers the same. Null when unknown, someone else's, unfinished,
   * used up or discarded.
   */
  async claim(
    uploadId: string,
    userId: string,
    secureFetchLinkId: string | null,
  ): Promise<{ storageId: string; manifest: FileManifest; hashes?: UploadHashes; secureFetchLinkId?: string } | null> {
    if (!UPLOAD_ID.test(uploadId)) return null;
    const { rows } = await this.deps.pool.query<UploadRow>(
      `update uploads set status = 'claimed', expires_at = greatest(expires_at, $4), claimed_at = $5
       where id = $1 and user_id = $2 and status in ('finished', 'claimed') and secure_fetch_link_id is not distinct from $3
       returning ${ROW}`,
      [uploadId, userId, secureFetchLinkId, new Date(this.deps.now().getTime() + this.deps.expiryMs), this.deps.now()],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      storageId: row.storage_id,
      manifest: {
        keyId: row.key_id,
        chunkPlainSize: CHUNK_PLAIN_SIZE,
        chunks: await this.chunksOf(uploadId),
        size: row.size,
        sha256: row.sha256!,
        ...(row.region ? { region: row.region } : {}),
      },
      ...(row.hashes ? { hashes: { md5: row.hashes.md5, sha1: row.hashes.sha1, sha3_512: row.hashes.sha3_512 } } : {}),
      ...(row.secure_fetch_link_id ? { secureFetchLinkId: row.secure_fetch_link_id } : {}),
    };
  }

  /** A claim given back (its file was refused): the upload is finished and unused again. */
  async unclaim(uploadId: string, secureFetchLinkId: string | null): Promise<void> {
    if (!UPLOAD_ID.test(uploadId)) return;
    await this.deps.pool.query(
      `update uploads set status = 'finished', claimed_at = null where id = $1 and status = 'claimed' and secure_fetch_link_id is not distinct from $2`,
      [uploadId, secureFetchLinkId],
    );
  }

  /** The uploads of Secure Fetch links claimed before `claimedBefore` and claimed still, oldest first. */
  async linkClaimsBefore(claimedBefore: Date): Promise<{ uploadId: string; linkId: string }[]> {
    const { rows } = await this.deps.pool.query<{ id: string; secure_fetch_link_id: string }>(
      `select id, secure_fetch_link_id from uploads
       where status = 'claimed' and secure_fetch_link_id is not null and claimed_at < $1 order by claimed_at limit 1000`,
      [claimedBefore],
    );
    return rows.map((r) => ({ uploadId: r.id, linkId: r.secure_fetch_link_id }));
  }

  /**
   * A link's claim made before `claimedBefore` and never claimed again since, given back and the
   * upload discarded with its reserved space. False when it was claimed again, or is gone.
   */
  async discardClaim(uploadId: string, linkId: string, claimedBefore: Date): Promise<boolean> {
    const { rows } = await this.deps.pool.query<UploadRow>(
      `update uploads set status = 'finished', claimed_at = null
       where id = $1 and status = 'claimed' and secure_fetch_link_id = $2 and claimed_at < $3 returning ${ROW}`,
      [uploadId, linkId, claimedBefore],
    );
    return rows[0] ? this.discard(rows[0]) : false;
  }

  /** The chunks now belong to a file: the claimed upload's row goes, its key and chunks stay. */
  async consumed(uploadId: string): Promise<void> {
    if (!UPLOAD_ID.test(uploadId)) return;
    await this.deps.pool.query(`delete from uploads where id = $1 and status = 'claimed'`, [uploadId]);
    this.sha256.forget(uploadId);
  }

  /** Every upload's chunks so far, for the scrub. */
  async *manifests(): AsyncIterable<{ chunks: ChunkRef[] }> {
    let after = '';
    for (;;) {
      const { rows } = await this.deps.pool.query<{ id: string }>('select id from uploads where id > $1 order by id limit 200', [after]);
      if (!rows.length) return;
      for (const r of rows) yield { chunks: await this.chunksOf(r.id) };
      after = rows.at(-1)!.id;
    }
  }
}
