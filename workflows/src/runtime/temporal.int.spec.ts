import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { PostgresEventStore, eventStoreMigrations } from '@axel/platform';
import { createTestDatabase } from '../../../test/db';
import { workflowMigrations } from '../embedded/migrations';
import { TemporalProcessRuntime } from '../temporal/runtime';
import { silentLogger } from '../testing/embedded-harness';
import { createProbeKit, probeProcesses } from '../testing/probe';
import { runtimeContract } from './runtime.contract';

/*
 * The same contract against a Temporal server. It runs only with TEMPORAL_ADDRESS set (no server
 * can run on this machine); without it the suite is reported as skipped. Temporal's clock cannot
 * be controlled against a real server, so the 90-day case is skipped and time passes for real.
 */
const address = process.env.TEMPORAL_ADDRESS;

describe.skipIf(!address)('Temporal runtime (TEMPORAL_ADDRESS)', () => {
  runtimeContract('temporal', async () => {
    const db = await createTestDatabase([...eventStoreMigrations, ...workflowMigrations]);
    const store = new PostgresEventStore({ pool: db.pool, connectionString: db.url });
    const kit = createProbeKit(store);
    const runtime = new TemporalProcessRuntime({
      address: address!,
      namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
      store,
      pool: db.pool,
      dispatcher: kit.dispatcher,
      definitions: probeProcesses,
      registry: kit.registry,
      // a task queue of its own: workers of other runs never pick these workflows
      taskQueue: `axel-processes-test-${randomBytes(4).toString('hex')}`,
      workflowsPath: fileURLToPath(new URL('../testing/temporal-test-workflows.ts', import.meta.url)),
      logger: silentLogger,
    });
    await runtime.start();
    return {
      runtime,
      kit,
      pool: db.pool,
      now: () => new Date(),
      elapse: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      canSkipTime: false,
      settleMs: 1_500,
      close: async () => {
        await runtime.stop();
        await store.close();
        await db.drop();
      },
    };
  });
});
