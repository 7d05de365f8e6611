import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { partsOf, type BlobBytes, type BlobStore } from './blobstore';
import { isChunkCid } from './cid';

/** Writes every part, one after the other, in as few calls as the kernel allows. */
const writeAll = async (handle: fs.FileHandle, parts: readonly Uint8Array[]) => {
  let rest = parts.filter((p) => p.byteLength > 0);
  while (rest.length) {
    const { bytesWritten } = await handle.writev(rest as Uint8Array[]);
    if (bytesWritten <= 0) throw new Error('the disk took no bytes');
    let n = bytesWritten;
    while (rest.length && n >= rest[0]!.byteLength) {
      n -= rest[0]!.byteLength;
      rest = rest.slice(1);
    }
    if (n > 0) rest = [rest[0]!.subarray(n), ...rest.slice(1)];
  }
};

/**
 * One shard: a folder on a disk. A blob is written under a temporary name, fsync'd, renamed into
 * place and its folder fsync'd, so a crash leaves either the whole blob or none of it.
 */
export class LocalFolderBlobStore implements BlobStore {
  /** Fan-out folders known to exist: made once, not on every put. */
  private readonly folders = new Set<string>();

  constructor(
    readonly dir: string,
    readonly name = path.basename(dir),
  ) {}

  private pathOf(cid: string) {
    if (!isChunkCid(cid)) throw new Error('not a chunk id');
    // the leading characters of every CID are the same: fan out on the last ones
    return path.join(this.dir, cid.slice(-2), cid);
  }

  async put(cid: string, bytes: BlobBytes): Promise<void> {
    const file = this.pathOf(cid);
    if (await this.has(cid)) return;
    const folder = path.dirname(file);
    if (!this.folders.has(folder)) {
      await fs.mkdir(folder, { recursive: true, mode: 0o700 });
      this.folders.add(folder);
    }
    const temp = path.join(folder, `.${cid}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await fs.open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600).catch((error: NodeJS.ErrnoException) => {
      // the folder went away meanwhile (a store emptied by hand): made again next time
      if (error.code === 'ENOENT') this.folders.delete(folder);
      throw error;
    });
    try {
      await writeAll(handle, partsOf(bytes));
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await fs.rename(temp, file);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
    const dirHandle = await fs.open(folder, 'r');
    try {
      await dirHandle.sync();
    } finally {
      await dirHandle.close();
    }
  }

  async get(cid: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.pathOf(cid));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async readInto(cid: string, target: Buffer): Promise<number | null> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.pathOf(cid), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      let filled = 0;
      while (filled < target.length) {
        const { bytesRead } = await handle.read(target, filled, target.length - filled, null);
        if (!bytesRead) break;
        filled += bytesRead;
      }
      return filled;
    } finally {
      await handle.close();
    }
  }

  async has(cid: string): Promise<boolean> {
    try {
      await fs.access(this.pathOf(cid));
      return true;
    } catch {
      return false;
    }
  }

  async delete(cid: string): Promise<void> {
    await fs.rm(this.pathOf(cid), { force: true });
  }

  async *list(): AsyncIterable<string> {
    let folders: string[];
    try {
      folders = await fs.readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const folder of folders.sort()) {
      let names: string[];
      try {
        names = await fs.readdir(path.join(this.dir, folder));
      } catch {
        continue;
      }
      for (const name of names.sort()) if (isChunkCid(name)) yield name;
    }
  }

  async usage() {
    let chunks = 0;
    let bytes = 0;
    for await (const cid of this.list()) {
      const stat = await fs.stat(this.pathOf(cid)).catch(() => null);
      if (!stat) continue;
      chunks++;
      bytes += stat.size;
    }
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const fsStat = await fs.statfs(this.dir);
    return { chunks, bytes, freeBytes: Number(fsStat.bavail) * Number(fsStat.bsize) };
  }
}
