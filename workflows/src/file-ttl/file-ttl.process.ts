/*
 * File TTL: a file whose TTL (File details) runs out goes to the trash. One process per file,
 * keyed `<storageId>:<itemId>`; it keeps running while the file exists, so a TTL set again after a
 * restore is followed too. Pure (bundled into Temporal workflow code): only type imports.
 */
import type { ItemDeleted, ItemExpirySet } from '@axel/domain/storage/storage.events';
import type { EventOf } from '@axel/domain/shared/events';
import { defineProcess, type ProcessDefinition, type ProcessEvent } from '../model/process';

export const FILE_TTL_PROCESS = 'file-ttl';
export const EXPIRE_TIMER = 'expire';

/** The storage context's stream of one storage (`storageStreamName`): `storage-<id>`. */
const STORAGE_STREAM_PREFIX = 'storage-';

export interface FileTtlState {
  readonly storageId: string | null;
  readonly itemId: string | null;
  readonly expiresAt: string | null;
}

type Expiry = EventOf<typeof ItemExpirySet>['data'];
type Deleted = EventOf<typeof ItemDeleted>['data'];

const storageOf = (event: ProcessEvent) => (event.streamName.startsWith(STORAGE_STREAM_PREFIX) ? event.streamName.slice(STORAGE_STREAM_PREFIX.length) : null);

export const createFileTtlProcess = (): ProcessDefinition<FileTtlState> =>
  defineProcess<FileTtlState>({
    type: FILE_TTL_PROCESS,
    startsOn: ['ItemExpirySet'],
    reactsTo: ['ItemDeleted'],
    correlate(event) {
      const storageId = storageOf(event);
      const itemId = (event.data as Partial<Expiry & Deleted>).itemId;
      return storageId && itemId ? `${storageId}:${itemId}` : null;
    },
    initialState: () => ({ storageId: null, itemId: null, expiresAt: null }),
    react(state, input) {
      if (input.kind === 'event' && input.event.type === 'ItemExpirySet') {
        const { itemId, expiresAt } = input.event.data as Expiry;
        const next = { storageId: storageOf(input.event), itemId, expiresAt };
        return expiresAt
          ? { state: next, timers: { set: [{ name: EXPIRE_TIMER, at: new Date(expiresAt) }] } }
          : { state: next, timers: { cancel: [EXPIRE_TIMER] } };
      }
      if (input.kind === 'event' && input.event.type === 'ItemDeleted') return { state, done: true };
      if (input.kind === 'timer' && input.name === EXPIRE_TIMER && state.storageId && state.itemId) {
        return {
          state: { ...state, expiresAt: null },
          // an item already in the trash, or gone, is simply not trashed again
          commands: [{ aggregate: 'storage', aggregateId: state.storageId, type: 'TrashItems', data: { itemIds: [state.itemId] } }],
        };
      }
      return { state };
    },
  });
