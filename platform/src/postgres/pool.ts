import pg from 'pg';

/** int8 as number: positions and revisions stay below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === 20) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

export const createPool = (connectionString: string, options: { max?: number; applicationName?: string } = {}): pg.Pool => {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 20,
    application_name: options.applicationName ?? 'axel',
    types,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return trackConnections(pool);
};

const openConnections = new WeakMap<pg.Pool, Set<pg.Client>>();

/** Keeps count of a pool's open connections, so that {@link closePool} can wait for them to close. */
export const trackConnections = <P extends pg.Pool>(pool: P): P => {
  if (openConnections.has(pool)) return pool;
  const open = new Set<pg.Client>();
  openConnections.set(pool, open);
  pool.on('connect', (client) => {
    open.add(client);
    client.once('end', () => open.delete(client));
  });
  return pool;
};

/**
 * Ends a pool and waits until each of its connections is closed, not only asked to close:
 * `pool.end()` settles as soon as every client is told to end, with their sockets still open. A
 * PostgreSQL stopped right then (the embedded one, at shutdown) terminates them "due to
 * administrator command", an error each connection's listeners report.
 */
export const closePool = async (pool: pg.Pool, timeoutMs = 10_000): Promise<void> => {
  const open = openConnections.get(pool);
  await pool.end();
  const closing = [...(open ?? [])].map((client) => new Promise<void>((resolve) => client.once('end', () => resolve())));
  if (!closing.length) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(closing), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs).unref()))]);
  clearTimeout(timer);
};

export const withTransaction = async <T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
};

export const databaseUrlWithName = (url: string, database: string): string => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

/** Creates the database when it does not exist yet (connects to the server's maintenance db). */
export const ensureDatabase = async (serverUrl: string, database: string): Promise<void> => {
  const client = new pg.Client({ connectionString: databaseUrlWithName(serverUrl, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) await client.query(`create database "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
};

export const dropDatabase = async (serverUrl: string, database: string): Promise<void> => {
  const client = new pg.Client({ connectionString: databaseUrlWithName(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(`drop database if exists "${database.replaceAll('"', '""')}" with (force)`);
  } finally {
    await client.end();
  }
};
