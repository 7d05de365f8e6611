import { crc32, deflateRawSync } from 'node:zlib';

/*
 * A small ZIP writer for tests of the unlocker: entries stored or deflated, folders, an archive
 * comment, and the ZIP64 form (sizes and offsets in the 0x0001 extra field, ZIP64 end records) that
 * AXEL Drive's downloads use past 4 GiB, forced here on small files.
 */

export interface ZipInput {
  name: string;
  data?: Uint8Array;
  compress?: boolean;
}

const u16 = (n: number) => Buffer.from([n & 0xff, (n >>> 8) & 0xff]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};
const MAX_32 = 0xffffffff;

export const writeZip = (entries: readonly ZipInput[], options: { zip64?: boolean; comment?: string } = {}): Buffer => {
  const zip64 = options.zip64 ?? false;
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const raw = Buffer.from(entry.data ?? new Uint8Array());
    const method = entry.compress ? 8 : 0;
    const stored = method === 8 ? deflateRawSync(raw) : raw;
    const crc = crc32(raw);
    const version = zip64 ? 45 : 20;
    const sizes = zip64 ? [MAX_32, MAX_32] : [stored.length, raw.length];
    const localExtra = zip64 ? Buffer.concat([u16(1), u16(16), u64(raw.length), u64(stored.length)]) : Buffer.alloc(0);
    const local = Buffer.concat([
      u32(0x04034b50),
      u16(version),
      u16(0x0800),
      u16(method),
      u16(0),
      u16(0x21),
      u32(crc),
      u32(sizes[0]!),
      u32(sizes[1]!),
      u16(name.length),
      u16(localExtra.length),
      name,
      localExtra,
    ]);
    const centralExtra = zip64 ? Buffer.concat([u16(1), u16(24), u64(raw.length), u64(stored.length), u64(offset)]) : Buffer.alloc(0);
    central.push(
      Buffer.concat([
        u32(0x02014b50),
        u16(version),
        u16(version),
        u16(0x0800),
        u16(method),
        u16(0),
        u16(0x21),
        u32(crc),
        u32(sizes[0]!),
        u32(sizes[1]!),
        u16(name.length),
        u16(centralExtra.length),
        u16(0),
        u16(0),
        u16(0),
        u32(0),
        u32(zip64 ? MAX_32 : offset),
        name,
        centralExtra,
      ]),
    );
    parts.push(local, stored);
    offset += local.length + stored.length;
  }
  const directory = Buffer.concat(central);
  const directoryOffset = offset;
  const comment = Buffer.from(options.comment ?? '', 'utf8');
  const tail: Buffer[] = [];
  if (zip64) {
    const end64Offset = directoryOffset + directory.length;
    tail.push(
      Buffer.concat([
        u32(0x06064b50),
        u64(44),
        u16(45),
        u16(45),
        u32(0),
        u32(0),
        u64(entries.length),
        u64(entries.length),
        u64(directory.length),
        u64(directoryOffset),
      ]),
      Buffer.concat([u32(0x07064b50), u32(0), u64(end64Offset), u32(1)]),
    );
  }
  tail.push(
    Buffer.concat([
      u32(0x06054b50),
      u16(0),
      u16(0),
      u16(zip64 ? 0xffff : entries.length),
      u16(zip64 ? 0xffff : entries.length),
      u32(zip64 ? MAX_32 : directory.length),
      u32(zip64 ? MAX_32 : directoryOffset),
      u16(comment.length),
      comment,
    ]),
  );
  return Buffer.concat([...parts, directory, ...tail]);
};
