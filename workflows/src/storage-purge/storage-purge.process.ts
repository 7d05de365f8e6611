/*
 * Storage purge: when an account is purged, its storages are purged too (their files' content
 * destroyed, the names and details in their streams forgotten). Pure (bundled into Temporal
 * workflow code): only type imports.
 */
import { defineProcess, type ProcessDefinition } from '../model/process';

export const STORAGE_PURGE_PROCESS = 'storage-purge';

/** The accounts context's stream of one user (`userStreamName`): `user-<id>`. */
const USER_STREAM_PREFIX = 'user-';

export interface StoragePurgeState {
  readonly userId: string | null;
}

export const createStoragePurgeProcess = (): ProcessDefinition<StoragePurgeState> =>
  defineProcess<StoragePurgeState>({
    type: STORAGE_PURGE_PROCESS,
    startsOn: ['AccountPurged'],
    correlate: (event) => (event.streamName.startsWith(USER_STREAM_PREFIX) ? event.streamName.slice(USER_STREAM_PREFIX.length) : null),
    initialState: () => ({ userId: null }),
    react(state, input) {
      if (input.kind !== 'event' || input.event.type !== 'AccountPurged') return { state };
      const userId = input.event.streamName.slice(USER_STREAM_PREFIX.length);
      // the storages are found from the owner: the process holds ids only
      return { state: { userId }, commands: [{ aggregate: 'storage-owner', aggregateId: userId, type: 'PurgeStorages', data: {} }], done: true };
    },
  });
