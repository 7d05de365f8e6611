import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { context, generateKey, keyFingerprint, unwrapKey, wrapKey } from '../crypto';
import { newId } from '../ids';
import type { Migration } from '../postgres/migrations';
import type { Pool } from '../postgres/pool';

export const fileKeyMigrations: Migration[] = [
  {
    id: 'platform-blobs-001-file-keys',
    sql: `
      create table file_keys (
        key_id text primary key,
        master_key_id text not null,
        -- null once destroyed: the chunks it encrypted can never be read again
        wrapped_key bytea,
        created_at timestamptz not null default now(),
        destroyed_at timestamptz
      );
      create index file_keys_master on file_keys (master_key_id) where wrapped_key is not null;
    `,
  },
];

export const masterKeyId = (key: Buffer) => keyFingerprint('axel-master-key-id', key);

/** The master keys this process knows: the current one wraps, any of them unwraps (until rotation retires them). */
export class MasterKeyRing {
  readonly currentId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    if (current.length !== 32) throw new Error('a master key is 32 bytes');
    this.currentId = masterKeyId(current);
    this.keys.set(this.currentId, current);
    for (const key of previous) if (key.length === 32) this.keys.set(masterKeyId(key), key);
  }

  get current() {
    return this.keys.get(this.currentId)!;
  }
  key(id: string): Buffer {
    const key = this.keys.get(id);
    if (!key) throw new Error(`master key ${id} is not available`);
    return key;
  }
  ids() {
    return [...this.keys.keys()];
  }
}

const RETIRED_DIR = 'master-keys.retired';

/**
 * MASTER_KEY (64 hex) when given; otherwise `DATA_DIR/master.key`, generated once (mode 0600).
 * Keys retired by a rotation that has not finished yet stay readable from `DATA_DIR/master-keys.retired/`.
 */
export const loadMasterKeys = (options: { masterKeyHex?: string; previousHex?: readonly string[]; dataDir: string }): MasterKeyRing => {
  const retiredDir = path.join(options.dataDir, RETIRED_DIR);
  const previous = (options.previousHex ?? []).map((h) => Buffer.from(h, 'hex'));
  if (existsSync(retiredDir)) {
    for (const name of readdirSync(retiredDir)) previous.push(Buffer.from(readFileSync(path.join(retiredDir, name), 'utf8').trim(), 'hex'));
  }
  if (options.masterKeyHex) return new MasterKeyRing(Buffer.from(options.masterKeyHex, 'hex'), previous);
  const file = path.join(options.dataDir, 'master.key');
  if (!existsSync(file)) {
    mkdirSync(options.dataDir, { recursive: true });
    try {
      writeFileSync(file, `${generateKey().toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return new MasterKeyRing(Buffer.from(readFileSync(file, 'utf8').trim(), 'hex'), previous);
};

/**
 * Replaces the generated `DATA_DIR/master.key` with a new key, keeping the old one under
 * `master-keys.retired/` until every data key is re-wrapped (then `forgetRetiredMasterKeys`).
 */
export const replaceGeneratedMasterKey = (dataDir: string): void => {
  const file = path.join(dataDir, 'master.key');
  const old = readFileSync(file, 'utf8').trim();
  const retiredDir = path.join(dataDir, RETIRED_DIR);
  mkdirSync(retiredDir, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(retiredDir, `${masterKeyId(Buffer.from(old, 'hex'))}.key`), `${old}\n`, { mode: 0o600 });
  const next = `${file}.next`;
  writeFileSync(next, `${generateKey().toString('hex')}\n`, { mode: 0o600 });
  renameSync(next, file);
};

export const forgetRetiredMasterKeys = (dataDir: string) => rmSync(path.join(dataDir, RETIRED_DIR), { recursive: true, force: true });

const wrapAad = (keyId: string, masterId: string) => context('axel-file-key', keyId, masterId);

export class FileKeyDestroyedError extends Error {
  constructor(readonly keyId: string) {
    super(`file key ${keyId} was destroyed`);
    this.name = 'FileKeyDestroyedError';
  }
}

/** Per-file data keys, stored wrapped by a master key (envelope encryption) in `file_keys`. */
export class FileKeys {
  private readonly cache = new Map<string, Buffer>();

  constructor(
    private readonly pool: Pool,
    public ring: MasterKeyRing,
    /** Reads the master keys again (a rotation by another process introduced one this process has not seen). */
    private readonly reload?: () => MasterKeyRing,
  ) {}

  private wrap(keyId: string, key: Buffer) {
    return wrapKey(this.ring.current, key, wrapAad(keyId, this.ring.currentId));
  }

  private unwrap(keyId: string, masterId: string, wrapped: Buffer) {
    if (!this.ring.ids().includes(masterId) && this.reload) this.ring = this.reload();
    return unwrapKey(this.ring.key(masterId), wrapped, wrapAad(keyId, masterId));
  }

  private remember(keyId: string, key: Buffer) {
    if (this.cache.size >= 1024) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(keyId, key);
  }

  async create(): Promise<{ keyId: string; key: Buffer }> {
    const keyId = newId();
    const key = generateKey();
    await this.pool.query('insert into file_keys (key_id, master_key_id, wrapped_key) values ($1, $2, $3)', [
      keyId,
      this.ring.currentId,
      this.wrap(keyId, key),
    ]);
    this.remember(keyId, key);
    return { keyId, key };
  }

  async get(keyId: string): Promise<Buffer> {
    const cached = this.cache.get(keyId);
    if (cached) return cached;
    const { rows } = await this.pool.query<{ master_key_id: string; wrapped_key: Buffer | null }>(
      'select master_key_id, wrapped_key from file_keys where key_id = $1',
      [keyId],
    );
    const row = rows[0];
    if (!row?.wrapped_key) throw new FileKeyDestroyedError(keyId);
    const key = this.unwrap(keyId, row.master_key_id, row.wrapped_key);
    this.remember(keyId, key);
    return key;
  }

  /** Crypto-erasure: without its key, a file's chunks are noise wherever copies of them remain. */
  async destroy(keyId: string): Promise<void> {
    this.cache.delete(keyId);
    await this.pool.query('update file_keys set wrapped_key = null, destroyed_at = coalesce(destroyed_at, now()) where key_id = $1', [keyId]);
  }

  /** Re-wraps every data key not under the current master key; chunks are not touched. */
  async rotate(onProgress?: (done: number) => void): Promise<{ rewrapped: number }> {
    let rewrapped = 0;
    for (;;) {
      const { rows } = await this.pool.query<{ key_id: string; master_key_id: string; wrapped_key: Buffer }>(
        `select key_id, master_key_id, wrapped_key from file_keys
          where wrapped_key is not null and master_key_id <> $1 order by key_id limit 500`,
        [this.ring.currentId],
      );
      if (!rows.length) return { rewrapped };
      for (const row of rows) {
        const key = this.unwrap(row.key_id, row.master_key_id, row.wrapped_key);
        await this.pool.query(
          'update file_keys set master_key_id = $2, wrapped_key = $3 where key_id = $1 and master_key_id = $4 and wrapped_key is not null',
          [row.key_id, this.ring.currentId, this.wrap(row.key_id, key), row.master_key_id],
        );
        rewrapped++;
      }
      onProgress?.(rewrapped);
    }
  }

  /** Master key ids still wrapping some data key (a retired one may be forgotten once it is absent here). */
  async masterKeysInUse(): Promise<string[]> {
    const { rows } = await this.pool.query<{ master_key_id: string }>('select distinct master_key_id from file_keys where wrapped_key is not null');
    return rows.map((r) => r.master_key_id);
  }
}
