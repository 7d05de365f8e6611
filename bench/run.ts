/**
 * `npm run bench`: every section measured in one run, on one database of one server.
 *
 * Without DATABASE_URL a durable embedded PostgreSQL (fsync on, synchronous_commit on, as in
 * production) is started in a temporary directory and removed at the end. With DATABASE_URL a
 * fresh database is created on that server and dropped at the end.
 *
 *   BENCH_SECONDS=4   seconds per measured cell (default 3)
 *   BENCH_ROUNDS=3    rounds per append cell (default 3)
 *   BENCH_ONLY=a,b    run only the named sections
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventStoreMigrations } from '../platform/src/eventstore/postgres.migrations';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../platform/src/postgres/embedded';
import { migrate } from '../platform/src/postgres/migrations';
import { createPool, databaseUrlWithName, dropDatabase, ensureDatabase } from '../platform/src/postgres/pool';
import { eventStoreSections } from './eventstore.bench';
import { projectionSections } from './projections.bench';
import { workflowSections } from './workflows.bench';
import { auditSections } from './audit.bench';
import { filesSections } from './files.bench';
import { filesListingSections } from './files-listing.bench';
import { teamsListingSections } from './teams-listing.bench';
import { activitySections } from './activity.bench';
import { secureFetchSections } from './secure-fetch.bench';
import { shareAccessSections } from './share-access.bench';
import { renderTable, type BenchContext, type BenchSection } from './harness';

/**
 * The sections of the run, in order. Extension point: projection catch-up, live lag and
 * workflow-timer sections are added here (each a `BenchSection` from its own
 * `bench/<area>.bench.ts`, getting the same `BenchContext`).
 */
export const sections: BenchSection[] = [
  ...eventStoreSections,
  ...projectionSections,
  ...workflowSections,
  ...auditSections,
  ...filesSections,
  ...filesListingSections,
  ...teamsListingSections,
  ...activitySections,
  ...secureFetchSections,
  ...shareAccessSections,
];

const main = async () => {
  const seconds = Number(process.env.BENCH_SECONDS ?? 3);
  const only = process.env.BENCH_ONLY?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const chosen = only?.length ? sections.filter((s) => only.includes(s.name)) : sections;
  if (!chosen.length) throw new Error(`no section named ${only?.join(', ')}; known: ${sections.map((s) => s.name).join(', ')}`);

  let server: EmbeddedPostgresHandle | undefined;
  let dir: string | undefined;
  let serverUrl = process.env.DATABASE_URL;
  let serverLabel = 'DATABASE_URL';
  if (!serverUrl) {
    dir = mkdtempSync(path.join(os.tmpdir(), 'axel-bench-pg-'));
    const t = Date.now();
    server = await startEmbeddedPostgres({ dir, persistent: false, durable: true });
    serverUrl = server.url;
    serverLabel = `embedded PostgreSQL, durable (fsync on), started in ${Date.now() - t} ms`;
  }
  const database = `bench_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(serverUrl, database);
  const databaseUrl = databaseUrlWithName(serverUrl, database);
  const pool = createPool(databaseUrl, { max: 20, applicationName: 'bench' });
  const tables: string[] = [];
  try {
    await migrate(pool, eventStoreMigrations);
    const { rows } = await pool.query<{ version: string; fsync: string; sc: string }>(
      "select version() as version, current_setting('fsync') as fsync, current_setting('synchronous_commit') as sc",
    );
    const info = rows[0]!;
    const header = [
      `# bench ${new Date().toISOString()}`,
      `server: ${serverLabel}`,
      `${info.version.split(',')[0]}; fsync=${info.fsync}, synchronous_commit=${info.sc}`,
      `node ${process.version}, ${os.cpus().length} cpu(s) (${os.cpus()[0]?.model ?? '?'}), pool max 20, ${seconds}s per cell`,
    ].join('\n');
    console.log(`${header}\n`);
    const ctx: BenchContext = {
      serverUrl,
      databaseUrl,
      pool,
      seconds,
      log: (line) => console.log(line),
      table: (title, rows, note) => {
        const text = `## ${title}\n\n${renderTable(rows)}${note ? `\n\n${note}` : ''}\n`;
        tables.push(text);
        console.log(`\n${text}`);
      },
    };
    for (const section of chosen) {
      console.log(`\n=== ${section.name}: ${section.description}`);
      const t = Date.now();
      await section.run(ctx);
      console.log(`(${section.name} took ${((Date.now() - t) / 1000).toFixed(1)} s)`);
    }
    console.log(`\n\n${header}\n\n${tables.join('\n')}`);
  } finally {
    await pool.end().catch(() => undefined);
    await dropDatabase(serverUrl, database).catch(() => undefined);
    if (server) await server.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
};

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
