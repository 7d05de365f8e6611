import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@axel/platform';
import { AUDIT_PREVIOUS_KEYS_FILE, loadKeyring, parsePublicKeys, parseSigningKey } from '@axel/platform/audit/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { loadConfig } from '../../config';
import { createLogger } from '../../logger';
import { accountHelpers } from '../../testing/accounts';
import { startTestApp, TestClock, type TestApp } from '../../testing/harness';
import { runProductCli } from '../../../../test/product-process';
import { sealAll, verifyChain } from './audit.chain-store';

const cli = (args: string[], env: Record<string, string> = {}) => runProductCli('api/src/cli/audit.ts', args, { AUDIT_SIGNING_KEY: '', ...env });

const ADMIN = { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' };

/** The first run of the product, then the same database and DATA_DIR started again after the key was rotated. */
let first: TestApp;
let t: TestApp;
let dataDir: string;
const { signUpConfirmed, signIn } = accountHelpers(() => t);
const keyIds = async () =>
  (await t.app.ctx.pool.query<{ key_id: string }>('select key_id from audit_checkpoints order by upto_position')).rows.map((r) => r.key_id);

beforeAll(async () => {
  first = await startTestApp({ env: ADMIN });
  t = first;
  dataDir = first.app.ctx.config.dataDir;
  await signUpConfirmed();
}, 60_000);
afterAll(async () => {
  if (t && t !== first) {
    await t.app.stop();
    await first.db.drop();
  } else await first?.stop();
});

describe('rotating the audit signing key', () => {
  let oldKeyId: string;
  let newKeyId: string;

  it('npm run audit -- rotate-key puts a new key in DATA_DIR and keeps the old public key; the restarted product signs with the new one', async () => {
    const before = loadKeyring(undefined, undefined, dataDir);
    oldKeyId = before.signing.keyId;
    await sealAll(first.app.ctx.pool, before.signing);
    await first.app.stop();

    const rotated = await cli(['rotate-key'], { DATABASE_URL: first.db.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(rotated.code, rotated.stderr).toBe(0);
    const after = loadKeyring(undefined, undefined, dataDir);
    newKeyId = after.signing.keyId;
    expect(newKeyId).not.toBe(oldKeyId);
    expect(rotated.stdout).toContain(newKeyId);
    expect(after.keys.map((k) => k.keyId)).toEqual([newKeyId, oldKeyId]);
    expect(fs.statSync(path.join(dataDir, 'audit-signing.key')).mode & 0o777).toBe(0o600);

    // the same database and DATA_DIR, started again
    const port = await freePort();
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      HOST: '127.0.0.1',
      DATABASE_URL: first.db.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...ADMIN,
    });
    const app = await createApp({ config, log: createLogger('silent'), serveUi: false });
    const { url } = await app.start();
    t = { app, url: url!.replace('0.0.0.0', '127.0.0.1'), db: first.db, clock: new TestClock(), stop: () => app.stop() };
    await signUpConfirmed();
    await sealAll(t.app.ctx.pool, after.signing);
    const ids = await keyIds();
    expect(ids[0]).toBe(oldKeyId);
    expect(ids.at(-1)).toBe(newKeyId);
  }, 90_000);

  it('verify accepts checkpoints of every listed key, and only of listed keys', async () => {
    const root = (await signIn('root@axel.test', 'Root-pass-123')).http;
    const head = (await t.app.ctx.pool.query<{ p: number }>('select max(upto_position) as p from audit_checkpoints')).rows[0]!.p;
    const res = await root.get('/api/admin/audit/verify');
    expect(res.status).toBe(200);
    // the running sealer may have sealed more since
    expect(res.body).toMatchObject({ ok: true, firstMismatch: null });
    expect(res.body.checkedUpTo).toBeGreaterThanOrEqual(Number(head));
    // without the retired key, its first checkpoint can no longer be trusted
    const current = loadKeyring(undefined, undefined, dataDir).signing;
    const firstOld = (await t.app.ctx.pool.query<{ p: number }>('select min(upto_position) as p from audit_checkpoints where key_id = $1', [oldKeyId])).rows[0]!
      .p;
    expect(await verifyChain(t.app.ctx.pool, current)).toMatchObject({ ok: false, firstMismatch: Number(firstOld), reason: 'checkpoint' });

    const cliVerify = await cli(['verify'], { DATABASE_URL: t.db.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(cliVerify.code, cliVerify.stderr).toBe(0);
  }, 60_000);

  it('/.well-known/audit-key serves the current key, every key with its id, and the list as JSON', async () => {
    const pem = await fetch(`${t.url}/.well-known/audit-key`);
    expect(pem.headers.get('x-audit-key-id')).toBe(newKeyId);
    expect(parsePublicKeys(await pem.text()).map((k) => k.keyId)).toEqual([newKeyId]);

    const all = await (await fetch(`${t.url}/.well-known/audit-key?keys=all`)).text();
    expect(all).toContain(`Key id: ${newKeyId} (current)`);
    expect(all).toContain(`Key id: ${oldKeyId} (previous)`);
    expect(parsePublicKeys(all).map((k) => k.keyId)).toEqual([newKeyId, oldKeyId]);

    const json = await (await fetch(`${t.url}/.well-known/audit-key`, { headers: { accept: 'application/json' } })).json();
    expect(json).toMatchObject({
      current: newKeyId,
      keys: [
        { keyId: newKeyId, current: true },
        { keyId: oldKeyId, current: false },
      ],
    });
    expect(parsePublicKeys(JSON.stringify(json)).map((k) => k.keyId)).toEqual([newKeyId, oldKeyId]);

    expect((await fetch(`${t.url}/.well-known/audit-key?keys=some`)).status).toBe(400);
  });

  it('an export across the rotation verifies offline with the listed keys, not with the current key alone', async () => {
    const root = (await signIn('root@axel.test', 'Root-pass-123')).http;
    const res = await root.request('GET', '/api/admin/audit/export');
    expect(res.status).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'axel-audit-keys-'));
    const file = path.join(dir, 'export.jsonl');
    fs.writeFileSync(file, res.body as string);
    const keyring = path.join(dir, 'audit-keys.pem');
    fs.writeFileSync(keyring, await (await fetch(`${t.url}/.well-known/audit-key?keys=all`)).text());
    const currentOnly = path.join(dir, 'audit-key.pem');
    fs.writeFileSync(currentOnly, await (await fetch(`${t.url}/.well-known/audit-key`)).text());

    const intact = await cli(['verify-offline', file, '--key', keyring]);
    expect(intact.code, intact.stderr).toBe(0);
    expect(intact.stdout).toContain(`signed by key ${oldKeyId} and ${newKeyId}`);
    const selfDeclared = await cli(['verify-offline', file]);
    expect(selfDeclared.code, selfDeclared.stderr).toBe(0);
    const refused = await cli(['verify-offline', file, '--key', currentOnly]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`signed by key ${oldKeyId}, not by ${newKeyId}`);
  }, 60_000);

  it('with AUDIT_SIGNING_KEY set, rotate-key leaves the keys alone and says how; AUDIT_PREVIOUS_KEYS lists the keys it replaced', async () => {
    const seed = randomBytes(32).toString('hex');
    const keyFile = fs.readFileSync(path.join(dataDir, 'audit-signing.key'), 'utf8');
    const refused = await cli(['rotate-key'], { DATABASE_URL: t.db.url, DATA_DIR: dataDir, AUDIT_SIGNING_KEY: seed, LOG_LEVEL: 'silent' });
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('AUDIT_PREVIOUS_KEYS');
    expect(fs.readFileSync(path.join(dataDir, 'audit-signing.key'), 'utf8')).toBe(keyFile);

    const configured = parseSigningKey(seed);
    const retiredPems = fs.readFileSync(path.join(dataDir, AUDIT_PREVIOUS_KEYS_FILE), 'utf8');
    const embeddedCurrent = loadKeyring(undefined, undefined, dataDir).signing;
    const ring = loadKeyring(seed, `${embeddedCurrent.publicKeyPem}${retiredPems}`, dataDir);
    expect(ring.keys.map((k) => k.keyId)).toEqual([configured.keyId, newKeyId, oldKeyId]);
    expect(await verifyChain(t.app.ctx.pool, ring.keys)).toMatchObject({ ok: true });
    expect(() => loadConfig({ AUDIT_PREVIOUS_KEYS: 'not a key' })).toThrow(/AUDIT_PREVIOUS_KEYS/);
  }, 60_000);
});
