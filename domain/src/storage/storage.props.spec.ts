import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInTrash, reservedBytes, type StorageState } from './storage.state';
import { manifestOf, StorageHistory } from './storage.testing';

/*
 * The storage's stream decides every reservation, file, copy, trash and deletion in turn. Whatever
 * order concurrent uploads and deletes reach it in, the bytes used plus the bytes promised to
 * uploads in flight never exceed the total, and the sizes it reports are the sizes of its files.
 */

const TOTAL = 1000;
const uploads = ['u1', 'u2', 'u3', 'u4', 'u5'];
const items = ['i1', 'i2', 'i3', 'i4', 'i5', 'i6'];
const folders = [null, 'i1', 'i2', 'i3'];

const step = fc.oneof(
  fc.record({ op: fc.constant('reserve' as const), uploadId: fc.constantFrom(...uploads), size: fc.integer({ min: 0, max: 600 }) }),
  fc.record({ op: fc.constant('release' as const), uploadId: fc.constantFrom(...uploads) }),
  fc.record({
    op: fc.constant('commit' as const),
    uploadId: fc.constantFrom(...uploads),
    itemId: fc.constantFrom(...items),
    parentId: fc.constantFrom(...folders),
    size: fc.integer({ min: 0, max: 600 }),
    name: fc.constantFrom('a.txt', 'b.txt', 'A.TXT'),
  }),
  fc.record({ op: fc.constant('folder' as const), itemId: fc.constantFrom(...items), parentId: fc.constantFrom(...folders), name: fc.constantFrom('X', 'Y') }),
  fc.record({ op: fc.constantFrom('trash' as const, 'restore' as const, 'delete' as const), itemIds: fc.subarray(items) }),
  fc.record({ op: fc.constantFrom('move' as const, 'copy' as const), itemIds: fc.subarray(items), parentId: fc.constantFrom(...folders) }),
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

const apply = (h: StorageHistory, s: Step) => {
  switch (s.op) {
    case 'reserve':
      return h.run('ReserveQuota', { uploadId: s.uploadId, size: s.size });
    case 'release':
      return h.run('ReleaseQuota', { uploadId: s.uploadId });
    case 'commit':
      // a finished upload may be no larger than what it reserved; one without a reservation checks the free space itself
      return h.run('AddFile', {
        itemId: s.itemId,
        parentId: s.parentId,
        name: s.name,
        rename: true,
        uploadId: s.uploadId,
        manifest: manifestOf(Math.min(s.size, h.state.reservations.get(s.uploadId) ?? s.size)),
        encrypted: true,
        e2eeEnabled: false,
      });
    case 'folder':
      return h.run('CreateFolder', { itemId: s.itemId, parentId: s.parentId, name: s.name, rename: false });
    case 'trash':
      return h.run('TrashItems', { itemIds: s.itemIds });
    case 'restore':
      return h.run('RestoreItems', { itemIds: s.itemIds });
    case 'delete':
      return h.run('DeleteItems', { itemIds: s.itemIds });
    case 'move':
      return h.run('MoveItems', { itemIds: s.itemIds, parentId: s.parentId });
    case 'copy':
      return h.run('CopyItems', { itemIds: s.itemIds, parentId: s.parentId, newId: h.newId });
  }
};

const checkInvariants = (state: StorageState) => {
  expect(state.sizeUsed + reservedBytes(state)).toBeLessThanOrEqual(state.sizeTotal);
  const files = [...state.items.values()].filter((i) => i.label === 'file');
  expect(state.sizeUsed).toBe(files.reduce((n, f) => n + f.size, 0));
  expect(state.sizeTrashed).toBe(files.filter((f) => isInTrash(state, f.id)).reduce((n, f) => n + f.size, 0));
  // names are unique among the items of a folder that are not in the trash on their own
  const seen = new Set<string>();
  for (const item of state.items.values()) {
    if (item.trashed) continue;
    const key = `${item.parentId}/${item.name.toLowerCase()}`;
    expect(seen.has(key), key).toBe(false);
    seen.add(key);
  }
  // no folder is inside itself
  for (const item of state.items.values()) {
    const path = new Set<string>();
    for (let cur: string | null = item.id; cur; cur = state.items.get(cur)?.parentId ?? null) {
      expect(path.has(cur)).toBe(false);
      path.add(cur);
    }
  }
};

describe('storage invariants', () => {
  it('never lets used plus reserved bytes exceed the total, over any interleaving of uploads, copies and deletes', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const h = new StorageHistory();
        h.run('OpenStorage', { storageId: 's', ownerId: 'o', type: 'online', sizeTotal: TOTAL });
        for (const s of steps) {
          apply(h, s);
          checkInvariants(h.state);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never exceeds a total lowered below what is already used: it only refuses new bytes', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), fc.integer({ min: 0, max: TOTAL }), (steps, lowered) => {
        const h = new StorageHistory();
        h.run('OpenStorage', { storageId: 's', ownerId: 'o', type: 'online', sizeTotal: TOTAL });
        for (const s of steps) apply(h, s);
        h.run('ChangeStorageQuota', { sizeTotal: lowered });
        const before = h.state.sizeUsed + reservedBytes(h.state);
        for (const s of steps) apply(h, s);
        expect(h.state.sizeUsed + reservedBytes(h.state)).toBeLessThanOrEqual(Math.max(before, lowered));
      }),
      { numRuns: 100 },
    );
  });
});
