import { PostgresEventStore, eventStoreMigrations } from '@axel/platform';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { EmbeddedProcessRuntime, type EmbeddedRuntimeOptions, type RuntimeLogger } from '../embedded/runtime';
import { workflowMigrations } from '../embedded/migrations';
import { ControlledClock } from '../runtime/clock';
import type { RuntimeHarness } from '../runtime/runtime.contract';
import { createProbeKit, probeProcesses, type ProbeKit } from './probe';

export const silentLogger: RuntimeLogger = { warn: () => undefined, error: () => undefined };

export interface EmbeddedHarness extends RuntimeHarness {
  readonly runtime: EmbeddedProcessRuntime;
  readonly db: TestDatabase;
  readonly store: PostgresEventStore;
  readonly clock: ControlledClock;
  readonly kit: ProbeKit;
  /** A second runtime on the same database (a restart), with the same clock and dispatcher. */
  restart(): Promise<EmbeddedProcessRuntime>;
}

/** A fresh database, a real event store, the probe processes and a controlled clock. */
export const createEmbeddedHarness = async (
  overrides: Partial<Omit<EmbeddedRuntimeOptions, 'pool' | 'connectionString' | 'store'>> = {},
): Promise<EmbeddedHarness> => {
  const db = await createTestDatabase([...eventStoreMigrations, ...workflowMigrations]);
  const store = new PostgresEventStore({ pool: db.pool, connectionString: db.url });
  const kit = createProbeKit(store);
  const clock = new ControlledClock(new Date());
  const make = () =>
    new EmbeddedProcessRuntime({
      pool: db.pool,
      connectionString: db.url,
      store,
      definitions: probeProcesses,
      dispatcher: kit.dispatcher,
      registry: kit.registry,
      clock,
      logger: silentLogger,
      ...overrides,
    });
  let runtime = make();
  await runtime.start();
  const harness: EmbeddedHarness = {
    get runtime() {
      return runtime;
    },
    db,
    store,
    clock,
    kit,
    pool: db.pool,
    canSkipTime: true,
    settleMs: 300,
    now: () => clock.now(),
    elapse: async (ms) => {
      await runtime.advanceTo(new Date(clock.now().getTime() + ms));
    },
    restart: async () => {
      await runtime.stop();
      runtime = make();
      await runtime.start();
      return runtime;
    },
    close: async () => {
      await runtime.stop();
      await store.close();
      await db.drop();
    },
  };
  return harness;
};
