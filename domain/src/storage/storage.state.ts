import type { ItemDetails, Manifest, StorageEvent, StorageType } from './storage.events';
import { nameKey } from './storage.names';

export interface StorageItem {
  readonly id: string;
  readonly label: 'file' | 'folder';
  name: string;
  parentId: string | null;
  /** Plaintext bytes of a file; 0 for a folder. */
  readonly size: number;
  readonly manifest: Manifest | null;
  /** Put in the trash itself (its contents are in the trash through it). */
  trashed: boolean;
  details: ItemDetails;
  /** An end-to-end file's key packets (a copy carries them). */
  readonly pgpmessage?: string | null;
}

const ROOT = '';
const parentKey = (parentId: string | null): string => parentId ?? ROOT;

/**
 * A storage: quota, reservations and its item tree with the indexes decisions need (children per
 * folder, names per folder, uses per content key).
 *
 * `evolve` updates these indexes in place and returns a new top-level object: a storage holds
 * thousands of items and every command folds its whole stream, so copying the tables per event
 * would make a fold quadratic. Every fold starts from a fresh {@link initialStorageState}, and
 * decisions that need to try changes first work on {@link cloneStorageState}.
 */
export interface StorageState {
  readonly status: 'none' | 'open' | 'purged';
  readonly storageId: string | null;
  readonly ownerId: string | null;
  readonly type: StorageType | null;
  readonly sizeTotal: number;
  /** Bytes of every file kept, in the trash or not. */
  readonly sizeUsed: number;
  /** Bytes of the files in the trash (part of sizeUsed). */
  readonly sizeTrashed: number;
  readonly reservations: Map<string, number>;
  readonly items: Map<string, StorageItem>;
  readonly children: Map<string, Set<string>>;
  /** Folder -> name key -> item, for the items not put in the trash themselves. */
  readonly names: Map<string, Map<string, string>>;
  /** Content key id -> number of files using that content (copies share it). */
  readonly contentUses: Map<string, number>;
}

export const initialStorageState = (): StorageState => ({
  status: 'none',
  storageId: null,
  ownerId: null,
  type: null,
  sizeTotal: 0,
  sizeUsed: 0,
  sizeTrashed: 0,
  reservations: new Map(),
  items: new Map(),
  children: new Map(),
  names: new Map(),
  contentUses: new Map(),
});

export const cloneStorageState = (s: StorageState): StorageState => ({
  ...s,
  reservations: new Map(s.reservations),
  items: new Map([...s.items].map(([id, item]) => [id, { ...item }])),
  children: new Map([...s.children].map(([k, v]) => [k, new Set(v)])),
  names: new Map([...s.names].map(([k, v]) => [k, new Map(v)])),
  contentUses: new Map(s.contentUses),
});

export const reservedBytes = (s: StorageState): number => {
  let total = 0;
  for (const size of s.reservations.values()) total += size;
  return total;
};

/** Bytes still free for new content: neither used nor promised to an upload in flight. */
export const freeBytes = (s: StorageState): number => s.sizeTotal - s.sizeUsed - reservedBytes(s);

export const childIds = (s: StorageState, parentId: string | null): ReadonlySet<string> => s.children.get(parentKey(parentId)) ?? new Set();

export const nameTaken = (s: StorageState, parentId: string | null, name: string, except?: string): boolean => {
  const holder = s.names.get(parentKey(parentId))?.get(nameKey(name));
  return holder !== undefined && holder !== except;
};

export const takenIn = (s: StorageState, parentId: string | null) => {
  const names = s.names.get(parentKey(parentId));
  return (key: string) => names?.has(key) ?? false;
};

/** In the trash itself or inside a folder that is. */
export const isInTrash = (s: StorageState, id: string): boolean => {
  for (let item = s.items.get(id); item; item = item.parentId ? s.items.get(item.parentId) : undefined) {
    if (item.trashed) return true;
  }
  return false;
};

/** A folder that can receive items: the root, or a folder not in the trash. */
export const isLiveFolder = (s: StorageState, parentId: string | null): boolean => {
  if (parentId === null) return true;
  const folder = s.items.get(parentId);
  return folder !== undefined && folder.label === 'folder' && !isInTrash(s, parentId);
};

/** `ancestorId` is `id` itself or one of the folders above it. */
export const isSelfOrAncestor = (s: StorageState, ancestorId: string, id: string | null): boolean => {
  for (let cur = id; cur !== null; cur = s.items.get(cur)?.parentId ?? null) if (cur === ancestorId) return true;
  return false;
};

/**
 * Everything below `id`. With `live`, the contents of folders put in the trash on their own are
 * left out: they stay in the trash whatever happens to `id`.
 */
export const descendants = (s: StorageState, id: string, options: { live?: boolean } = {}): string[] => {
  const out: string[] = [];
  const stack = [...childIds(s, id)];
  while (stack.length) {
    const next = stack.pop()!;
    const item = s.items.get(next);
    if (!item || (options.live && item.trashed)) continue;
    out.push(next);
    stack.push(...childIds(s, next));
  }
  return out;
};

export const fileBytes = (s: StorageState, ids: Iterable<string>): number => {
  let total = 0;
  for (const id of ids) total += s.items.get(id)?.size ?? 0;
  return total;
};

const setAdd = <K, V>(map: Map<K, Set<V>>, key: K, value: V) => {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
};
const nameAdd = (s: StorageState, item: StorageItem) => {
  const key = parentKey(item.parentId);
  const names = s.names.get(key);
  if (names) names.set(nameKey(item.name), item.id);
  else s.names.set(key, new Map([[nameKey(item.name), item.id]]));
};
const nameRemove = (s: StorageState, item: StorageItem) => {
  const names = s.names.get(parentKey(item.parentId));
  if (names?.get(nameKey(item.name)) === item.id) names.delete(nameKey(item.name));
};
const addItem = (s: StorageState, item: StorageItem) => {
  s.items.set(item.id, item);
  setAdd(s.children, parentKey(item.parentId), item.id);
  nameAdd(s, item);
  if (item.manifest) s.contentUses.set(item.manifest.keyId, (s.contentUses.get(item.manifest.keyId) ?? 0) + 1);
};

export const evolveStorage = (s: StorageState, event: StorageEvent): StorageState => {
  switch (event.type) {
    case 'StorageOpened':
      return { ...s, status: 'open', storageId: event.data.storageId, ownerId: event.data.ownerId, type: event.data.type, sizeTotal: event.data.sizeTotal };
    case 'StorageQuotaChanged':
      return { ...s, sizeTotal: event.data.sizeTotal };
    case 'QuotaReserved':
      s.reservations.set(event.data.uploadId, event.data.size);
      return { ...s };
    case 'QuotaReleased':
      s.reservations.delete(event.data.uploadId);
      return { ...s };
    case 'FolderCreated': {
      const d = event.data;
      addItem(s, { id: d.itemId, label: 'folder', name: d.name, parentId: d.parentId, size: 0, manifest: null, trashed: false, details: {} });
      return { ...s };
    }
    case 'FileAdded': {
      const d = event.data;
      addItem(s, {
        id: d.itemId,
        label: 'file',
        name: d.name,
        parentId: d.parentId,
        size: d.size,
        manifest: d.manifest,
        trashed: false,
        details: {},
        pgpmessage: d.pgpmessage ?? null,
      });
      if (d.uploadId) s.reservations.delete(d.uploadId);
      return { ...s, sizeUsed: s.sizeUsed + d.size };
    }
    case 'ItemRenamed': {
      const item = s.items.get(event.data.itemId);
      if (!item) return s;
      if (!item.trashed) nameRemove(s, item);
      item.name = event.data.name;
      if (!item.trashed) nameAdd(s, item);
      return { ...s };
    }
    case 'ItemDetailsChanged': {
      const item = s.items.get(event.data.itemId);
      if (item) item.details = { ...item.details, ...event.data.details };
      return { ...s };
    }
    case 'ItemMoved': {
      const item = s.items.get(event.data.itemId);
      if (!item) return s;
      nameRemove(s, item);
      s.children.get(parentKey(item.parentId))?.delete(item.id);
      item.parentId = event.data.parentId;
      setAdd(s.children, parentKey(item.parentId), item.id);
      if (!item.trashed) nameAdd(s, item);
      return { ...s };
    }
    case 'ItemTrashed': {
      const item = s.items.get(event.data.itemId);
      if (!item) return s;
      nameRemove(s, item);
      item.trashed = true;
      return { ...s, sizeTrashed: s.sizeTrashed + event.data.size };
    }
    case 'ItemRestored': {
      const item = s.items.get(event.data.itemId);
      if (!item) return s;
      s.children.get(parentKey(item.parentId))?.delete(item.id);
      item.parentId = event.data.parentId;
      item.name = event.data.name;
      item.trashed = false;
      setAdd(s.children, parentKey(item.parentId), item.id);
      nameAdd(s, item);
      return { ...s, sizeTrashed: s.sizeTrashed - event.data.size };
    }
    case 'ItemDeleted': {
      const item = s.items.get(event.data.itemId);
      if (!item) return s;
      nameRemove(s, item);
      s.children.get(parentKey(item.parentId))?.delete(item.id);
      for (const id of [event.data.itemId, ...event.data.descendantIds]) {
        const gone = s.items.get(id);
        if (gone?.manifest) {
          const uses = (s.contentUses.get(gone.manifest.keyId) ?? 1) - 1;
          if (uses > 0) s.contentUses.set(gone.manifest.keyId, uses);
          else s.contentUses.delete(gone.manifest.keyId);
        }
        s.items.delete(id);
        s.children.delete(id);
        s.names.delete(id);
      }
      return { ...s, sizeUsed: s.sizeUsed - event.data.size, sizeTrashed: s.sizeTrashed - event.data.trashedSize };
    }
    case 'StoragePurged':
      return { ...initialStorageState(), status: 'purged', storageId: s.storageId, ownerId: s.ownerId, type: s.type };
    default:
      return s;
  }
};
