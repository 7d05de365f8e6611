import { afterAll, beforeAll } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { storagePlacements, storageQuotaGate } from './storage.quota-gate';
import { createBytePipeline, type BytePipeline } from './uploads';

/**
 * Starts a test app with `env` and the byte pipeline the server runs (over the same database and
 * DATA_DIR) before the file's tests, and closes both after them; `started` gets both once up.
 */
export const pipelineTestApp = (env: Record<string, string>, started: (running: { t: TestApp; pipeline: BytePipeline }) => void) => {
  let t: TestApp | undefined;
  let pipeline: BytePipeline | undefined;
  beforeAll(async () => {
    t = await startTestApp({ env });
    pipeline = createBytePipeline(t.app.ctx, { quota: storageQuotaGate(t.app.ctx), placements: storagePlacements(t.app.ctx) });
    started({ t, pipeline });
  });
  afterAll(async () => {
    await pipeline?.close();
    await t?.stop();
  });
};
