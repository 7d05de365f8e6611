import { describe } from 'vitest';
import { describeEventStoreContract } from './eventstore.contract';
import { KurrentEventStore } from './eventstoredb';

/**
 * Runs the EventStore contract against a KurrentDB/EventStoreDB server when EVENTSTORE_URL is
 * set, e.g. `EVENTSTORE_URL='kurrentdb://localhost:2113?tls=false' npx vitest run --project int
 * platform/src/eventstore/eventstoredb`. Without it the suite is reported as skipped.
 */
const url = process.env.EVENTSTORE_URL;

describe.runIf(url)('KurrentDB adapter (EVENTSTORE_URL)', () => {
  describeEventStoreContract(
    'eventstoredb',
    async () => {
      const store = new KurrentEventStore({ connectionString: url! });
      return { store, close: () => store.close() };
    },
    { idsUniqueAcrossStreams: false },
  );
});
