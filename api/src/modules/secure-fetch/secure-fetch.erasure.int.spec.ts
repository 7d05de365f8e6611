import { randomBytes } from 'node:crypto';
import { ERASED } from '@axel/domain';
import { EmbeddedProcessRuntime } from '@axel/workflows';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, useTestApp } from '../../testing/harness';

const t = useTestApp({ env: { ACCOUNT_RETENTION_DAYS: '30' } });
const helpers = accountHelpers(t);
const TUS = { 'tus-resumable': '1.0.0' };

const runtime = () => {
  const rt = t().app.ctx.processes();
  if (!(rt instanceof EmbeddedProcessRuntime)) throw new Error('expected the embedded runtime');
  return rt;
};

describe("a purged owner's Secure Fetch links", () => {
  it('are forgotten: the note, file names and metadata read as erased in the log, and the rows are gone', async () => {
    const tag = randomBytes(4).toString('hex');
    const { email, id } = await helpers.signUpConfirmed();
    const { http } = await helpers.signIn(email);
    const link = (await http.post(`/api/users/${id}/secure-fetches/`, { note: `Note ${tag}`, includeMetadata: true, certificate: true })).body;
    const visitor = new HttpClient(t().url);
    const data = Buffer.from(`contents ${tag}`);
    const created = await visitor.request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': String(data.length),
      'upload-metadata': `secureFetchId ${Buffer.from(link.linkId).toString('base64')}`,
    });
    const location = created.headers.get('location')!;
    await visitor.request('PATCH', location, new Uint8Array(data), { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' });
    const sent = await visitor.post(`/api/shares/${link.linkId}/`, {
      file: { name: `report-${tag}.txt`, uploadId: location.split('/').pop(), size: data.length, mime: 'text/plain' },
      metadata: { author: `Author ${tag}` },
    });
    expect(sent.status).toBe(201);
    expect((await t().app.ctx.pool.query('select 1 from secure_fetches where id = $1', [link.id])).rowCount).toBe(1);

    expect((await http.delete(`/api/users/${id}/`, { confirmation: 'YES', password: helpers.PASSWORD })).status).toBe(204);
    // every process has seen the events (and set its timers) before the time passes
    await runtime().whenIdle();
    t().clock.advance(31 * 86_400_000);
    await runtime().fireDueTimers();
    await runtime().whenIdle();
    expect(await t().app.ctx.runner.waitFor(await t().app.ctx.store.headPosition(), { timeoutMs: 10_000 })).toBe(true);

    const { events } = await t().app.ctx.store.readStream(`secure-fetch-${link.id}`);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['SecureFetchCreated', 'SecureFetchSubmitted', 'SecureFetchForgotten']));
    expect(events.find((e) => e.type === 'SecureFetchCreated')!.data).toMatchObject({ note: ERASED, linkId: link.linkId });
    expect(events.find((e) => e.type === 'SecureFetchSubmitted')!.data).toMatchObject({ files: [], metadata: null });
    expect((await t().app.ctx.pool.query('select 1 from secure_fetches where owner_id = $1', [id])).rowCount).toBe(0);
    const { rows } = await t().app.ctx.pool.query<{ r: string }>(`select string_agg(t::text, ' ') as r from es_events t`);
    expect(rows[0]!.r).not.toContain(tag);
  });
});
