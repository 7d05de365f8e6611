import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/** Dropbox hashes a file in blocks of 4 MiB (https://www.dropbox.com/developers/reference/content-hash). */
export const DROPBOX_HASH_BLOCK = 4 * 1024 * 1024;

/**
 * Dropbox's `content_hash`, computed as bytes pass: SHA-256 of each 4 MiB block, then SHA-256 of
 * those digests one after the other, in hex.
 */
export class DropboxContentHasher {
  private readonly overall = createHash('sha256');
  private block: Hash = createHash('sha256');
  private inBlock = 0;
  private total = 0;

  update(data: Buffer): void {
    let at = 0;
    while (at < data.length) {
      const take = Math.min(DROPBOX_HASH_BLOCK - this.inBlock, data.length - at);
      this.block.update(data.subarray(at, at + take));
      this.inBlock += take;
      at += take;
      if (this.inBlock === DROPBOX_HASH_BLOCK) this.closeBlock();
    }
    this.total += data.length;
  }

  private closeBlock(): void {
    this.overall.update(this.block.digest());
    this.block = createHash('sha256');
    this.inBlock = 0;
  }

  get size(): number {
    return this.total;
  }

  digest(): string {
    if (this.inBlock > 0) this.closeBlock();
    return this.overall.digest('hex');
  }
}

export const dropboxContentHash = (data: Buffer): string => {
  const hasher = new DropboxContentHasher();
  hasher.update(data);
  return hasher.digest();
};

/** Passes bytes through unchanged, hashing them; `digest()` once they have all passed. */
export class DropboxHashingStream extends Transform {
  readonly hasher = new DropboxContentHasher();
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hasher.update(chunk);
    callback(null, chunk);
  }
}
