/*
 * Reading the entries of a ZIP archive straight from a Blob (docs/e2ee.md: PKZIP 2.0, entries
 * stored or deflated, ZIP64 past 4 GiB). The central directory at the end says where each entry
 * starts, so only the directory is read up front and every entry streams from its own offset.
 */

export interface ZipEntry {
  name: string;
  /** The size once unpacked, as the directory records it. */
  size: number;
  compressedSize: number;
  method: number;
  localHeaderOffset: number;
}

export class ZipFormatError extends Error {
  readonly code = 'UNLOCKER_BAD_ARCHIVE';
}

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
const MAX_32 = 0xffffffff;

const bytesOf = async (blob: Blob, start: number, end: number) => new DataView(await blob.slice(start, end).arrayBuffer());
const u64 = (v: DataView, at: number) => Number(v.getBigUint64(at, true));

/** The file is a ZIP when it starts with a local header (or is an empty archive). */
export const looksLikeZip = async (blob: Blob) => {
  if (blob.size < 4) return false;
  const head = (await bytesOf(blob, 0, 4)).getUint32(0, true);
  return head === LOCAL || head === EOCD;
};

const findEnd = async (blob: Blob) => {
  // the end record is 22 bytes plus a comment of at most 65535
  const from = Math.max(0, blob.size - 22 - 0xffff);
  const tail = await bytesOf(blob, from, blob.size);
  for (let at = tail.byteLength - 22; at >= 0; at--) {
    if (tail.getUint32(at, true) === EOCD) return { tail, at };
  }
  throw new ZipFormatError('This file is not a ZIP archive');
};

/** Every file entry of the archive (folders left out), in the directory's order. */
export const readZipEntries = async (blob: Blob): Promise<ZipEntry[]> => {
  const { tail, at } = await findEnd(blob);
  let count = tail.getUint16(at + 10, true);
  let directorySize = tail.getUint32(at + 12, true);
  let directoryOffset = tail.getUint32(at + 16, true);
  if ((directoryOffset === MAX_32 || count === 0xffff) && at >= 20 && tail.getUint32(at - 20, true) === EOCD64_LOCATOR) {
    const end64At = u64(tail, at - 20 + 8);
    const end64 = await bytesOf(blob, end64At, end64At + 56);
    if (end64.getUint32(0, true) !== EOCD64) throw new ZipFormatError('Damaged ZIP64 end record');
    count = u64(end64, 32);
    directorySize = u64(end64, 40);
    directoryOffset = u64(end64, 48);
  }
  if (directoryOffset + directorySize > blob.size) throw new ZipFormatError('Damaged ZIP directory');
  const directory = await bytesOf(blob, directoryOffset, directoryOffset + directorySize);
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (directory.getUint32(p, true) !== CENTRAL) throw new ZipFormatError('Damaged ZIP directory');
    const method = directory.getUint16(p + 10, true);
    let compressedSize = directory.getUint32(p + 20, true);
    let size = directory.getUint32(p + 24, true);
    const nameLength = directory.getUint16(p + 28, true);
    const extraLength = directory.getUint16(p + 30, true);
    const commentLength = directory.getUint16(p + 32, true);
    let localHeaderOffset = directory.getUint32(p + 42, true);
    const name = decoder.decode(new Uint8Array(directory.buffer, directory.byteOffset + p + 46, nameLength));
    // ZIP64: the fields that overflowed are in the 0x0001 extra field, in this order
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd) {
      const id = directory.getUint16(e, true);
      const length = directory.getUint16(e + 2, true);
      if (id === 0x0001) {
        let f = e + 4;
        if (size === MAX_32) (size = u64(directory, f)), (f += 8);
        if (compressedSize === MAX_32) (compressedSize = u64(directory, f)), (f += 8);
        if (localHeaderOffset === MAX_32) localHeaderOffset = u64(directory, f);
      }
      e += 4 + length;
    }
    p = extraEnd + commentLength;
    if (name.endsWith('/')) continue;
    if (method !== STORED && method !== DEFLATED) throw new ZipFormatError(`Unsupported compression in ${name}`);
    entries.push({ name, size, compressedSize, method, localHeaderOffset });
  }
  return entries;
};

/** The unpacked bytes of one entry, as a stream read from the Blob as it is consumed. */
export const openZipEntry = async (blob: Blob, entry: ZipEntry): Promise<ReadableStream<Uint8Array>> => {
  const header = await bytesOf(blob, entry.localHeaderOffset, entry.localHeaderOffset + 30);
  if (header.getUint32(0, true) !== LOCAL) throw new ZipFormatError(`Damaged entry ${entry.name}`);
  const dataStart = entry.localHeaderOffset + 30 + header.getUint16(26, true) + header.getUint16(28, true);
  const raw = blob.slice(dataStart, dataStart + entry.compressedSize).stream();
  return entry.method === DEFLATED ? raw.pipeThrough(new DecompressionStream('deflate-raw') as unknown as TransformStream<Uint8Array, Uint8Array>) : raw;
};
