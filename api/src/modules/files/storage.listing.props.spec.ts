import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageParts } from './storage.listing';

/** The positions a page shows, folders numbered 0..folders-1 and files after them. */
const positionsOf = (counts: { folders: number; files: number }, page: number, perPage: number) => {
  const parts = pageParts(counts, (page - 1) * perPage, perPage);
  const folders = Array.from({ length: parts.folders.limit }, (_, i) => parts.folders.offset + i);
  const files = Array.from({ length: parts.files.limit }, (_, i) => counts.folders + parts.files.offset + i);
  return { parts, positions: [...folders, ...files] };
};

describe('a page of a folder, folders before files', () => {
  it('walking every page shows each item exactly once, in order, never more than perPage at a time', () => {
    fc.assert(
      fc.property(fc.nat(60), fc.nat(60), fc.integer({ min: 1, max: 25 }), (folders, files, perPage) => {
        const counts = { folders, files };
        const seen: number[] = [];
        const pages = Math.ceil((folders + files) / perPage) + 2; // and a couple of pages past the end
        for (let page = 1; page <= pages; page++) {
          const { parts, positions } = positionsOf(counts, page, perPage);
          expect(positions.length).toBeLessThanOrEqual(perPage);
          // a slice that takes anything stays inside its part (an empty one is not read at all)
          if (parts.folders.limit) expect(parts.folders.offset + parts.folders.limit).toBeLessThanOrEqual(folders);
          if (parts.files.limit) expect(parts.files.offset + parts.files.limit).toBeLessThanOrEqual(files);
          // a page is full unless it is the last one (or past the end)
          const first = (page - 1) * perPage;
          expect(positions.length).toBe(Math.max(0, Math.min(perPage, folders + files - first)));
          seen.push(...positions);
        }
        expect(seen).toEqual(Array.from({ length: folders + files }, (_, i) => i));
      }),
    );
  });

  it('a page on the boundary takes the last folders and the first files', () => {
    expect(pageParts({ folders: 3, files: 10 }, 2, 4)).toEqual({ folders: { offset: 2, limit: 1 }, files: { offset: 0, limit: 3 } });
    expect(pageParts({ folders: 3, files: 10 }, 8, 4)).toEqual({ folders: { offset: 3, limit: 0 }, files: { offset: 5, limit: 4 } });
    expect(pageParts({ folders: 0, files: 2 }, 4, 4)).toEqual({ folders: { offset: 0, limit: 0 }, files: { offset: 4, limit: 0 } });
  });
});
