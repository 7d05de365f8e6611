/*
 * Upkeep of the blob store on the process runtime: a scrub (every manifest walked, missing or
 * damaged replicas re-created, a report recorded for staff) and a collection (chunks and keys no
 * manifest or upload names, deleted safely) on their own schedules. One process for the whole
 * installation, started by the first `BlobMaintenanceScheduled` and re-timed by a later one (a
 * changed interval). It never ends: each run sets the timer of the next. Pure (bundled into
 * Temporal workflow code): only type imports.
 */
import type { BlobMaintenanceScheduled } from '@axel/domain/storage/blob-maintenance.events';
import type { EventOf } from '@axel/domain/shared/events';
import { defineProcess, type ProcessDefinition } from '../model/process';

export const BLOB_MAINTENANCE_PROCESS = 'blob-maintenance';
export const BLOB_MAINTENANCE_ID = 'blobs';
export const SCRUB_TIMER = 'scrub';
export const COLLECT_TIMER = 'collect';

/** `BLOB_MAINTENANCE_STREAM` of the storage context. */
const STREAM = 'blob-maintenance';

export interface BlobMaintenanceState {
  readonly scrubEveryMs: number | null;
  readonly collectEveryMs: number | null;
  /** Runs asked for so far. */
  readonly scrubs: number;
  readonly collections: number;
}

type Scheduled = EventOf<typeof BlobMaintenanceScheduled>['data'];

export const createBlobMaintenanceProcess = (): ProcessDefinition<BlobMaintenanceState> =>
  defineProcess<BlobMaintenanceState>({
    type: BLOB_MAINTENANCE_PROCESS,
    startsOn: ['BlobMaintenanceScheduled'],
    correlate: (event) => (event.streamName === STREAM ? BLOB_MAINTENANCE_ID : null),
    initialState: () => ({ scrubEveryMs: null, collectEveryMs: null, scrubs: 0, collections: 0 }),
    react(state, input, now) {
      if (input.kind === 'event' && input.event.type === 'BlobMaintenanceScheduled') {
        const { scrubEveryMs, collectEveryMs } = input.event.data as Scheduled;
        // a new schedule counts from now: the next runs are one interval away
        return {
          state: { ...state, scrubEveryMs, collectEveryMs },
          timers: {
            set: [
              { name: SCRUB_TIMER, at: new Date(now.getTime() + scrubEveryMs) },
              { name: COLLECT_TIMER, at: new Date(now.getTime() + collectEveryMs) },
            ],
          },
        };
      }
      if (input.kind === 'timer' && input.name === SCRUB_TIMER && state.scrubEveryMs) {
        return {
          state: { ...state, scrubs: state.scrubs + 1 },
          commands: [{ aggregate: 'blobs', aggregateId: BLOB_MAINTENANCE_ID, type: 'ScrubBlobs', data: {} }],
          timers: { set: [{ name: SCRUB_TIMER, at: new Date(now.getTime() + state.scrubEveryMs) }] },
        };
      }
      if (input.kind === 'timer' && input.name === COLLECT_TIMER && state.collectEveryMs) {
        return {
          state: { ...state, collections: state.collections + 1 },
          commands: [{ aggregate: 'blobs', aggregateId: BLOB_MAINTENANCE_ID, type: 'CollectBlobs', data: {} }],
          timers: { set: [{ name: COLLECT_TIMER, at: new Date(now.getTime() + state.collectEveryMs) }] },
        };
      }
      return { state };
    },
  });
