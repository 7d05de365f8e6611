import { createHash } from 'node:crypto';
import type { BlobBytes, BlobStore } from './blobstore';
import { cidOf } from './cid';

/** Rendezvous (highest random weight) hashing: every shard in a chunk's order of preference, best first. */
export const ranking = (cid: string, shardNames: readonly string[]): number[] =>
  shardNames
    .map((name, index) => ({ index, score: createHash('sha256').update(`${cid}\0${name}`).digest().readBigUInt64BE(0) }))
    .sort((a, b) => (a.score === b.score ? a.index - b.index : a.score > b.score ? -1 : 1))
    .map((s) => s.index);

/** The R shards of a chunk, best first (the head of its ranking); stable when shards are added. */
export const placement = (cid: string, shardNames: readonly string[], replicas: number): number[] =>
  ranking(cid, shardNames).slice(0, Math.min(replicas, shardNames.length));

export type ReplicaState = 'good' | 'missing' | 'damaged';
/** `failed`: fewer than R intact replicas could be made (a shard refused them: see the shard faults). */
export type RepairOutcome = 'ok' | 'repaired' | 'lost' | 'failed';

/** A shard that failed an operation (a write refused, a folder it cannot make): reported, then passed over. */
export interface ShardFault {
  readonly shard: string;
  readonly operation: 'put' | 'repair' | 'delete' | 'list';
  /** The error's code (EROFS, ENOENT, ...) or its name; never a path. */
  readonly reason: string;
}

/** What a fault is called in a report: the system error code, never its message (it names paths). */
export const faultReason = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
  return error instanceof Error ? error.name : 'Error';
};

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
    private readonly onShardFault?: (fault: ShardFault) => void,
  ) {
    if (!shards.length) throw new Error('no shards');
    this.replicas = Math.max(1, Math.min(replicas, shards.length));
    this.names = shards.map((s) => s.name);
    if (new Set(this.names).size !== this.names.length) throw new Error('shard names must be unique');
  }

  placementOf(cid: string): BlobStore[] {
    return placement(cid, this.names, this.replicas).map((i) => this.shards[i]!);
  }

  /** Every shard in the chunk's order of preference: its placement first, then where it goes when those fail. */
  rankingOf(cid: string): BlobStore[] {
    return ranking(cid, this.names).map((i) => this.shards[i]!);
  }

  private fault(shard: BlobStore, operation: ShardFault['operation'], error: unknown, faults?: Map<string, ShardFault>) {
    const fault: ShardFault = { shard: shard.name, operation, reason: faultReason(error) };
    faults?.set(shard.name, fault);
    this.onShardFault?.(fault);
  }

  /**
   * Stores `bytes` on `want` shards of `candidates`, in their order: the first `want` at once, and for
   * each that fails (reported) the next candidate. Answers how many took it and the first failure. It
   * settles only when no shard still reads the bytes: a failed shard does not end the put while
   * another still writes from the caller's buffers.
   */
  private async putOn(
    cid: string,
    bytes: BlobBytes,
    candidates: readonly BlobStore[],
    want: number,
    operation: ShardFault['operation'],
    faults?: Map<string, ShardFault>,
  ): Promise<{ stored: number; error?: unknown }> {
    let next = want;
    let firstError: unknown;
    const place = async (shard: BlobStore): Promise<number> => {
      try {
        await shard.put(cid, bytes);
        return 1;
      } catch (error) {
        firstError ??= error;
        this.fault(shard, operation, error, faults);
        const fallback = candidates[next++];
        return fallback ? place(fallback) : 0;
      }
    };
    const counts = await Promise.all(candidates.slice(0, want).map(place));
    return { stored: counts.reduce((a, b) => a + b, 0), error: firstError };
  }

  /**
   * Stores ciphertext (whole or in parts) on R shards; answers its CID. Each of its placed shards that
   * refuses it (a read-only or failed disk) is reported and the chunk goes to the next shard of its
   * ranking instead, so a put succeeds while R shards take it; reads look beyond the placement, and
   * the scrub moves it back once the placed shard takes writes again.
   */
  async put(bytes: BlobBytes): Promise<string> {
    const cid = cidOf(bytes);
    const { stored, error } = await this.putOn(cid, bytes, this.rankingOf(cid), this.replicas, 'put');
    if (stored < this.replicas) throw error;
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
        else if (read < target.length)
          found = (await verify(target.subarray(0, read))) === cid ? { state: 'good', bytes: target.subarray(0, read) } : { state: 'damaged' };
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
    for (const [i, state] of passedOver.entries()) this.onBadReplica?.({ cid, shard: placed[i]!.name, state });
    return found;
  }

  /** Removes the chunk from every shard; every shard is tried, then the first failure is thrown. */
  async delete(cid: string): Promise<void> {
    const results = await Promise.allSettled(this.shards.map((s) => s.delete(cid)));
    for (const [i, r] of results.entries()) if (r.status === 'rejected') this.fault(this.shards[i]!, 'delete', r.reason);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Re-creates missing or damaged replicas from an intact one. A placed shard that refuses the replica
   * is reported (into `faults` too) and passed over: a copy on the next shards of the chunk's ranking
   * (where a put fell back to) counts instead, or one is made there. Never throws for a shard's fault.
   */
  async repair(cid: string, faults?: Map<string, ShardFault>): Promise<RepairOutcome> {
    const ranked = this.rankingOf(cid);
    const placed = ranked.slice(0, this.replicas);
    const rest = ranked.slice(this.replicas);
    const states = await Promise.all(placed.map((s) => this.inspect(s, cid)));
    let good = states.find((s) => s.state === 'good')?.bytes;
    const bad = placed.filter((_, i) => states[i]!.state !== 'good');
    if (!bad.length) return 'ok';
    // copies beyond the placement, best first: where a put fell back to, or an older placement
    const elsewhere: BlobStore[] = [];
    for (const shard of rest) {
      const found = await this.inspect(shard, cid);
      if (found.state !== 'good') continue;
      good ??= found.bytes;
      elsewhere.push(shard);
    }
    if (!good) return 'lost';
    let intact = placed.length - bad.length;
    let wrote = false;
    for (const shard of bad) {
      try {
        await shard.delete(cid);
        await shard.put(cid, good);
        intact++;
        wrote = true;
      } catch (error) {
        this.fault(shard, 'repair', error, faults);
      }
    }
    if (intact < this.replicas) {
      // a placed shard refused: the copies that went elsewhere count, and more are made there if needed
      const kept = Math.min(elsewhere.length, this.replicas - intact);
      intact += kept;
      const candidates = rest.filter((s) => !elsewhere.includes(s));
      if (intact < this.replicas && candidates.length) {
        const { stored } = await this.putOn(cid, good, candidates, Math.min(candidates.length, this.replicas - intact), 'repair', faults);
        intact += stored;
        wrote ||= stored > 0;
      }
    }
    if (intact < this.replicas) return 'failed';
    return wrote ? 'repaired' : 'ok';
  }

  async health() {
    return Promise.all(
      this.shards.map(async (shard) => {
        const problem = (await shard.check?.().catch((error: unknown) => `check failed (${faultReason(error)})`)) ?? null;
        const usage = await shard.usage().catch(() => ({ chunks: 0, bytes: 0, freeBytes: null }));
        return { shard: shard.name, ...usage, problem };
      }),
    );
  }
}
