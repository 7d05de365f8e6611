import { describe, expect, it } from 'vitest';
import { isFile, isFolder } from './labels';

describe('entry labels', () => {
  it('a Secure Fetch folder is a folder and a received file is a file, nothing is both', () => {
    const kinds = Object.fromEntries(['file', 'folder', 'sfFile', 'sfFolder', 'other'].map((label) => [label, [isFolder({ label }), isFile({ label })]]));
    expect(kinds).toEqual({
      file: [false, true],
      folder: [true, false],
      sfFile: [false, true],
      sfFolder: [true, false],
      other: [false, false],
    });
  });
});
