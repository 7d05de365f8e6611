/*
 * Collection of unpaid Secure Fetch files: files received through a link stay unpaid until pay and
 * pin; 2 hours after they arrived, unpaid ones are deleted (spec §4, §9). One process per link,
 * started by its submission, finished by its payment or its collection. Pure (bundled into Temporal
 * workflow code): only type imports.
 */
import type { SecureFetchSubmitted } from '@axel/domain/secure-fetch/secure-fetch.events';
import type { EventOf } from '@axel/domain/shared/events';
import { defineProcess, type ProcessDefinition, type ProcessEvent } from '../model/process';

export const SECURE_FETCH_COLLECT_PROCESS = 'secure-fetch-collect';
export const COLLECT_TIMER = 'collect';
/** Spec §9: unpaid pinned files are collected after 2 hours. */
export const UNPAID_GRACE_MS = 2 * 60 * 60 * 1000;

/** The Secure Fetch context's stream of one link (`secureFetchStreamName`): `secure-fetch-<id>`. */
const STREAM_PREFIX = 'secure-fetch-';
const COUNTER_PREFIX = 'secure-fetch-counter-';

export interface SecureFetchCollectState {
  readonly fetchId: string | null;
  readonly collectAt: string | null;
}

type Submitted = EventOf<typeof SecureFetchSubmitted>['data'];

const fetchOf = (event: ProcessEvent) =>
  event.streamName.startsWith(STREAM_PREFIX) && !event.streamName.startsWith(COUNTER_PREFIX) ? event.streamName.slice(STREAM_PREFIX.length) : null;

export const createSecureFetchCollectProcess = (): ProcessDefinition<SecureFetchCollectState> =>
  defineProcess<SecureFetchCollectState>({
    type: SECURE_FETCH_COLLECT_PROCESS,
    startsOn: ['SecureFetchSubmitted'],
    reactsTo: ['SecureFetchPaid', 'SecureFetchFilesCollected'],
    correlate: fetchOf,
    initialState: () => ({ fetchId: null, collectAt: null }),
    react(state, input) {
      if (input.kind === 'event' && input.event.type === 'SecureFetchSubmitted') {
        const { submittedAt } = input.event.data as Submitted;
        const collectAt = new Date(new Date(submittedAt).getTime() + UNPAID_GRACE_MS);
        return { state: { fetchId: fetchOf(input.event), collectAt: collectAt.toISOString() }, timers: { set: [{ name: COLLECT_TIMER, at: collectAt }] } };
      }
      if (input.kind === 'event' && (input.event.type === 'SecureFetchPaid' || input.event.type === 'SecureFetchFilesCollected')) return { state, done: true };
      if (input.kind === 'timer' && input.name === COLLECT_TIMER && state.fetchId) {
        // a link paid (or being paid) by now is left alone by the command itself
        return { state, commands: [{ aggregate: 'secure-fetch', aggregateId: state.fetchId, type: 'CollectUnpaidFiles', data: {} }], done: true };
      }
      return { state };
    },
  });
