import { assertNever, type Decider } from '../shared/decider';
import { DomainError, type ErrorDefinition } from '../shared/errors';
import type { BatchCommand, StorageCommand } from './storage.commands';
import { StorageErrors } from './storage.errors';
import type { ItemDetails, Manifest, StorageEvent } from './storage.events';
import { mimeFor } from './storage.mime';
import { containsProfanity, freeName, nameProblem, type NameKind } from './storage.names';
import {
  cloneStorageState,
  descendants,
  evolveStorage,
  fileBytes,
  freeBytes,
  initialStorageState,
  isInTrash,
  isLiveFolder,
  isSelfOrAncestor,
  nameTaken,
  takenIn,
  type StorageItem,
  type StorageState,
} from './storage.state';

const fail = (def: ErrorDefinition, data?: Record<string, unknown>): never => {
  throw new DomainError(def, data);
};

/** A name's first broken rule as the spec's error (profanity has a code of its own). */
export const assertValidName = (name: string, kind: NameKind): void => {
  const problem = nameProblem(name, kind);
  if (problem === 'profanity') fail(StorageErrors.profanity);
  if (problem) fail(StorageErrors.invalidName, { reason: problem });
};

const requireOpen = (s: StorageState): void => {
  if (s.status !== 'open') fail(StorageErrors.storageNotFound);
};

const requireLiveItem = (s: StorageState, itemId: string): StorageItem => {
  const item = s.items.get(itemId);
  if (!item) return fail(StorageErrors.itemNotFound);
  if (isInTrash(s, itemId)) fail(StorageErrors.inTrash);
  return item;
};

/** The name an item gets in `parentId`: its own, or with `rename` the next free `name (n).ext`. */
const placeName = (s: StorageState, parentId: string | null, name: string, kind: NameKind, rename: boolean): string => {
  if (!nameTaken(s, parentId, name)) return name;
  if (!rename) fail(StorageErrors.nameExists, { name });
  const picked = freeName(name, kind, takenIn(s, parentId));
  assertValidName(picked, kind);
  return picked;
};

const hasText = (value: string | null | undefined): value is string => typeof value === 'string' && value.length > 0;

const checkDetails = (details: ItemDetails): void => {
  if (hasText(details.title) && nameProblem(details.title, 'file') === 'emoji') fail(StorageErrors.invalidName, { field: 'title', reason: 'emoji' });
  for (const field of ['title', 'keywords', 'description'] as const) {
    if (hasText(details[field]) && containsProfanity(details[field])) fail(StorageErrors.profanity, { field });
  }
};

/** One item of a batch that could not be done, and why (the spec's code). */
export interface BatchFailure {
  readonly itemId: string;
  readonly code: string | number;
}

export interface BatchPlan {
  readonly events: StorageEvent[];
  readonly failures: BatchFailure[];
}

/**
 * Plans a command over several items: each item is done or fails on its own (the spec counts
 * partial failures). Items are planned in order on a scratch copy of the state, so a later item
 * sees the names and bytes an earlier one took.
 */
export const planBatch = (command: BatchCommand, state: StorageState): BatchPlan => {
  requireOpen(state);
  let s = cloneStorageState(state);
  const events: StorageEvent[] = [];
  const failures: BatchFailure[] = [];
  const now = command.metadata.now.toISOString();
  const emit = (...planned: StorageEvent[]) => {
    for (const e of planned) {
      events.push(e);
      s = evolveStorage(s, e);
    }
  };
  for (const itemId of new Set(command.data.itemIds)) {
    try {
      emit(...planOne(command, s, itemId, now));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      failures.push({ itemId, code: error.code });
    }
  }
  return { events, failures };
};

const planOne = (command: BatchCommand, s: StorageState, itemId: string, now: string): StorageEvent[] => {
  switch (command.type) {
    case 'TrashItems': {
      requireLiveItem(s, itemId);
      const inside = descendants(s, itemId, { live: true });
      return [{ type: 'ItemTrashed', data: { itemId, descendantIds: inside, size: fileBytes(s, [itemId, ...inside]), trashedAt: now } }];
    }
    case 'RestoreItems': {
      const item = s.items.get(itemId) ?? fail(StorageErrors.itemNotFound);
      if (!item.trashed) fail(StorageErrors.notInTrash);
      const parentId = isLiveFolder(s, item.parentId) ? item.parentId : null;
      const name = nameTaken(s, parentId, item.name) ? freeName(item.name, item.label, takenIn(s, parentId)) : item.name;
      const inside = descendants(s, itemId, { live: true });
      return [{ type: 'ItemRestored', data: { itemId, descendantIds: inside, parentId, name, size: fileBytes(s, [itemId, ...inside]), restoredAt: now } }];
    }
    case 'DeleteItems': {
      if (!s.items.has(itemId)) fail(StorageErrors.itemNotFound);
      // what was put in the trash on its own stays there (restored later to the root)
      const inside = descendants(s, itemId, { live: true });
      const all = [itemId, ...inside];
      const trashedSize = isInTrash(s, itemId) ? fileBytes(s, all) : 0;
      const uses = new Map<string, { manifest: Manifest; count: number }>();
      for (const id of all) {
        const manifest = s.items.get(id)?.manifest;
        if (!manifest) continue;
        const seen = uses.get(manifest.keyId);
        if (seen) seen.count++;
        else uses.set(manifest.keyId, { manifest, count: 1 });
      }
      const destroyed = [...uses.values()].filter((u) => (s.contentUses.get(u.manifest.keyId) ?? 0) <= u.count).map((u) => u.manifest);
      return [{ type: 'ItemDeleted', data: { itemId, descendantIds: inside, size: fileBytes(s, all), trashedSize, destroyed, deletedAt: now } }];
    }
    case 'MoveItems': {
      const item = requireLiveItem(s, itemId);
      const target = command.data.parentId;
      if (!isLiveFolder(s, target)) fail(StorageErrors.folderNotFound);
      if (target !== null && isSelfOrAncestor(s, itemId, target)) fail(StorageErrors.moveIntoOwnChild);
      if (item.parentId === target) return [];
      if (nameTaken(s, target, item.name, itemId)) fail(StorageErrors.nameExists);
      return [{ type: 'ItemMoved', data: { itemId, parentId: target, modifiedAt: now } }];
    }
    case 'CopyItems': {
      const item = requireLiveItem(s, itemId);
      const target = command.data.parentId;
      if (!isLiveFolder(s, target)) fail(StorageErrors.folderNotFound);
      if (target !== null && isSelfOrAncestor(s, itemId, target)) fail(StorageErrors.moveIntoOwnChild);
      const inside = descendants(s, itemId, { live: true });
      if (fileBytes(s, [itemId, ...inside]) > freeBytes(s)) fail(StorageErrors.quotaExceeded);
      const copies = new Map<string, string>();
      const out: StorageEvent[] = [];
      const copyOf = (source: StorageItem, parentId: string | null, name: string): StorageEvent => {
        const copyId = command.data.newId();
        copies.set(source.id, copyId);
        return source.label === 'folder'
          ? { type: 'FolderCreated', data: { itemId: copyId, parentId, name, copiedFrom: source.id, createdAt: now } }
          : {
              type: 'FileAdded',
              data: {
                itemId: copyId,
                parentId,
                name,
                size: source.size,
                hash: source.manifest!.sha256,
                mime: mimeFor(name),
                manifest: source.manifest!,
                uploadId: null,
                copiedFrom: source.id,
                encrypted: true,
                // a copy is the same ciphertext: the same key packets open it
                e2eeEnabled: source.pgpmessage != null,
                pgpmessage: source.pgpmessage ?? null,
                createdAt: now,
              },
            };
      };
      out.push(copyOf(item, target, freeName(item.name, item.label, takenIn(s, target))));
      // parents come before their children: descendants() walks from the top
      for (const id of inside) {
        const source = s.items.get(id)!;
        out.push(copyOf(source, copies.get(source.parentId!)!, source.name));
      }
      return out;
    }
    default:
      return assertNever(command);
  }
};

export const decideStorage = (command: StorageCommand, s: StorageState): StorageEvent[] => {
  const now = command.metadata.now.toISOString();
  switch (command.type) {
    case 'OpenStorage': {
      if (s.status !== 'none') return [];
      const { storageId, ownerId, type, sizeTotal } = command.data;
      return [{ type: 'StorageOpened', data: { storageId, ownerId, type, sizeTotal, openedAt: now } }];
    }
    case 'PurgeStorage': {
      if (s.status !== 'open') return [];
      const destroyed = new Map<string, Manifest>();
      for (const item of s.items.values()) if (item.manifest) destroyed.set(item.manifest.keyId, item.manifest);
      return [{ type: 'StoragePurged', data: { destroyed: [...destroyed.values()], at: now } }];
    }
    case 'ChangeStorageQuota':
      requireOpen(s);
      return s.sizeTotal === command.data.sizeTotal ? [] : [{ type: 'StorageQuotaChanged', data: { sizeTotal: command.data.sizeTotal } }];
    case 'ReserveQuota': {
      requireOpen(s);
      const { uploadId, size } = command.data;
      const held = s.reservations.get(uploadId);
      if (held === size) return [];
      if (size > freeBytes(s) + (held ?? 0)) fail(StorageErrors.quotaExceeded, { sizeTotal: s.sizeTotal, sizeUsed: s.sizeUsed });
      return [{ type: 'QuotaReserved', data: { uploadId, size } }];
    }
    case 'ReleaseQuota':
      requireOpen(s);
      return s.reservations.has(command.data.uploadId) ? [{ type: 'QuotaReleased', data: { uploadId: command.data.uploadId } }] : [];
    case 'CreateFolder': {
      requireOpen(s);
      const { itemId, parentId, name, rename } = command.data;
      if (s.items.has(itemId)) return [];
      assertValidName(name, 'folder');
      if (!isLiveFolder(s, parentId)) fail(StorageErrors.folderNotFound);
      const placed = placeName(s, parentId, name, 'folder', rename);
      return [{ type: 'FolderCreated', data: { itemId, parentId, name: placed, copiedFrom: null, createdAt: now } }];
    }
    case 'AddFile': {
      requireOpen(s);
      const { itemId, parentId, name, rename, uploadId, manifest, encrypted, e2eeEnabled } = command.data;
      if (s.items.has(itemId)) return [];
      const pgpmessage = command.data.pgpmessage ?? null;
      // an end-to-end file without its key packets could never be read, and key packets of a plain file mean nothing
      if (e2eeEnabled !== (pgpmessage !== null)) fail(StorageErrors.e2eeKeyPackets);
      assertValidName(name, 'file');
      if (!isLiveFolder(s, parentId)) fail(StorageErrors.folderNotFound);
      const placed = placeName(s, parentId, name, 'file', rename);
      if (manifest.size > freeBytes(s) + (s.reservations.get(uploadId) ?? 0)) {
        fail(StorageErrors.quotaExceeded, { sizeTotal: s.sizeTotal, sizeUsed: s.sizeUsed });
      }
      return [
        {
          type: 'FileAdded',
          data: {
            itemId,
            parentId,
            name: placed,
            size: manifest.size,
            hash: manifest.sha256,
            mime: mimeFor(placed),
            manifest,
            uploadId,
            copiedFrom: null,
            encrypted,
            e2eeEnabled,
            pgpmessage,
            createdAt: now,
          },
        },
      ];
    }
    case 'RenameItem': {
      requireOpen(s);
      const item = requireLiveItem(s, command.data.itemId);
      const { name } = command.data;
      if (item.name === name) return [];
      assertValidName(name, item.label);
      if (nameTaken(s, item.parentId, name, item.id)) fail(StorageErrors.nameExists, { name });
      return [{ type: 'ItemRenamed', data: { itemId: item.id, name, modifiedAt: now } }];
    }
    case 'ChangeItemDetails': {
      requireOpen(s);
      const item = requireLiveItem(s, command.data.itemId);
      checkDetails(command.data.details);
      const changed: ItemDetails = Object.fromEntries(Object.entries(command.data.details).filter(([k, v]) => item.details[k as keyof ItemDetails] !== v));
      if (!Object.keys(changed).length) return [];
      const events: StorageEvent[] = [{ type: 'ItemDetailsChanged', data: { itemId: item.id, details: changed, modifiedAt: now } }];
      if ('ttl' in changed) events.push({ type: 'ItemExpirySet', data: { itemId: item.id, expiresAt: changed.ttl ?? null } });
      return events;
    }
    case 'TrashItems':
    case 'RestoreItems':
    case 'DeleteItems':
    case 'MoveItems':
    case 'CopyItems':
      return planBatch(command, s).events;
    default:
      return assertNever(command);
  }
};

export const storageDecider: Decider<StorageCommand, StorageEvent, StorageState> = {
  decide: decideStorage,
  evolve: evolveStorage,
  initialState: initialStorageState,
};
