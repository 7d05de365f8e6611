import { storeFile } from '../../testing/files';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { startTestApp, type TestApp } from '../../testing/harness';
import { storageFileManifests } from './storage.module';
import { storagePlacements, storageQuotaGate } from './storage.quota-gate';
import { createBytePipeline, type BytePipeline } from './uploads';

/* Uploads kept in the account's region (two EU shard folders configured), and the residency report. */

const regionsRoot = mkdtempSync(path.join(os.tmpdir(), 'axel-regions-'));
const EU = [path.join(regionsRoot, 'eu-a'), path.join(regionsRoot, 'eu-b')];
let t: TestApp;
let pipeline: BytePipeline;
beforeAll(async () => {
  t = await startTestApp({ env: { BLOB_REGIONS: `eu=${EU.join(',')}`, ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123' } });
  // the worker's pipeline over the same folders, with every file's manifest for its scrub
  pipeline = createBytePipeline(t.app.ctx, {
    quota: storageQuotaGate(t.app.ctx),
    placements: storagePlacements(t.app.ctx),
    fileManifests: () => storageFileManifests(t.app.ctx),
  });
});
afterAll(async () => {
  await pipeline?.close();
  await t?.stop();
  rmSync(regionsRoot, { recursive: true, force: true });
});

const { signUpConfirmed, signIn, signedInUser } = accountHelpers(() => t);

/** Every chunk file under a folder (shards keep them in sub-folders by the CID's last two letters). */
const chunksIn = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .flatMap((d) => readdirSync(path.join(dir, d.name)).filter((n) => n.startsWith('b')))
    : [];
const homeShards = () => readdirSync(path.join(t.app.ctx.config.dataDir, 'blobs')).map((n) => path.join(t.app.ctx.config.dataDir, 'blobs', n));

describe('uploads kept in the account region', () => {
  it('puts an EU account’s new chunks on the EU folders only, keeps earlier files where they were, and reports both', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const storageId = (await http.get(`/api/users/${id}/storages/`)).body.data[0].id as string;
    const before = randomBytes(300_000);
    const beforeId = await storeFile(http, id, storageId, 'before.bin', before);

    expect((await http.put(`/api/users/${id}/region`, { region: 'eu' })).status).toBe(200);
    const content = randomBytes(2 * 1024 * 1024 + 77).toString('base64url');
    const afterId = await storeFile(http, id, storageId, 'after.txt', Buffer.from(content));

    // the creation events record the region each file was put in
    const { events } = await t.app.ctx.store.readStream(`storage-${storageId}`);
    const added = events.filter((e) => e.type === 'FileAdded').map((e) => (e.data as { itemId: string; manifest: { region?: string } }).manifest.region);
    expect(added).toEqual(['us', 'eu']);

    const report = await http.get(`/api/users/${id}/residency/`);
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body).toMatchObject({ region: 'eu', appliesTo: 'new-uploads', regionsConfigured: true, totalCount: 2 });
    const after = report.body.data.find((f: { id: string }) => f.id === afterId);
    const earlier = report.body.data.find((f: { id: string }) => f.id === beforeId);
    expect(after).toMatchObject({ name: 'after.txt', region: 'eu' });
    expect(after.chunks).toHaveLength(3);
    const euChunks = after.chunks.map((c: { cid: string }) => c.cid) as string[];
    // every chunk on both EU folders (two replicas), and on none of the home shards
    for (const chunk of after.chunks)
      expect(chunk.shards).toEqual([
        { shard: 'eu-a', region: 'eu' },
        { shard: 'eu-b', region: 'eu' },
      ]);
    for (const dir of EU) expect(chunksIn(dir)).toEqual(expect.arrayContaining(euChunks));
    for (const dir of homeShards()) for (const cid of euChunks) expect(chunksIn(dir)).not.toContain(cid);
    // the file from before the change stays on the home shards with the region it was stored in
    expect(earlier).toMatchObject({ name: 'before.bin', region: 'us' });
    for (const chunk of earlier.chunks as { shards: { region: string | null }[] }[]) {
      expect(chunk.shards.length).toBe(2);
      expect(chunk.shards.every((s) => s.region === null)).toBe(true);
    }
    expect(report.body.totals).toEqual([
      { region: 'eu', keptIn: 'eu', files: 1, chunks: 3, bytes: content.length },
      { region: 'us', keptIn: null, files: 1, chunks: 1, bytes: before.length },
    ]);

    // read back from the EU folders byte for byte
    expect((await http.get(`/api/users/${id}/storages/${storageId}/files/${afterId}/sources/`)).body).toBe(content);

    // a lost EU replica is repaired by the scrub on an EU folder, never on a home shard
    const lost = euChunks[0]!;
    rmSync(path.join(EU[0]!, lost.slice(-2), lost));
    const scrubbed = await pipeline.scrub();
    expect(scrubbed.repaired).toBeGreaterThanOrEqual(1);
    expect(chunksIn(EU[0]!)).toContain(lost);
    for (const dir of homeShards()) expect(chunksIn(dir)).not.toContain(lost);
  });

  it('is read by staff; another account is refused both reports', async () => {
    const owner = await signedInUser();
    const staff = (await signIn('root@axel.test', 'Root-pass-123')).http;
    const read = await staff.get(`/api/admin/users/${owner.id}/residency/`);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body).toMatchObject({ region: 'automatic', effectiveRegion: 'us', totalCount: 0, data: [] });
    expect(read.body.shardSets).toContainEqual({ region: 'eu', shards: ['eu-a', 'eu-b'] });
    expect((await staff.get('/api/admin/users/nobody/residency/')).status).toBe(404);

    const stranger = await signedInUser();
    expect((await stranger.http.get(`/api/users/${owner.id}/residency/`)).status).toBe(403);
    expect((await stranger.http.get(`/api/admin/users/${owner.id}/residency/`)).status).toBe(403);
  });
});
