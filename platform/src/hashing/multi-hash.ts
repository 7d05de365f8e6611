import { createSHA1, type IHasher } from 'hash-wasm';
import { sha3Pool, type Sha3Pool, type Sha3Session } from './sha3-pool';

/** The three hashes of a certificate of authenticity, lowercase hex. */
export interface MultiDigest {
  readonly md5: string;
  readonly sha1: string;
  readonly sha3_512: string;
}

const VERSION = 1;

/**
 * The saved state of a MultiHash: how many bytes it has seen and hash-wasm's saved states of MD5,
 * SHA-1 and SHA3-512. It may hold up to a block of the hashed bytes: keep it as secret as them.
 */
export interface MultiHashState {
  readonly bytes: number;
  readonly md5: Uint8Array;
  readonly sha1: Uint8Array;
  readonly sha3: Uint8Array;
}

/** version(1) bytes(u64) then each state as length(u16) + bytes. */
export const encodeMultiHashState = (s: MultiHashState): Buffer => {
  const parts = [s.md5, s.sha1, s.sha3];
  const out = Buffer.alloc(1 + 8 + parts.reduce((n, p) => n + 2 + p.length, 0));
  out.writeUInt8(VERSION, 0);
  out.writeBigUInt64BE(BigInt(s.bytes), 1);
  let at = 9;
  for (const p of parts) {
    out.writeUInt16BE(p.length, at);
    out.set(p, at + 2);
    at += 2 + p.length;
  }
  return out;
};

export const decodeMultiHashState = (buf: Uint8Array): MultiHashState => {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < 9 || b.readUInt8(0) !== VERSION) throw new Error('unknown hash state');
  const bytes = Number(b.readBigUInt64BE(1));
  let at = 9;
  const next = () => {
    if (at + 2 > b.length) throw new Error('truncated hash state');
    const n = b.readUInt16BE(at);
    if (at + 2 + n > b.length) throw new Error('truncated hash state');
    const part = new Uint8Array(b.subarray(at + 2, at + 2 + n));
    at += 2 + n;
    return part;
  };
  const md5 = next();
  const sha1 = next();
  const sha3 = next();
  if (at !== b.length) throw new Error('hash state has trailing bytes');
  return { bytes, md5, sha1, sha3 };
};

/**
 * MD5, SHA-1 and SHA3-512 of one stream in one pass: SHA-1 on the calling thread, SHA3-512 (the slow
 * one) and MD5 on the process's worker pool at the same time, so the calling thread keeps time for
 * receiving, encrypting and storing the bytes. All three are hash-wasm, whose
 * states can be saved and loaded, so a stream hashed across several requests or a restart goes on
 * from a saved state: the bytes are never read a second time.
 */
export class MultiHash {
  private constructor(
    private readonly sha1: IHasher,
    private readonly sha3: Sha3Session,
    private count: number,
  ) {}

  /** A fresh hash, or one going on from a saved state. */
  static async open(state?: MultiHashState, pool: Sha3Pool = sha3Pool()): Promise<MultiHash> {
    const [sha1, sha3] = await Promise.all([createSHA1(), pool.open(state && { sha3: state.sha3, md5: state.md5 })]);
    try {
      sha1.init();
      if (state) sha1.load(state.sha1);
    } catch (error) {
      sha3.close();
      throw error;
    }
    return new MultiHash(sha1, sha3, state?.bytes ?? 0);
  }

  /** Bytes hashed so far (those of the state it was opened from included). */
  get bytes(): number {
    return this.count;
  }

  /**
   * Adds bytes. SHA-1 takes them at once; the worker (SHA3-512, MD5) gets a copy, so `data` may be reused when
   * the promise resolves. It waits when the worker is behind (at most a few MiB in flight).
   */
  async update(data: Uint8Array): Promise<void> {
    if (!data.length) return;
    this.sha1.update(data);
    this.count += data.length;
    await this.sha3.update(data);
  }

  /**
   * The state after every byte given so far. SHA-1 is read at once; the promise waits for
   * the worker to reach this point, while later updates may already be under way.
   */
  save(): Promise<MultiHashState> {
    const sha1 = this.sha1.save();
    const bytes = this.count;
    return this.sha3.save().then(({ sha3, md5 }) => ({ bytes, md5, sha1, sha3 }));
  }

  async digest(): Promise<MultiDigest> {
    const { sha3_512, md5 } = await this.sha3.digest();
    return { md5, sha1: this.sha1.digest('hex'), sha3_512 };
  }

  /** Lets go of the worker session without a digest (a request that ended early). */
  close(): void {
    this.sha3.close();
  }
}
