import { describe, expect, it } from 'vitest';
import { downloadPlan } from './share-download';

const file = (id: string, name = `${id}.txt`) => ({ id, name, label: 'file' });
const folder = (id: string, name = id) => ({ id, name, label: 'folder' });
const where = { folderName: null, shareTitle: 'Holiday' };

describe("downloading a share's selection", () => {
  it('nothing chosen downloads nothing; a lone file leaves as itself', () => {
    expect(downloadPlan([], where)).toEqual({ kind: 'none' });
    expect(downloadPlan([file('a', 'notes.txt')], where)).toEqual({ kind: 'file', id: 'a', name: 'notes.txt' });
    // a file received through a Secure Fetch link too; its folder leaves as a zip
    expect(downloadPlan([{ id: 'r', name: 'scan.pdf', label: 'sfFile' }], where)).toEqual({ kind: 'file', id: 'r', name: 'scan.pdf' });
    expect(downloadPlan([{ id: 'sf', name: 'Received', label: 'sfFolder' }], where)).toEqual({ kind: 'archive', itemIds: ['sf'], archiveName: 'Received' });
  });

  it('a share that holds just one file, taken whole, is that file (its own name), never a zip of one', () => {
    expect(downloadPlan([file('only', 'report.pdf')], where)).toEqual({ kind: 'file', id: 'only', name: 'report.pdf' });
    expect(downloadPlan([file('only', 'report.pdf'), folder('f')], where)).toMatchObject({ kind: 'archive' });
  });

  it('a folder, or several entries, leave as one zip named after the folder chosen, else the folder on screen, else the share', () => {
    expect(downloadPlan([folder('f', 'Photos')], where)).toEqual({ kind: 'archive', itemIds: ['f'], archiveName: 'Photos' });
    expect(downloadPlan([file('a'), file('b')], where)).toEqual({ kind: 'archive', itemIds: ['a', 'b'], archiveName: 'Holiday' });
    expect(downloadPlan([file('a'), folder('f')], { folderName: 'Summer', shareTitle: 'Holiday' })).toEqual({
      kind: 'archive',
      itemIds: ['a', 'f'],
      archiveName: 'Summer',
    });
  });

  it('a share title becomes a name the file name rules allow', () => {
    expect(downloadPlan([file('a'), file('b')], { folderName: null, shareTitle: 'Trip: Rome / Milan' })).toMatchObject({ archiveName: 'Trip_ Rome _ Milan' });
    expect(downloadPlan([file('a'), file('b')], { folderName: null, shareTitle: '..hidden' })).toMatchObject({ archiveName: 'hidden' });
    expect(downloadPlan([file('a'), file('b')], { folderName: null, shareTitle: '' })).toMatchObject({ archiveName: 'share' });
  });

  it('a long name is shortened as the spec says (first 5, ..., last 5) and an entry counts once', () => {
    const long = 'A very long folder name that goes on and on and ends here';
    expect(downloadPlan([folder('f', long)], where)).toEqual({ kind: 'archive', itemIds: ['f'], archiveName: 'A ver... here' });
    expect(downloadPlan([file('a'), file('a'), file('b')], where)).toMatchObject({ itemIds: ['a', 'b'] });
  });
});
