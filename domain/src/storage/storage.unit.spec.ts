import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import { planBatch } from './storage.decide';
import { StorageErrors } from './storage.errors';
import { freeBytes } from './storage.state';
import { manifestOf, StorageHistory } from './storage.testing';

const opened = (sizeTotal = 1000) => {
  const h = new StorageHistory();
  h.run('OpenStorage', { storageId: 's1', ownerId: 'u1', type: 'online', sizeTotal });
  return h;
};
const codeOf = (result: unknown) => (result instanceof DomainError ? result.code : 'ok');
const addFile = (h: StorageHistory, itemId: string, name: string, size: number, parentId: string | null = null, rename = false) =>
  h.run('AddFile', { itemId, parentId, name, rename, uploadId: `up-${itemId}`, manifest: manifestOf(size), encrypted: true, e2eeEnabled: false });

describe('storage decider', () => {
  it('opens once; a second open is a no-op', () => {
    const h = opened();
    expect(h.run('OpenStorage', { storageId: 's1', ownerId: 'u1', type: 'online', sizeTotal: 5 })).toEqual([]);
    expect(h.state.sizeTotal).toBe(1000);
  });

  it('refuses commands on a storage that was never opened', () => {
    const h = new StorageHistory();
    expect(codeOf(h.run('ReserveQuota', { uploadId: 'u', size: 1 }))).toBe(StorageErrors.storageNotFound.code);
  });

  it('reserves quota up to the total, and a file made from the upload turns its reservation into used bytes', () => {
    const h = opened(1000);
    expect(codeOf(h.run('ReserveQuota', { uploadId: 'a', size: 600 }))).toBe('ok');
    const refused = h.run('ReserveQuota', { uploadId: 'b', size: 401 });
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).message).toBe('Insufficient space or quota');
    expect(codeOf(h.run('ReserveQuota', { uploadId: 'b', size: 400 }))).toBe('ok');
    h.run('AddFile', {
      itemId: 'f',
      parentId: null,
      name: 'a.bin',
      rename: false,
      uploadId: 'a',
      manifest: manifestOf(600),
      encrypted: true,
      e2eeEnabled: false,
    });
    expect(h.state.sizeUsed).toBe(600);
    expect(h.state.reservations.has('a')).toBe(false);
    expect(freeBytes(h.state)).toBe(0);
    h.run('ReleaseQuota', { uploadId: 'b' });
    expect(freeBytes(h.state)).toBe(400);
  });

  it('refuses a file larger than the free space when its upload reserved nothing', () => {
    const h = opened(100);
    expect(codeOf(addFile(h, 'f', 'big.bin', 101))).toBe(StorageErrors.quotaExceeded.code);
  });

  it('answers 409 on a taken name, case-insensitively, and picks "name (1).ext" with rename', () => {
    const h = opened();
    addFile(h, 'f1', 'report.pdf', 1);
    expect(codeOf(addFile(h, 'f2', 'Report.PDF', 1))).toBe(StorageErrors.nameExists.code);
    addFile(h, 'f2', 'report.pdf', 1, null, true);
    addFile(h, 'f3', 'report.pdf', 1, null, true);
    expect(h.state.items.get('f2')!.name).toBe('report (1).pdf');
    expect(h.state.items.get('f3')!.name).toBe('report (2).pdf');
    h.run('CreateFolder', { itemId: 'd1', parentId: null, name: 'Photos', rename: false });
    expect(codeOf(h.run('CreateFolder', { itemId: 'd2', parentId: null, name: 'photos', rename: false }))).toBe(StorageErrors.nameExists.code);
    h.run('CreateFolder', { itemId: 'd2', parentId: null, name: 'Photos', rename: true });
    expect(h.state.items.get('d2')!.name).toBe('Photos (1)');
  });

  it('checks names with the spec rules, profanity with its own code', () => {
    const h = opened();
    expect((h.run('CreateFolder', { itemId: 'd', parentId: null, name: 'a.b', rename: false }) as DomainError).data).toEqual({ reason: 'dotInFolderName' });
    expect(codeOf(addFile(h, 'f', 'shit list.txt', 1))).toBe(StorageErrors.profanity.code);
    expect(codeOf(addFile(h, 'f', 'Safari.app', 1))).toBe(StorageErrors.invalidName.code);
  });

  it('puts a folder in the trash with its contents, restores it, and counts trashed bytes', () => {
    const h = opened();
    h.run('CreateFolder', { itemId: 'd', parentId: null, name: 'Docs', rename: false });
    addFile(h, 'f', 'a.txt', 10, 'd');
    addFile(h, 'g', 'b.txt', 5);
    h.run('TrashItems', { itemIds: ['d'] });
    expect(h.state.sizeTrashed).toBe(10);
    expect(h.state.sizeUsed).toBe(15);
    // a trashed folder takes no new items and frees its name
    expect(codeOf(addFile(h, 'x', 'c.txt', 1, 'd'))).toBe(StorageErrors.folderNotFound.code);
    h.run('CreateFolder', { itemId: 'd2', parentId: null, name: 'Docs', rename: false });
    h.run('RestoreItems', { itemIds: ['d'] });
    expect(h.state.items.get('d')!.name).toBe('Docs (1)');
    expect(h.state.sizeTrashed).toBe(0);
  });

  it('restores to the root when the original folder is gone', () => {
    const h = opened();
    h.run('CreateFolder', { itemId: 'd', parentId: null, name: 'Docs', rename: false });
    addFile(h, 'f', 'a.txt', 10, 'd');
    h.run('TrashItems', { itemIds: ['f'] });
    h.run('TrashItems', { itemIds: ['d'] });
    h.run('DeleteItems', { itemIds: ['d'] });
    h.run('RestoreItems', { itemIds: ['f'] });
    expect(h.state.items.get('f')!.parentId).toBeNull();
    expect(h.state.sizeTrashed).toBe(0);
    expect(h.state.sizeUsed).toBe(10);
  });

  it('deletes for ever, destroying content only when no copy still uses it', () => {
    const h = opened();
    addFile(h, 'f', 'a.txt', 10);
    h.run('CopyItems', { itemIds: ['f'], parentId: null, newId: h.newId });
    expect(h.state.sizeUsed).toBe(20);
    const first = h.run('DeleteItems', { itemIds: ['f'] }) as { type: string; data: { destroyed: unknown[] } }[];
    expect(first[0]!.data.destroyed).toEqual([]);
    const copyId = [...h.state.items.keys()][0]!;
    const second = h.run('DeleteItems', { itemIds: [copyId] }) as { type: string; data: { destroyed: { keyId: string }[] } }[];
    expect(second[0]!.data.destroyed).toHaveLength(1);
    expect(h.state.sizeUsed).toBe(0);
  });

  it('moves with partial failures counted, and never into the item itself or its own child', () => {
    const h = opened();
    h.run('CreateFolder', { itemId: 'a', parentId: null, name: 'A', rename: false });
    h.run('CreateFolder', { itemId: 'b', parentId: 'a', name: 'B', rename: false });
    h.run('CreateFolder', { itemId: 'c', parentId: null, name: 'C', rename: false });
    addFile(h, 'f', 'x.txt', 1);
    addFile(h, 'g', 'x.txt', 1, 'c');
    const plan = planBatch(h.cmd('MoveItems', { itemIds: ['a', 'f', 'missing'], parentId: 'b' }) as never, h.state);
    expect(plan.failures).toEqual([
      { itemId: 'a', code: StorageErrors.moveIntoOwnChild.code },
      { itemId: 'missing', code: StorageErrors.itemNotFound.code },
    ]);
    expect(plan.events).toHaveLength(1);
    const clash = planBatch(h.cmd('MoveItems', { itemIds: ['f'], parentId: 'c' }) as never, h.state);
    expect(clash.failures).toEqual([{ itemId: 'f', code: StorageErrors.nameExists.code }]);
  });

  it('copies a folder tree with new ids, parents before children, within the quota', () => {
    const h = opened(25);
    h.run('CreateFolder', { itemId: 'a', parentId: null, name: 'A', rename: false });
    h.run('CreateFolder', { itemId: 'b', parentId: 'a', name: 'B', rename: false });
    addFile(h, 'f', 'x.txt', 10, 'b');
    h.run('CopyItems', { itemIds: ['a'], parentId: null, newId: h.newId });
    const names = [...h.state.items.values()].map((i) => i.name).sort();
    expect(names).toEqual(['A', 'A (1)', 'B', 'B', 'x.txt', 'x.txt']);
    const plan = planBatch(h.cmd('CopyItems', { itemIds: ['a'], parentId: null, newId: h.newId }) as never, h.state);
    expect(plan.failures).toEqual([{ itemId: 'a', code: StorageErrors.quotaExceeded.code }]);
  });

  it('purges once: every distinct content is destroyed, and the storage takes no further command', () => {
    const h = opened();
    addFile(h, 'f', 'a.txt', 10);
    h.run('CopyItems', { itemIds: ['f'], parentId: null, newId: h.newId });
    addFile(h, 'g', 'b.txt', 5);
    const purged = h.run('PurgeStorage', {}) as { type: string; data: { destroyed: unknown[] } }[];
    expect(purged.map((e) => e.type)).toEqual(['StoragePurged']);
    expect(purged[0]!.data.destroyed).toHaveLength(2);
    expect(h.run('PurgeStorage', {})).toEqual([]);
    expect(h.run('OpenStorage', { storageId: 's1', ownerId: 'u1', type: 'online', sizeTotal: 1 })).toEqual([]);
    expect(codeOf(h.run('CreateFolder', { itemId: 'd', parentId: null, name: 'New', rename: false }))).toBe(StorageErrors.storageNotFound.code);
  });

  it('keeps the owner metadata and refuses profanity in a title', () => {
    const h = opened();
    addFile(h, 'f', 'a.txt', 1);
    const changed = h.run('ChangeItemDetails', { itemId: 'f', details: { title: 'Quarterly', ttl: '2026-06-01T00:00:00.000Z' } });
    // the expiry travels in an event of its own, free of personal data, for the process that trashes the file on time
    expect((changed as { type: string; data: unknown }[]).map((e) => [e.type, e.type === 'ItemExpirySet' ? e.data : null])).toEqual([
      ['ItemDetailsChanged', null],
      ['ItemExpirySet', { itemId: 'f', expiresAt: '2026-06-01T00:00:00.000Z' }],
    ]);
    expect(h.state.items.get('f')!.details).toEqual({ title: 'Quarterly', ttl: '2026-06-01T00:00:00.000Z' });
    expect(h.run('ChangeItemDetails', { itemId: 'f', details: { title: 'Quarterly' } })).toEqual([]);
    expect(codeOf(h.run('ChangeItemDetails', { itemId: 'f', details: { title: 'bullshit' } }))).toBe(StorageErrors.profanity.code);
  });
});
