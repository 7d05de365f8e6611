import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdAt } from '../../api/src/failpoints';
import { giveBackStaleClaims, STALE_CLAIM_MS } from '../../api/src/modules/secure-fetch/secure-fetch.claims';
import { accountHelpers } from '../../api/src/testing/accounts';
import { HttpClient, startTestApp, type TestApp } from '../../api/src/testing/harness';
import { createTestDatabase, type TestDatabase } from '../db';
import { dropAfterSecretScan } from '../scanned-drop';
import { exited, ProductProcess } from './product-process';

let db: TestDatabase;
let product: ProductProcess;
let t: TestApp | undefined;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'axel-fetch-claims-crash-'));
const TUS = { 'tus-resumable': '1.0.0' };
const MINUTE = 60_000;

beforeAll(async () => {
  db = await createTestDatabase();
  product = new ProductProcess({ databaseUrl: db.url, port: await freePort(), dataDir, env: { NODE_ENV: 'test', RATE_LIMIT_FACTOR: '10' } });
});
afterAll(async () => {
  await product?.kill();
  await t?.stop();
  await dropAfterSecretScan(db, product?.environment);
});

/** A new owner's link on the server at `url`, with `count` files sent through it (not yet submitted). */
const linkWithUploads = async (url: string, count: number) => {
  const helpers = accountHelpers(() => ({ url }) as TestApp);
  const { email, id } = await helpers.signUpConfirmed();
  const { http } = await helpers.signIn(email);
  const link = (await http.post(`/api/users/${id}/secure-fetches/`, { note: 'Send them', includeMetadata: false, certificate: false })).body;
  expect(link.linkId).toBeTruthy();
  const visitor = new HttpClient(url);
  const files = [];
  for (let i = 0; i < count; i++) {
    const data = Buffer.from(`file ${i} sent through the link`);
    const created = await visitor.request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': String(data.length),
      'upload-metadata': `secureFetchId ${Buffer.from(link.linkId).toString('base64')}`,
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const sent = await visitor.request('PATCH', location, new Uint8Array(data), {
      ...TUS,
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    });
    expect(sent.status).toBe(204);
    files.push({ uploadId: location.split('/').pop()!, name: `file-${i}.txt`, size: data.length, mime: 'text/plain' });
  }
  return { email, id, linkId: link.linkId as string, fetchId: link.id as string, files, visitor };
};

const uploadsOf = async (linkId: string) =>
  (
    await db.pool.query<{ id: string; status: string; claimed_at: Date | null }>(
      'select id, status, claimed_at from uploads where secure_fetch_link_id = $1 order by id',
      [linkId],
    )
  ).rows;

const uploadsLeftOf = async (userId: string) =>
  (await db.pool.query<{ n: number }>('select count(*)::int as n from uploads where user_id = $1', [userId])).rows[0]!.n;

describe('crash: the product killed between a submission claiming its uploads and recording it', () => {
  let killed: Awaited<ReturnType<typeof linkWithUploads>>;

  it('leaves the claims behind, with the time they were made', async () => {
    const first = await product.start({ AXEL_FAILPOINT: 'secure-fetch-submit:claimed' });
    killed = await linkWithUploads(product.url, 2);
    await killed.visitor.post(`/api/shares/${killed.linkId}/`, { files: killed.files }).catch(() => undefined);
    await exited(first);
    expect(first.signalCode).toBe('SIGKILL');
    const rows = await uploadsOf(killed.linkId);
    expect(rows.map((r) => r.status)).toEqual(['claimed', 'claimed']);
    for (const r of rows) expect(r.claimed_at).toBeInstanceOf(Date);
  }, 180_000);

  it('gives the claims back, with their reserved space, once they are older than the bound, and not before', async () => {
    // the product again, in this process (same database and DATA_DIR), with a clock the test moves
    t = await startTestApp({ database: db, env: { DATA_DIR: dataDir, RATE_LIMIT_FACTOR: '10' } });
    const bytes = t.app.files.bytes(t.app.ctx);
    const helpers = accountHelpers(() => t!);
    // signed in again each time: the clock moves past a session's idle time
    const storages = async () => {
      const { http } = await helpers.signIn(killed.email);
      return (await http.get(`/api/users/${killed.id}/storages/`)).body.data[0];
    };
    expect((await storages()).sizeReserved).toBeGreaterThan(0);

    t.clock.advance(STALE_CLAIM_MS - MINUTE);
    expect(await giveBackStaleClaims(t.app.ctx, bytes)).toBe(0);
    expect((await uploadsOf(killed.linkId)).map((r) => r.status)).toEqual(['claimed', 'claimed']);

    t.clock.advance(2 * MINUTE);
    expect(await giveBackStaleClaims(t.app.ctx, bytes)).toBe(2);
    expect(await uploadsOf(killed.linkId)).toEqual([]);
    expect(await uploadsLeftOf(killed.id)).toBe(0);
    expect((await storages()).sizeReserved).toBe(0);
    // the link was never used: it still takes a submission
    const { http } = await helpers.signIn(killed.email);
    const link = await http.get(`/api/users/${killed.id}/secure-fetches/${killed.fetchId}/`);
    expect(link.body.items).toEqual([]);
  }, 120_000);

  it('keeps the claims of a live submission however slow, which then completes', async () => {
    const live = await linkWithUploads(t!.url, 2);
    const bytes = t!.app.files.bytes(t!.app.ctx);
    let reached!: () => void;
    const atClaimed = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const stop = holdAt('secure-fetch-submit:claimed', async () => {
      reached();
      await released;
    });
    try {
      const submitted = live.visitor.post(`/api/shares/${live.linkId}/`, { files: live.files });
      await atClaimed;
      t!.clock.advance(3 * STALE_CLAIM_MS);
      expect(await giveBackStaleClaims(t!.app.ctx, bytes)).toBe(0);
      expect((await uploadsOf(live.linkId)).map((r) => r.status)).toEqual(['claimed', 'claimed']);
      release();
      const answer = await submitted;
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body.items).toHaveLength(2);
    } finally {
      release();
      stop();
    }
  }, 120_000);
});
