import { describe, expect, it } from 'vitest';
import { fromFileList, readDroppedEntries, toNewUploads, uploadRejection, type EntryLike } from './drop';

const file = (name: string): EntryLike => ({
  isFile: true,
  isDirectory: false,
  name,
  file: (ok) => ok(new File([name], name)),
});
/** A directory whose reader answers in batches of two, as real readers answer in batches. */
const dir = (name: string, children: EntryLike[]): EntryLike => ({
  isFile: false,
  isDirectory: true,
  name,
  createReader: () => {
    let at = 0;
    return {
      readEntries: (ok) => {
        const batch = children.slice(at, at + 2);
        at += batch.length;
        setTimeout(() => ok(batch), 0);
      },
    };
  },
});

describe('dropped entries', () => {
  it('walks whole folders, reading every batch, and skips empty folders', async () => {
    const dropped = await readDroppedEntries([
      file('top.txt'),
      dir('Photos', [file('a.jpg'), file('b.jpg'), file('c.jpg'), dir('2024', [file('d.jpg')]), dir('Empty', [])]),
    ]);
    expect(dropped.map((d) => [d.relativeDir, d.name])).toEqual([
      ['', 'top.txt'],
      ['Photos', 'a.jpg'],
      ['Photos', 'b.jpg'],
      ['Photos', 'c.jpg'],
      ['Photos/2024', 'd.jpg'],
    ]);
    expect(await dropped[4]!.file.text()).toBe('d.jpg');
  });

  it('reads the folder path of a folder input', () => {
    const f = new File(['x'], 'x.txt');
    Object.defineProperty(f, 'webkitRelativePath', { value: 'Docs/Work/x.txt' });
    expect(fromFileList([f, new File(['y'], 'y.txt')]).map((d) => d.relativeDir)).toEqual(['Docs/Work', '']);
  });

  it('refuses names the spec forbids, in the file or any of its folders', () => {
    expect(uploadRejection({ name: 'ok.txt', relativeDir: 'Docs' })).toBeNull();
    expect(uploadRejection({ name: 'Tool.app', relativeDir: '' })?.data).toMatchObject({ problem: 'appFile' });
    expect(uploadRejection({ name: '...', relativeDir: '' })?.data).toMatchObject({ problem: 'dotOnly' });
    expect(uploadRejection({ name: 'a.txt', relativeDir: 'v1.2/x' })?.data).toMatchObject({ problem: 'dotInFolderName', name: 'v1.2' });
    const [bad, good] = toNewUploads([
      { file: new File([''], 'a:b'), name: 'a:b', relativeDir: '' },
      { file: new File([''], 'c'), name: 'c', relativeDir: '' },
    ]);
    expect(bad!.rejection?.code).toBe('INVALID_NAME');
    expect(good!.rejection).toBeNull();
  });
});
