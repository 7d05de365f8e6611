import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import { DeciderSpecification } from '../shared/decider.testing';
import { DomainError } from '../shared/errors';
import type { StorageCommand } from './storage.commands';
import { planBatch, storageDecider } from './storage.decide';
import { StorageErrors } from './storage.errors';
import type { StorageEvent } from './storage.events';
import { freeBytes } from './storage.state';
import { manifestOf } from './storage.testing';

const now = new Date('2026-05-04T10:00:00.000Z');
const cmd = <T extends StorageCommand['type']>(type: T, data: Extract<StorageCommand, { type: T }>['data']) =>
  ({ type, data, metadata: { now } }) as StorageCommand;
const given = DeciderSpecification.for(storageDecider);
const history = (commands: StorageCommand[], before: StorageEvent[] = []) => DeciderSpecification.history(storageDecider, commands, before);
const stateOf = (events: StorageEvent[]) => fold(storageDecider, events);

const open = (sizeTotal = 1000) => cmd('OpenStorage', { storageId: 's1', ownerId: 'u1', type: 'online', sizeTotal });
const opened = (sizeTotal = 1000) => history([open(sizeTotal)]);
const addFile = (itemId: string, name: string, size: number, parentId: string | null = null, rename = false, uploadId = `up-${itemId}`) =>
  cmd('AddFile', { itemId, parentId, name, rename, uploadId, manifest: manifestOf(size), encrypted: true, e2eeEnabled: false });
const folder = (itemId: string, name: string, parentId: string | null = null, rename = false) => cmd('CreateFolder', { itemId, parentId, name, rename });
const newIds = () => {
  let ids = 0;
  return (): string => `id-${++ids}`;
};
const copy = (itemIds: string[], newId = newIds()) => cmd('CopyItems', { itemIds, parentId: null, newId });
type Destroying = { type: string; data: { destroyed: unknown[] } };

describe('storage decider', () => {
  it('opens once; a second open is a no-op', () => {
    given(opened())
      .when(cmd('OpenStorage', { storageId: 's1', ownerId: 'u1', type: 'online', sizeTotal: 5 }))
      .thenState((state, events) => {
        expect(events).toEqual([]);
        expect(state.sizeTotal).toBe(1000);
      });
  });

  it('refuses commands on a storage that was never opened', () => {
    given([])
      .when(cmd('ReserveQuota', { uploadId: 'u', size: 1 }))
      .thenThrows(StorageErrors.storageNotFound);
  });

  it('reserves quota up to the total, and a file made from the upload turns its reservation into used bytes', () => {
    given(opened(1000))
      .when(cmd('ReserveQuota', { uploadId: 'a', size: 600 }))
      .then((events) => expect(events).toHaveLength(1));
    const reserved = history([cmd('ReserveQuota', { uploadId: 'a', size: 600 })], opened(1000));
    const refused = given(reserved)
      .when(cmd('ReserveQuota', { uploadId: 'b', size: 401 }))
      .thenThrows((error) => error instanceof DomainError);
    expect((refused as DomainError).message).toBe('Insufficient space or quota');
    given(reserved)
      .when(cmd('ReserveQuota', { uploadId: 'b', size: 400 }))
      .then((events) => expect(events).toHaveLength(1));
    const both = history([cmd('ReserveQuota', { uploadId: 'b', size: 400 })], reserved);
    given(both)
      .when(addFile('f', 'a.bin', 600, null, false, 'a'))
      .thenState((state) => {
        expect(state.sizeUsed).toBe(600);
        expect(state.reservations.has('a')).toBe(false);
        expect(freeBytes(state)).toBe(0);
      });
    given(history([addFile('f', 'a.bin', 600, null, false, 'a')], both))
      .when(cmd('ReleaseQuota', { uploadId: 'b' }))
      .thenState((state) => expect(freeBytes(state)).toBe(400));
  });

  it('refuses a file larger than the free space when its upload reserved nothing', () => {
    given(opened(100))
      .when(addFile('f', 'big.bin', 101))
      .thenThrows(StorageErrors.quotaExceeded);
  });

  it('answers 409 on a taken name, case-insensitively, and picks "name (1).ext" with rename', () => {
    const one = history([addFile('f1', 'report.pdf', 1)], opened());
    given(one)
      .when(addFile('f2', 'Report.PDF', 1))
      .thenThrows(StorageErrors.nameExists);
    given(history([addFile('f2', 'report.pdf', 1, null, true)], one))
      .when(addFile('f3', 'report.pdf', 1, null, true))
      .thenState((state) => {
        expect(state.items.get('f2')!.name).toBe('report (1).pdf');
        expect(state.items.get('f3')!.name).toBe('report (2).pdf');
      });
    const photos = history([folder('d1', 'Photos')], one);
    given(photos).when(folder('d2', 'photos')).thenThrows(StorageErrors.nameExists);
    given(photos)
      .when(folder('d2', 'Photos', null, true))
      .thenState((state) => expect(state.items.get('d2')!.name).toBe('Photos (1)'));
  });

  it('checks names with the spec rules, profanity with its own code', () => {
    given(opened())
      .when(folder('d', 'a.b'))
      .thenThrows((error) => expect((error as DomainError).data).toEqual({ reason: 'dotInFolderName' }));
    given(opened())
      .when(addFile('f', 'shit list.txt', 1))
      .thenThrows(StorageErrors.profanity);
    given(opened())
      .when(addFile('f', 'Safari.app', 1))
      .thenThrows(StorageErrors.invalidName);
  });

  it('puts a folder in the trash with its contents, restores it, and counts trashed bytes', () => {
    const filled = history([folder('d', 'Docs'), addFile('f', 'a.txt', 10, 'd'), addFile('g', 'b.txt', 5)], opened());
    given(filled)
      .when(cmd('TrashItems', { itemIds: ['d'] }))
      .thenState((state) => {
        expect(state.sizeTrashed).toBe(10);
        expect(state.sizeUsed).toBe(15);
      });
    const trashed = history([cmd('TrashItems', { itemIds: ['d'] })], filled);
    // a trashed folder takes no new items and frees its name
    given(trashed)
      .when(addFile('x', 'c.txt', 1, 'd'))
      .thenThrows(StorageErrors.folderNotFound);
    given(history([folder('d2', 'Docs')], trashed))
      .when(cmd('RestoreItems', { itemIds: ['d'] }))
      .thenState((state) => {
        expect(state.items.get('d')!.name).toBe('Docs (1)');
        expect(state.sizeTrashed).toBe(0);
      });
  });

  it('restores to the root when the original folder is gone', () => {
    const gone = history(
      [
        folder('d', 'Docs'),
        addFile('f', 'a.txt', 10, 'd'),
        cmd('TrashItems', { itemIds: ['f'] }),
        cmd('TrashItems', { itemIds: ['d'] }),
        cmd('DeleteItems', { itemIds: ['d'] }),
      ],
      opened(),
    );
    given(gone)
      .when(cmd('RestoreItems', { itemIds: ['f'] }))
      .thenState((state) => {
        expect(state.items.get('f')!.parentId).toBeNull();
        expect(state.sizeTrashed).toBe(0);
        expect(state.sizeUsed).toBe(10);
      });
  });

  it('deletes for ever, destroying content only when no copy still uses it', () => {
    const file = history([addFile('f', 'a.txt', 10)], opened());
    given(file)
      .when(copy(['f']))
      .thenState((state) => expect(state.sizeUsed).toBe(20));
    const copied = history([copy(['f'])], file);
    given(copied)
      .when(cmd('DeleteItems', { itemIds: ['f'] }))
      .then((events) => expect((events as Destroying[])[0]!.data.destroyed).toEqual([]));
    const firstGone = history([cmd('DeleteItems', { itemIds: ['f'] })], copied);
    const copyId = [...stateOf(firstGone).items.keys()][0]!;
    given(firstGone)
      .when(cmd('DeleteItems', { itemIds: [copyId] }))
      .thenState((state, events) => {
        expect((events as Destroying[])[0]!.data.destroyed).toHaveLength(1);
        expect(state.sizeUsed).toBe(0);
      });
  });

  it('moves with partial failures counted, and never into the item itself or its own child', () => {
    const state = stateOf(
      history([folder('a', 'A'), folder('b', 'B', 'a'), folder('c', 'C'), addFile('f', 'x.txt', 1), addFile('g', 'x.txt', 1, 'c')], opened()),
    );
    const plan = planBatch(cmd('MoveItems', { itemIds: ['a', 'f', 'missing'], parentId: 'b' }) as never, state);
    expect(plan.failures).toEqual([
      { itemId: 'a', code: StorageErrors.moveIntoOwnChild.code },
      { itemId: 'missing', code: StorageErrors.itemNotFound.code },
    ]);
    expect(plan.events).toHaveLength(1);
    const clash = planBatch(cmd('MoveItems', { itemIds: ['f'], parentId: 'c' }) as never, state);
    expect(clash.failures).toEqual([{ itemId: 'f', code: StorageErrors.nameExists.code }]);
  });

  it('copies a folder tree with new ids, parents before children, within the quota', () => {
    const tree = history([folder('a', 'A'), folder('b', 'B', 'a'), addFile('f', 'x.txt', 10, 'b')], opened(25));
    given(tree)
      .when(copy(['a']))
      .thenState((state) => {
        const names = [...state.items.values()].map((i) => i.name).sort();
        expect(names).toEqual(['A', 'A (1)', 'B', 'B', 'x.txt', 'x.txt']);
      });
    // the second copy takes ids after the first one's
    const ids = newIds();
    const plan = planBatch(copy(['a'], ids) as never, stateOf(history([copy(['a'], ids)], tree)));
    expect(plan.failures).toEqual([{ itemId: 'a', code: StorageErrors.quotaExceeded.code }]);
  });

  it('purges once: every distinct content is destroyed, and the storage takes no further command', () => {
    const filled = history([addFile('f', 'a.txt', 10), copy(['f']), addFile('g', 'b.txt', 5)], opened());
    given(filled)
      .when(cmd('PurgeStorage', {}))
      .then((events) => {
        expect(events.map((e) => e.type)).toEqual(['StoragePurged']);
        expect((events as Destroying[])[0]!.data.destroyed).toHaveLength(2);
      });
    const purged = history([cmd('PurgeStorage', {})], filled);
    given(purged).when(cmd('PurgeStorage', {})).thenNothingHappened();
    given(purged)
      .when(cmd('OpenStorage', { storageId: 's1', ownerId: 'u1', type: 'online', sizeTotal: 1 }))
      .thenNothingHappened();
    given(purged).when(folder('d', 'New')).thenThrows(StorageErrors.storageNotFound);
  });

  it('keeps the owner metadata and refuses profanity in a title', () => {
    const file = history([addFile('f', 'a.txt', 1)], opened());
    const details = cmd('ChangeItemDetails', { itemId: 'f', details: { title: 'Quarterly', ttl: '2026-06-01T00:00:00.000Z' } });
    given(file)
      .when(details)
      .thenState((state, events) => {
        // the expiry travels in an event of its own, free of personal data, for the process that trashes the file on time
        expect(events.map((e) => [e.type, e.type === 'ItemExpirySet' ? e.data : null])).toEqual([
          ['ItemDetailsChanged', null],
          ['ItemExpirySet', { itemId: 'f', expiresAt: '2026-06-01T00:00:00.000Z' }],
        ]);
        expect(state.items.get('f')!.details).toEqual({ title: 'Quarterly', ttl: '2026-06-01T00:00:00.000Z' });
      });
    const changed = history([details], file);
    given(changed)
      .when(cmd('ChangeItemDetails', { itemId: 'f', details: { title: 'Quarterly' } }))
      .thenNothingHappened();
    given(changed)
      .when(cmd('ChangeItemDetails', { itemId: 'f', details: { title: 'bullshit' } }))
      .thenThrows(StorageErrors.profanity);
  });
});
