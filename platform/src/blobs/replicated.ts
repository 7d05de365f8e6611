import { createHash } from 'node:crypto';
import type { BlobBytes, BlobStore } from './blobstore';
import { cidOf } from './cid';

/** Rendezvous (highest random weight) hashing: the R shards of a chunk, best first; stable when shards are added. */
export const placement = (cid: string, shardNames: readonly string[], replicas: number): number[] =>
  shardNames
    .map((name, index) => ({ index, score: createHash('sha256').update(`${cid}\0${name}`).digest().readBigUInt64BE(0) }))
    .sort((a, b) => (a.score === b.score ? a.index - b.index : a.score > b.score ? -1 : 1))
    .slice(0, Math.min(replicas, shardNames.length))
    .map((s) => s.index);

export type ReplicaState = 'good' | 'missing' | 'damaged';
export type RepairOutcome = 'ok' | 'repaired' | 'lost';

export class ChunkLostError extends Error {
  constructor(readonly cid: string) {
    super(`chunk ${cid} has no intact replica`);
    this.name = 'ChunkLostError';
  }
}

/**
 * Chunks on R of N shards. Every read re-hashes the bytes against the CID and moves on to the next
 * replica when one is missing or damaged, so a bad disk never serves a bad byte.
 */
export class ReplicatedBlobStore {
  readonly replicas: number;
  private readonly names: string[];

  constructor(
    readonly shards: readonly BlobStore[],
    replicas: number,
    private readonly onBadReplica?: (info: { cid: string; shard: string; state: ReplicaState }) => void,
  ) {
    if (!shards.length) throw new Error('no shards');
    this.replicas = Math.max(1, Math.min(replicas, shards.length));
    this.names = shards.map((s) => s.name);
    if (new Set(this.names).size !== this.names.length) throw new Error('shard names must be unique');
  }

  placementOf(cid: string): BlobStore[] {
    return placement(cid, this.names, this.replicas).map((i) => this.shards[i]!);
  }

  /**
   * Stores ciphertext (whole or in parts) on its R shards at once; answers its CID. It settles only when
   * no shard still reads the bytes: a failed shard does not end the put while another still writes
   * from the caller's buffers.
   */
  async put(bytes: BlobBytes): Promise<string> {
    const cid = cidOf(bytes);
    const results = await Promise.allSettled(this.placementOf(cid).map((shard) => shard.put(cid, bytes)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    return cid;
  }

  private async inspect(shard: BlobStore, cid: string): Promise<{ state: ReplicaState; bytes?: Buffer }> {
    let bytes: Buffer | null;
    try {
      bytes = await shard.get(cid);
    } catch {
      return { state: 'missing' };
    }
    if (!bytes) return { state: 'missing' };
    return cidOf(bytes) === cid ? { state: 'good', bytes } : { state: 'damaged' };
  }

  /** Verified ciphertext of a chunk from the first intact replica; throws `ChunkLostError` when there is none. */
  async get(cid: string): Promise<Buffer> {
    const placed = this.placementOf(cid);
    // after a change of shard count a chunk may still sit where the old placement put it
    const others = this.shards.filter((s) => !placed.includes(s));
    for (const shard of [...placed, ...others]) {
      const found = await this.inspect(shard, cid);
      if (found.state === 'good') return found.bytes!;
      if (placed.includes(shard)) this.onBadReplica?.({ cid, shard: shard.name, state: found.state });
    }
    throw new ChunkLostError(cid);
  }

  /**
   * Like `get`, read into `target` where the shard can (a replica that fills it, so may be longer, is
   * read whole instead): answers the verified bytes, often a view of `target`, valid until it is reused.
   * `verify` gives the CID of bytes read into `target` (it may hash them on another thread).
   */
  async getInto(cid: string, target: Buffer, verify: (bytes: Buffer) => string | Promise<string> = cidOf): Promise<Buffer> {
    const placed = this.placementOf(cid);
    const others = this.shards.filter((s) => !placed.includes(s));
    for (const shard of [...placed, ...others]) {
      let found: { state: ReplicaState; bytes?: Buffer } | undefined;
      if (shard.readInto) {
        const read = await shard.readInto(cid, target).catch(() => null);
        if (read === null) found = { state: 'missing' };
        else if (read < target.length) found = (await verify(target.subarray(0, read))) === cid ? { state: 'good', bytes: target.subarray(0, read) } : { state: 'damaged' };
      }
      found ??= await this.inspect(shard, cid);
      const { state, bytes } = found;
      if (state === 'good') return bytes!;
      if (placed.includes(shard)) this.onBadReplica?.({ cid, shard: shard.name, state });
    }
    throw new ChunkLostError(cid);
  }

  /**
   * For a reader that opens replica files itself (a worker thread): when every shard holding the chunk
   * is a folder on this machine, `read` gets its placed replicas' files, best first, and whether all
   * may be read with O_DIRECT, and answers what it passed over and what it found. Replicas passed over
   * before an intact one are reported here; undefined (nothing reported) when the shards are not local
   * or no placed replica was intact: `getInto` then looks everywhere and reports them itself.
   */
  async readLocal<T>(
    cid: string,
    read: (files: string[], direct: boolean) => Promise<{ passedOver: readonly ReplicaState[]; found?: T }>,
  ): Promise<T | undefined> {
    const placed = this.placementOf(cid);
    if (!placed.every((s) => s.fileOf)) return undefined;
    const files = placed.map((s) => s.fileOf!(cid));
    const { passedOver, found } = await read(
      files.map((f) => f.file),
      files.every((f) => f.direct),
    );
    if (found === undefined) return undefined;
    passedOver.forEach((state, i) => this.onBadReplica?.({ cid, shard: placed[i]!.name, state }));
    return found;
  }

  async delete(cid: string): Promise<void> {
    await Promise.all(this.shards.map((s) => s.delete(cid)));
  }

  /** Re-creates missing or damaged replicas from an intact one. */
  async repair(cid: string): Promise<RepairOutcome> {
    const placed = this.placementOf(cid);
    const states = await Promise.all(placed.map((s) => this.inspect(s, cid)));
    let good = states.find((s) => s.state === 'good')?.bytes;
    if (!good) {
      for (const shard of this.shards.filter((s) => !placed.includes(s))) {
        const found = await this.inspect(shard, cid);
        if (found.state === 'good') {
          good = found.bytes;
          break;
        }
      }
    }
    const bad = placed.filter((_, i) => states[i]!.state !== 'good');
    if (!bad.length) return 'ok';
    if (!good) return 'lost';
    for (const shard of bad) {
      await shard.delete(cid);
      await shard.put(cid, good);
    }
    return 'repaired';
  }

  async health() {
    return Promise.all(this.shards.map(async (shard) => ({ shard: shard.name, ...(await shard.usage()) })));
  }
}
