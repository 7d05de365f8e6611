import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { lengthOf, partsOf, type BlobBytes, type BlobStore } from './blobstore';
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
 * A file in every shard folder a scrub has checked whole (or that existed when the store was first
 * opened): a folder without it was lost and made again, and misses the replicas it should hold.
 */
export const SHARD_MARKER = '.axel-shard';

/** Direct writes go in whole blocks of this size, from memory aligned to it. */
const BLOCK = 4096;
/** Largest blob written directly: a whole stored chunk. */
const SLOT = 1024 * 1024;
/** Blobs being written directly at once per store; a put beyond them writes through the page cache. */
const SLOTS = 4;

interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (pages: { initial: number; maximum: number }) => WasmMemory } }).WebAssembly;

/**
 * Page-aligned staging memory for direct writes. Memory of a WebAssembly instance starts on a page
 * boundary (the engine maps it), which Node's own Buffers do not promise; taken lazily, 4 MiB a store.
 */
class AlignedSlots {
  private free: Buffer[] | undefined;

  take(): Buffer | undefined {
    if (!this.free) {
      try {
        const memory = new Memory({ initial: (SLOT * SLOTS) / 65536, maximum: (SLOT * SLOTS) / 65536 });
        this.free = Array.from({ length: SLOTS }, (_, i) => Buffer.from(memory.buffer, i * SLOT, SLOT));
      } catch {
        // no such memory to be had (the engine reserves address space for it, which a process limit
        // can refuse): blobs are written through the page cache
        this.free = [];
      }
    }
    return this.free.pop();
  }

  give(slot: Buffer) {
    this.free!.push(slot);
  }
}

/**
 * One shard: a folder on a disk. A blob is written under a temporary name, fsync'd, renamed into
 * place and its folder fsync'd, so a crash leaves either the whole blob or none of it.
 *
 * A blob of whole 4 KiB blocks up to 1 MiB (every stored chunk: full ones are 1 MiB, the last is
 * padded to 4 KiB) is written with O_DIRECT from page-aligned memory: the disk reads it from there,
 * so the kernel does not copy it into its page cache first (measured: kernel CPU per MiB written 0.8-1.5
 * ms buffered, 0.5 direct; the copy was the largest single cost of an upload). A file system that
 * refuses O_DIRECT (tmpfs before Linux 6.6, some network file systems) turns it off for the store and the write goes
 * through the page cache as before; `directIo: false` does that from the start.
 */
export class LocalFolderBlobStore implements BlobStore {
  /** Fan-out folders known to exist: made once, not on every put. */
  private readonly folders = new Set<string>();
  private readonly slots = new AlignedSlots();
  private direct: boolean;

  constructor(
    readonly dir: string,
    readonly name = path.basename(dir),
    options: { directIo?: boolean } = {},
  ) {
    this.direct = (options.directIo ?? true) && constants.O_DIRECT !== undefined;
  }

  /** Whether blobs are still written with O_DIRECT (false once the file system refused it). */
  get directIo() {
    return this.direct;
  }

  /**
   * Writes the blob into a new temporary file directly, from an aligned copy of its bytes: false
   * (nothing left behind) when it cannot be written that way, so the caller writes it buffered.
   */
  private async writeDirect(temp: string, bytes: BlobBytes): Promise<boolean> {
    const length = lengthOf(bytes);
    if (!this.direct || length === 0 || length % BLOCK !== 0 || length > SLOT) return false;
    const slot = this.slots.take();
    if (!slot) return false;
    let handle: fs.FileHandle | undefined;
    try {
      let at = 0;
      for (const part of partsOf(bytes)) {
        slot.set(part, at);
        at += part.byteLength;
      }
      try {
        handle = await fs.open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_DIRECT, 0o600);
        const { bytesWritten } = await handle.write(slot, 0, length, 0);
        // a short direct write is not continued (its rest could be unaligned): written again buffered
        if (bytesWritten !== length) throw Object.assign(new Error('short direct write'), { code: 'SHORT' });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EINVAL' && code !== 'SHORT' && code !== 'EOPNOTSUPP') throw error;
        // the file system does not take direct writes: from now on this store writes through the cache
        if (code !== 'SHORT') this.direct = false;
        await handle?.close();
        handle = undefined;
        await fs.rm(temp, { force: true });
        return false;
      }
      await handle.sync();
      return true;
    } finally {
      await handle?.close();
      this.slots.give(slot);
    }
  }

  private pathOf(cid: string) {
    if (!isChunkCid(cid)) throw new Error('not a chunk id');
    // the leading characters of every CID are the same: fan out on the last ones
    return path.join(this.dir, cid.slice(-2), cid);
  }

  fileOf(cid: string) {
    return { file: this.pathOf(cid), direct: this.direct };
  }

  async put(cid: string, bytes: BlobBytes): Promise<void> {
    const file = this.pathOf(cid);
    if (await this.has(cid)) return;
    try {
      await this.write(file, cid, bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // its folder (or the whole shard's) went away meanwhile, emptied by hand or lost with a disk:
      // made again, and the blob written once more
      this.folders.clear();
      await this.write(file, cid, bytes);
    }
  }

  private async write(file: string, cid: string, bytes: BlobBytes): Promise<void> {
    const folder = path.dirname(file);
    if (!this.folders.has(folder)) {
      await fs.mkdir(folder, { recursive: true, mode: 0o700 });
      this.folders.add(folder);
    }
    const temp = path.join(folder, `.${cid}.${randomBytes(6).toString('hex')}.tmp`);
    const forget = (error: NodeJS.ErrnoException) => {
      // the folder went away meanwhile: made again next time
      if (error.code === 'ENOENT') this.folders.delete(folder);
      throw error;
    };
    if (!(await this.writeDirect(temp, bytes).catch(forget))) {
      const handle = await fs.open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600).catch(forget);
      try {
        await writeAll(handle, partsOf(bytes));
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
    try {
      await fs.rename(temp, file);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw forget(error as NodeJS.ErrnoException);
    }
    const dirHandle = await fs.open(folder, 'r').catch(forget);
    try {
      await dirHandle.sync();
    } finally {
      await dirHandle.close();
    }
  }

  /**
   * What is wrong with the shard's folder, or null: gone, or made again since a scrub last checked
   * it (it holds no marker), so replicas it should hold are missing until the scrub re-creates them.
   */
  async check(): Promise<string | null> {
    try {
      await fs.stat(this.dir);
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'folder missing' : `folder unreadable (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    }
    try {
      await fs.stat(path.join(this.dir, SHARD_MARKER));
      return null;
    } catch {
      return 'folder made again: its replicas are missing until a scrub re-creates them';
    }
  }

  /** Marks the shard's folder as checked whole by a scrub (see `check`). */
  async markIntact(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await fs.writeFile(path.join(this.dir, SHARD_MARKER), `${this.name}\n`, { mode: 0o600 });
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
    // a shard whose folder is gone is not made again by looking at it: its disk is the one above
    const fsStat = await fs.statfs(this.dir).catch(() => fs.statfs(path.dirname(this.dir)));
    return { chunks, bytes, freeBytes: Number(fsStat.bavail) * Number(fsStat.bsize) };
  }
}
