/*
 * The embedded runtime as a separate process, for the crash test: started with tsx, killed with
 * SIGKILL, started again. Prints `ready` once it takes work; stops gracefully on SIGTERM.
 */
import { PostgresEventStore, createPool } from '@axel/platform';
import { EmbeddedProcessRuntime } from '../embedded/runtime';
import { createProbeKit, probeProcesses } from '../testing/probe';

const url = process.env.CRASH_DATABASE_URL;
if (!url) throw new Error('CRASH_DATABASE_URL is required');

const pool = createPool(url, { max: 20, applicationName: 'crash-child' });
const store = new PostgresEventStore({ pool, connectionString: url });
const kit = createProbeKit(store);
const runtime = new EmbeddedProcessRuntime({
  pool,
  connectionString: url,
  store,
  definitions: probeProcesses,
  dispatcher: kit.dispatcher,
  registry: kit.registry,
  staleNodeAfterMs: Number(process.env.CRASH_STALE_MS ?? 1_000),
  logger: {
    warn: (message) => process.stderr.write(`warn: ${message}\n`),
    error: (message) => process.stderr.write(`error: ${message}\n`),
  },
});

await runtime.start();
process.stdout.write('ready\n');

process.on('SIGTERM', () => {
  void runtime
    .stop()
    .then(() => store.close())
    .then(() => pool.end())
    .finally(() => process.exit(0));
});
