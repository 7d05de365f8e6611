import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../platform/src/postgres/embedded';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/**
 * One throw-away PostgreSQL cluster per run (or the server at DATABASE_URL); every test file
 * makes its own database on it.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('databaseUrl', process.env.DATABASE_URL);
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'axel-test-pg-'));
  const server = await startEmbeddedPostgres({ dir, persistent: false, durable: false });
  project.provide('databaseUrl', server.url);
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
