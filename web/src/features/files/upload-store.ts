import type { StoredUpload, UploadItem } from './upload-queue.machine';
import { UNFINISHED } from './upload-queue.machine';

const DB_NAME = 'axel-uploads';
const STORE = 'uploads';

/** A stored upload as written: the queue's record plus, where the browser gave one, the file's handle. */
export type StoredRecord = StoredUpload;

const request = <T>(r: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });

let opened: Promise<IDBDatabase> | null = null;
const database = () => {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(DB_NAME, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE, { keyPath: 'id' });
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  opened.catch(() => {
    opened = null;
  });
  return opened;
};

// biome-ignore lint/suspicious/noConfusingVoidType: a run that only writes returns nothing, one that reads returns its request
const transaction = async <T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T> | void): Promise<T | void> => {
  const db = await database();
  const tx = db.transaction(STORE, mode);
  const result = run(tx.objectStore(STORE));
  const done = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
  const value = result ? await request(result) : undefined;
  await done;
  return value;
};

/** What is kept of a queue item while it is unfinished: enough to show it and resume it after a reload. */
export const storedOf = (item: UploadItem): StoredRecord => ({
  id: item.id,
  batchId: item.batchId,
  name: item.name,
  relativeDir: item.relativeDir,
  size: item.size,
  lastModified: item.lastModified,
  fingerprint: item.fingerprint,
  target: item.target,
  uploadUrl: item.uploadUrl,
  bytesSent: item.bytesSent,
  handle: item.handle,
});

/** Items worth keeping: unfinished uploads of a signed-in user's storage. */
export const keepable = (items: readonly UploadItem[]) => items.filter((i) => UNFINISHED.includes(i.status) && i.target.userId !== '');

export const uploadStore = {
  async all(): Promise<StoredRecord[]> {
    if (typeof indexedDB === 'undefined') return [];
    return ((await transaction('readonly', (s) => s.getAll() as IDBRequest<StoredRecord[]>)) ?? []) as StoredRecord[];
  },
  /** Writes the changed records and deletes the given ids, in one transaction. */
  async write(put: readonly StoredRecord[], remove: readonly string[]): Promise<void> {
    if (typeof indexedDB === 'undefined' || (!put.length && !remove.length)) return;
    await transaction('readwrite', (s) => {
      for (const record of put) s.put(record);
      for (const id of remove) s.delete(id);
    });
  },
};

/** How the kept records change from one queue snapshot to the next (pure, so it is tested without a browser). */
export const storeChanges = (previous: ReadonlyMap<string, string>, items: readonly UploadItem[]) => {
  const next = new Map<string, string>();
  const put: StoredRecord[] = [];
  for (const item of keepable(items)) {
    const record = storedOf(item);
    const { handle: _handle, ...comparable } = record;
    const key = JSON.stringify(comparable);
    next.set(item.id, key);
    if (previous.get(item.id) !== key) put.push(record);
  }
  const remove = [...previous.keys()].filter((id) => !next.has(id));
  return { next, put, remove };
};
