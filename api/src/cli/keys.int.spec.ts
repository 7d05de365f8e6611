import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileKeys, loadMasterKeys, masterKeyId } from '@axel/platform/blobs/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

const run = (args: string[], env: Record<string, string>) =>
  new Promise<{ code: number; out: string }>((resolve) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', 'api/src/cli/keys.ts', ...args],
      { cwd: path.resolve(__dirname, '../../..'), env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    ),
  );

describe('npm run keys -- rotate', () => {
  it('re-wraps every file key under a newly generated master key and forgets the old one', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'axel-keys-cli-'));
    const env = { DATABASE_URL: db.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    // the first run creates the tables and the generated master key
    expect((await run(['status'], env)).code).toBe(0);
    const oldRing = loadMasterKeys({ dataDir });
    const keys = new FileKeys(db.pool, oldRing);
    const made = await Promise.all([keys.create(), keys.create()]);

    const rotated = await run(['rotate'], env);
    expect(rotated.code, rotated.out).toBe(0);
    const newRing = loadMasterKeys({ dataDir });
    expect(newRing.currentId).not.toBe(oldRing.currentId);
    expect(newRing.ids()).toEqual([newRing.currentId]);
    expect(masterKeyId(Buffer.from(readFileSync(path.join(dataDir, 'master.key'), 'utf8').trim(), 'hex'))).toBe(newRing.currentId);
    const after = new FileKeys(db.pool, newRing);
    for (const { keyId, key } of made) expect((await after.get(keyId)).equals(key)).toBe(true);
  }, 120_000);
});
