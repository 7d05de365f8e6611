import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { decryptChunk, encryptChunk } from './chunks';
import {
  FileKeyDestroyedError,
  FileKeys,
  fileKeyMigrations,
  forgetRetiredMasterKeys,
  loadMasterKeys,
  MasterKeyRing,
  masterKeyId,
  replaceGeneratedMasterKey,
} from './keys';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase(fileKeyMigrations);
});
afterAll(async () => db?.drop());

describe('file keys', () => {
  it('rotation re-wraps every data key under the new master key; chunks written before still decrypt', async () => {
    const oldMaster = randomBytes(32);
    const newMaster = randomBytes(32);
    const before = new FileKeys(db.pool, new MasterKeyRing(oldMaster));
    const created = await Promise.all(Array.from({ length: 5 }, () => before.create()));
    const chunks = created.map(({ keyId, key }) => ({ keyId, sealed: encryptChunk(key, keyId, 0, Buffer.from(`file ${keyId}`), true) }));

    const rotating = new FileKeys(db.pool, new MasterKeyRing(newMaster, [oldMaster]));
    expect((await rotating.rotate()).rewrapped).toBeGreaterThanOrEqual(5);
    expect(await rotating.masterKeysInUse()).toEqual([masterKeyId(newMaster)]);

    // the old master key is gone for good: the new one alone reads every chunk
    const after = new FileKeys(db.pool, new MasterKeyRing(newMaster));
    for (const { keyId, sealed } of chunks) {
      expect(decryptChunk(await after.get(keyId), keyId, 0, sealed, `file ${keyId}`.length).toString()).toBe(`file ${keyId}`);
    }
    // and the old one alone reads none
    await expect(new FileKeys(db.pool, new MasterKeyRing(oldMaster)).get(created[0]!.keyId)).rejects.toThrow(/not available/);
  });

  it('a destroyed key can never be read again', async () => {
    const keys = new FileKeys(db.pool, new MasterKeyRing(randomBytes(32)));
    const { keyId } = await keys.create();
    await keys.destroy(keyId);
    await expect(keys.get(keyId)).rejects.toBeInstanceOf(FileKeyDestroyedError);
    const { rows } = await db.pool.query('select wrapped_key, destroyed_at from file_keys where key_id = $1', [keyId]);
    expect(rows[0].wrapped_key).toBeNull();
    expect(rows[0].destroyed_at).not.toBeNull();
  });

  it('the generated master key is created once, private, and a replaced one stays readable until forgotten', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'axel-master-'));
    const first = loadMasterKeys({ dataDir: dir });
    expect(loadMasterKeys({ dataDir: dir }).currentId).toBe(first.currentId);
    expect(statSync(path.join(dir, 'master.key')).mode & 0o777).toBe(0o600);
    replaceGeneratedMasterKey(dir);
    const ring = loadMasterKeys({ dataDir: dir });
    expect(ring.currentId).not.toBe(first.currentId);
    expect(ring.ids()).toContain(first.currentId);
    forgetRetiredMasterKeys(dir);
    expect(loadMasterKeys({ dataDir: dir }).ids()).toEqual([ring.currentId]);
    expect(existsSync(path.join(dir, 'master-keys.retired'))).toBe(false);
    expect(readFileSync(path.join(dir, 'master.key'), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
  });
});
