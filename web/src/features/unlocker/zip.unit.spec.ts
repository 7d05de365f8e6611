import { describe, expect, it } from 'vitest';
import { looksLikeZip, openZipEntry, readZipEntries } from './zip';
import { writeZip } from './zip-writer.testing';

const zipOf = async (entries: { name: string; data: Buffer; compress: boolean }[], options: { zip64?: boolean; comment?: string } = {}) =>
  new File([new Uint8Array(writeZip([{ name: 'Folder/' }, ...entries], options))], 'a.zip');

const read = async (stream: ReadableStream<Uint8Array>) => {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
  return Buffer.concat(chunks);
};

describe('reading a zip from a Blob', () => {
  for (const zip64 of [false, true]) {
    it(`lists the files (no folders) and streams each one, stored or deflated${zip64 ? ', in ZIP64 form' : ''}`, async () => {
      const big = Buffer.alloc(150_000, 'abc');
      const small = Buffer.from('small one');
      const archive = await zipOf(
        [
          { name: 'Folder/big.bin.pgp', data: big, compress: true },
          { name: 'café.txt', data: small, compress: false },
        ],
        { zip64, comment: 'an archive comment' },
      );
      expect(await looksLikeZip(archive)).toBe(true);
      const entries = await readZipEntries(archive);
      expect(entries.map((e) => [e.name, e.size])).toEqual([
        ['Folder/big.bin.pgp', big.length],
        ['café.txt', small.length],
      ]);
      expect(entries[0]!.compressedSize).toBeLessThan(big.length);
      expect((await read(await openZipEntry(archive, entries[0]!))).equals(big)).toBe(true);
      expect((await read(await openZipEntry(archive, entries[1]!))).equals(small)).toBe(true);
    });
  }

  it('a file that is not a zip is refused with its own code', async () => {
    const notZip = new File([new TextEncoder().encode('just some text, long enough to look for an end record')], 'x.zip');
    expect(await looksLikeZip(notZip)).toBe(false);
    await expect(readZipEntries(notZip)).rejects.toMatchObject({ code: 'UNLOCKER_BAD_ARCHIVE' });
  });
});
