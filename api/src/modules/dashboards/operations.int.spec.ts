import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_FILE } from '../../cli/grafana';
import { grafanaDashboardJson, metricNamesIn, PANELS } from '../../ops/grafana.dashboard';
import { HttpClient, useTestApp } from '../../testing/harness';
import { settled } from '../../testing/read-models';
import { shareAccessHelpers } from '../sharing/share-access.testing';

const ROOT = { email: 'root@ops.test', password: 'Root-pass-123' };
const METRICS_TOKEN = 'scrape-token-0123456789abcdef';

const t = useTestApp({
  env: {
    ADMIN_EMAIL: ROOT.email,
    ADMIN_PASSWORD: ROOT.password,
    RATE_LIMIT_FACTOR: '10',
    METRICS_TOKEN,
    GRAFANA_URL: 'https://grafana.example.org/d/axel-drive',
  },
});
const { owner, visitor, bytesOf, signIn, caughtUp } = shareAccessHelpers(t);

const root = async () => (await signIn(ROOT.email, ROOT.password)).http;

/** A staff member of a role, signed in. */
const staffMember = async (role: string) => {
  const email = `${role.replace('_', '-')}.${Date.now().toString(36)}@ops.test`;
  const created = await (await root()).post('/api/admin/users/', { email, password: 'Staff-pass-123', passwordConfirmation: 'Staff-pass-123', role });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { http, res } = await signIn(email, 'Staff-pass-123');
  expect(res.status).toBe(200);
  return { http, email, id: created.body.id as string };
};

/**
 * A populated product: an owner with a file shared, the share opened and the file downloaded by
 * a visitor, a second account given database access. Made once, read by every test below.
 */
let world: Promise<Awaited<ReturnType<typeof populate>>> | undefined;
const populate = async () => {
  const o = await owner();
  const content = Buffer.from('metrics and dashboards read this file');
  const doc = await o.file('report.txt', content);
  const s = await o.share({ itemIds: [doc] });
  const v = visitor();
  expect((await v.call(`/api/share-links/${s.shareLinkId}`)).status).toBe(200);
  const url = (await v.call(`/api/share-links/${s.shareLinkId}/entries/${doc}?q=download-url`)).body.url as string;
  const downloaded = await bytesOf(url);
  expect(downloaded.body.equals(content)).toBe(true);
  await settled(t());
  return { owner: o, share: s, doc };
};
const populated = () => (world ??= populate());

const scrape = (headers: Record<string, string> = {}) => fetch(`${t().url}/metrics`, { headers });

/** Every sample of the exposition: its metric name, its labels, its value. */
const samplesOf = (text: string) =>
  text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
      return { name: m[1]!, labels, value: Number(m[4]) };
    });

describe('Databases: DBS access', () => {
  it('staff with the ddbaas feature activate and cancel it, audited; the user info and the Databases list follow', async () => {
    const { owner: o } = await populated();
    const financial = await staffMember('financial_admin');
    const admin = await staffMember('admin');

    const refused = await admin.http.post(`/api/admin/users/${o.id}/dbs-access`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN', data: { feature: 'ddbaas' } });
    expect((await o.http.get(`/api/users/${o.id}/`)).body.hasDbsAccess).toBe(false);

    const activated = await financial.http.post(`/api/admin/users/${o.id}/dbs-access`);
    expect(activated.status, JSON.stringify(activated.body)).toBe(200);
    expect(activated.body).toMatchObject({ id: o.id, hasDbsAccess: true });
    expect((await o.http.get(`/api/users/${o.id}/`)).body.hasDbsAccess).toBe(true);
    expect((await admin.http.get(`/api/admin/users/${o.id}`)).body.hasDbsAccess).toBe(true);
    // repeated: nothing more happens
    expect((await financial.http.post(`/api/admin/users/${o.id}/dbs-access`)).status).toBe(200);

    const list = await admin.http.get('/api/admin/databases/?sort=["activatedAt","DESC"]&range=[0,9]');
    expect(list.status).toBe(200);
    expect(list.headers.get('content-range')).toBe('databases 0-0/1');
    expect(list.body).toEqual([expect.objectContaining({ id: o.id, email: o.email, activatedBy: financial.id, activatedByEmail: financial.email })]);

    const activity = await admin.http.get(`/api/admin/users/${o.id}/activity?range=[0,49]`);
    const entries = (activity.body as { event: string; actorEmail: string | null; actorKind: string }[]).filter((e) => e.event.startsWith('DbsAccess'));
    expect(entries).toEqual([expect.objectContaining({ event: 'DbsAccessActivated', actorEmail: financial.email, actorKind: 'staff' })]);

    expect((await admin.http.delete(`/api/admin/users/${o.id}/dbs-access`)).status).toBe(403);
    const cancelled = await financial.http.delete(`/api/admin/users/${o.id}/dbs-access`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.hasDbsAccess).toBe(false);
    expect((await o.http.get(`/api/users/${o.id}/`)).body.hasDbsAccess).toBe(false);
    expect((await admin.http.get('/api/admin/databases/')).body).toEqual([]);
    const after = await admin.http.get(`/api/admin/users/${o.id}/activity?range=[0,49]`);
    expect((after.body as { event: string }[]).filter((e) => e.event.startsWith('DbsAccess')).map((e) => e.event)).toEqual([
      'DbsAccessCancelled',
      'DbsAccessActivated',
    ]);

    // the user cannot see the section nor act on it
    expect((await o.http.get('/api/admin/databases/')).status).toBe(403);
    expect((await o.http.post(`/api/admin/users/${o.id}/dbs-access`)).status).toBe(403);
  });
});

describe('dashboards', () => {
  it('website hosting and Drive Connect answer staff from the read models, and no one else', async () => {
    const { owner: o } = await populated();
    const staff = await root();
    // database access for one account, so the Connect figure counts it
    expect((await staff.post(`/api/admin/users/${o.id}/dbs-access`)).status).toBe(200);

    const hosting = await staff.get('/api/admin/axel-website-hosting/dashboard/');
    expect(hosting.status, JSON.stringify(hosting.body)).toBe(200);
    expect(hosting.body.shares.active).toBeGreaterThanOrEqual(1);
    expect(hosting.body.shares.bytesShared).toBeGreaterThan(0);
    expect(hosting.body.access.opens).toBeGreaterThanOrEqual(1);
    expect(hosting.body.access.downloads).toBeGreaterThanOrEqual(1);
    expect(hosting.body.sharesByMonth.at(-1).created).toBeGreaterThanOrEqual(1);
    expect(hosting.body.topOwners).toContainEqual(expect.objectContaining({ userId: o.id, email: o.email, shares: 1 }));

    const connect = await staff.get('/api/admin/axel-drive-connect/dashboard/');
    expect(connect.status, JSON.stringify(connect.body)).toBe(200);
    expect(connect.body.storagesByType).toContainEqual(expect.objectContaining({ type: 'online' }));
    const online = connect.body.storagesByType.find((s: { type: string }) => s.type === 'online');
    expect(online.usedBytes).toBeGreaterThan(0);
    expect(connect.body.accountsByApp).toContainEqual(expect.objectContaining({ app: 'web' }));
    expect(connect.body.signIns.day).toBeGreaterThanOrEqual(2);
    expect(connect.body.dbsAccess).toBe(1);
    expect(connect.body.cloudLockers).toBe(0);

    // the drill-down of "accounts by sign-up app": the users list filtered the same way
    const web = connect.body.accountsByApp.find((a: { app: string }) => a.app === 'web').count as number;
    const list = await staff.get(`/api/admin/users/?filter=${encodeURIComponent(JSON.stringify({ registrationApp: 'web' }))}&range=[0,0]`);
    expect(list.headers.get('content-range')).toMatch(new RegExp(`/${web}$`));

    for (const path of ['/api/admin/axel-website-hosting/dashboard/', '/api/admin/axel-drive-connect/dashboard/', '/api/admin/grafana/']) {
      expect((await o.http.get(path)).status).toBe(403);
      expect((await new HttpClient(t().url).get(path)).status).toBe(401);
    }
    expect((await staff.get('/api/admin/grafana/')).body).toEqual({ url: 'https://grafana.example.org/d/axel-drive' });
  });
});

describe('/metrics', () => {
  it('answers Prometheus text on the loopback, elsewhere only with the token, and no label carries an id, an e-mail or a token', async () => {
    const { owner: o, share, doc } = await populated();
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    const samples = samplesOf(text);
    const value = (name: string, labels: Record<string, string> = {}) =>
      samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);

    expect(value('http_requests_total', { route: '/api/share-links/:linkId', method: 'GET' })).toBeGreaterThanOrEqual(1);
    expect(value('http_request_duration_seconds_count')).toBeGreaterThan(0);
    expect(value('http_request_errors_total', { kind: 'client' })).toBeGreaterThan(0);
    expect(value('axel_transfer_bytes_total', { direction: 'upload' })).toBeGreaterThanOrEqual(37);
    expect(value('axel_transfer_bytes_total', { direction: 'download' })).toBeGreaterThanOrEqual(37);
    expect(value('axel_eventstore_appends_total', { outcome: 'ok' })).toBeGreaterThan(0);
    expect(value('axel_eventstore_append_duration_seconds_count')).toBeGreaterThan(0);
    expect(value('axel_eventstore_head_position')).toBe(await t().app.ctx.store.headPosition());
    expect(samples.some((s) => s.name === 'axel_projection_lag_seconds' && s.labels.projection === 'users')).toBe(true);
    expect(value('axel_mail_outbox', { status: 'delivered' })).toBeGreaterThan(0);
    for (const name of [
      'axel_process_runtime_queue_depth',
      'axel_process_runtime_timers_due',
      'axel_process_runtime_dead_letters',
      'axel_blob_replicas_missing',
      'axel_audit_sealing_lag_events',
    ]) {
      expect(
        samples.some((s) => s.name === name),
        name,
      ).toBe(true);
    }
    expect(text).toContain('# TYPE axel_wallet_ledger_calls_total counter');

    // no label value is an id, an address or a secret
    const secrets = [o.id, o.email, share.id, share.shareLinkId, doc, METRICS_TOKEN];
    for (const s of secrets) expect(text.includes(s), s).toBe(false);
    for (const sample of samples) {
      for (const v of Object.values(sample.labels)) {
        expect(v, `${sample.name} ${v}`).toMatch(/^[A-Za-z0-9_./:*+-]*$/);
        expect(v).not.toMatch(/@|[0-9a-f]{8}-[0-9a-f]{4}/);
        // a long run is a token only if it looks random (V8's heap space names are long lower-case words)
        for (const run of v.match(/[A-Za-z0-9_-]{21,}/g) ?? []) expect(/[0-9A-Z]/.test(run), `${sample.name} ${v}`).toBe(false);
        for (const segment of v.split(/[/.:+-]/)) if (segment.length >= 12) expect(/\d/.test(segment), `${sample.name} ${v}`).toBe(false);
      }
    }

    // from another machine (as a proxy names it): nothing without the token, the same text with it
    const remote = { 'x-forwarded-for': '203.0.113.7' };
    const hidden = await scrape(remote);
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await scrape({ ...remote, authorization: 'Bearer not-the-token-at-all' })).status).toBe(404);
    const allowed = await scrape({ ...remote, authorization: `Bearer ${METRICS_TOKEN}` });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('http_requests_total');
  });
});

describe('Grafana dashboard', () => {
  it('is the file the code generates; every PostgreSQL panel runs on the read models, every Prometheus panel reads metrics /metrics exports', async () => {
    await populated();
    await caughtUp();
    expect(readFileSync(DASHBOARD_FILE, 'utf8')).toBe(grafanaDashboardJson());

    const sqlPanels = PANELS.filter((p) => p.source === 'postgres');
    const promPanels = PANELS.filter((p) => p.source === 'prometheus');
    expect(sqlPanels.length).toBeGreaterThanOrEqual(8);
    expect(promPanels.length).toBeGreaterThanOrEqual(15);
    const rowsOf: Record<string, number> = {};
    for (const panel of sqlPanels) {
      const { rows } = await t().app.ctx.pool.query(panel.sql);
      rowsOf[panel.title] = rows.length;
    }
    // the populated tables answer rows
    for (const title of ['Accounts by status', 'Sign-ups per day', 'Storage by type', 'Shares by status', 'Mail by status', 'Projection checkpoints']) {
      expect(rowsOf[title], title).toBeGreaterThan(0);
    }

    const text = await (await scrape()).text();
    const exported = new Set(
      text.split('\n').flatMap((line) => (line.startsWith('# TYPE ') ? [line.split(' ')[2]!] : line && !line.startsWith('#') ? [line.split(/[{ ]/)[0]!] : [])),
    );
    const named = promPanels.flatMap((p) => p.queries.flatMap((q) => metricNamesIn(q.expr)));
    expect(named).toContain('http_request_duration_seconds_bucket');
    const missing = [...new Set(named)].filter((n) => !exported.has(n));
    expect(missing).toEqual([]);
  });
});
