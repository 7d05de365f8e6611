import { randomUUID } from 'node:crypto';
import { ERASED } from '@axel/domain';
import { PersonalDataEventStore } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, startTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;
let auditor: HttpClient;
let admin: HttpClient;
let financial: HttpClient;
let rootId: string;
/** A user who changed their first name from Ada to Grace; `between` lies between the two changes. */
let ada: { http: HttpClient; email: string; id: string };
let between: string;
let other: { http: HttpClient; email: string; id: string };

const { uniqueEmail, signIn, signUpConfirmed, PASSWORD } = accountHelpers(() => t);

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks. */
const parseCsv = (text: string): string[][] => {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') record.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      (record = []), (field = ''), i++;
    } else field += c;
  }
  return records;
};

const staff = async (root: HttpClient, role: string) => {
  const email = uniqueEmail(role);
  expect((await root.post('/api/admin/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, role })).status).toBe(201);
  return (await signIn(email)).http;
};

const signedUp = async () => {
  const { email, id } = await signUpConfirmed();
  return { email, id, http: (await signIn(email)).http };
};

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });
  const root = (await signIn('root@axel.test', 'Root-pass-123')).http;
  rootId = (await root.get('/api/admin/me')).body.id;
  auditor = await staff(root, 'auditor');
  admin = await staff(root, 'admin');
  financial = await staff(root, 'financial_admin');
  ada = await signedUp();
  other = await signedUp();
  expect((await ada.http.put(`/api/users/${ada.id}/profile`, { firstName: 'Ada', city: 'Paris, "Rive Gauche"' })).status).toBe(200);
  t.clock.advance(60_000);
  between = t.clock.now().toISOString();
  t.clock.advance(60_000);
  expect((await ada.http.request('PUT', `/api/users/${ada.id}/profile`, { firstName: 'Grace' }, { 'x-client': 'cli, "v2"' })).status).toBe(200);
});
afterAll(async () => {
  await t?.stop();
});

type Row = {
  id: string;
  position: number;
  time: string;
  type: string;
  stream: string;
  aggregate: string | null;
  actor: { kind: string; id: string | null; email: string | null; label: string };
  ip: string | null;
  userAgent: string | null;
  client: string | null;
  correlationId: string | null;
  sentence: string;
  data: Record<string, unknown>;
};

const list = async (query: Record<string, unknown>, http = auditor) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) params.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  const res = await http.get<Row[]>(`/api/admin/activity?${params}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { rows: res.body, next: res.headers.get('x-activity-next'), range: res.headers.get('content-range') };
};

describe('who may read the activity log', () => {
  it('answers the auditor and the admins, refuses everyone else', async () => {
    expect((await new HttpClient(t.url).get('/api/admin/activity')).status).toBe(401);
    expect((await ada.http.get('/api/admin/activity')).status).toBe(403);
    const refused = await financial.get('/api/admin/activity');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    expect((await financial.get(`/api/admin/aggregates/user-${ada.id}/state?at=${between}`)).status).toBe(403);
    expect((await financial.get('/api/admin/activity/export?format=csv')).status).toBe(403);
    expect((await auditor.get('/api/admin/activity')).status).toBe(200);
    expect((await admin.get('/api/admin/activity')).status).toBe(200);
    expect((await auditor.get(`/api/admin/aggregates/user-${ada.id}/state?at=${between}`)).status).toBe(200);
  });
});

describe('filters', () => {
  it("a user's timeline: their streams and what they did, each event in words", async () => {
    const { rows } = await list({ filter: { user: ada.id }, perPage: '100' });
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const row of rows) expect(row.stream.endsWith(ada.id) || row.actor.id === ada.id).toBe(true);
    expect(rows.map((r) => r.position)).toEqual([...rows.map((r) => r.position)].sort((a, b) => b - a));
    const profile = rows.filter((r) => r.type === 'ProfileUpdated');
    expect(profile.map((r) => r.sentence)).toEqual(['Profile updated: firstName', 'Profile updated: firstName, city']);
    expect(profile[1]!.data).toEqual({ changes: { firstName: 'Ada', city: 'Paris, "Rive Gauche"' } });
    const registered = rows.find((r) => r.type === 'UserRegistered')!;
    expect(registered.sentence).toBe(`Signed up as ${ada.email} in web`);
    expect(registered.data.passwordHash).toBe('[redacted]');
    expect(registered.aggregate).toBe('user');
    expect(profile[0]).toMatchObject({ actor: { kind: 'user', id: ada.id, email: ada.email, label: ada.email }, client: 'unknown', userAgent: 'axel-test' });
    expect(profile[0]!.ip).toMatch(/127\.0\.0\.1/);
    // by e-mail: the same rows
    expect((await list({ filter: { user: ada.email }, perPage: '100' })).rows.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect((await list({ user: 'nobody@example.com' })).rows).toEqual([]);
  });

  it('by aggregate, event types, actor, ip and time range', async () => {
    const stream = `user-${ada.id}`;
    const aggregate = (await list({ filter: { aggregate: stream }, perPage: '100' })).rows;
    expect(aggregate.length).toBeGreaterThan(0);
    expect(new Set(aggregate.map((r) => r.stream))).toEqual(new Set([stream]));

    const types = (await list({ filter: { type: ['ProfileUpdated', 'EmailConfirmed'], user: ada.id } })).rows;
    expect(types.map((r) => r.type).sort()).toEqual(['EmailConfirmed', 'ProfileUpdated', 'ProfileUpdated']);
    expect((await list({ type: 'ProfileUpdated,EmailConfirmed', user: ada.id })).rows.map((r) => r.id)).toEqual(types.map((r) => r.id));

    const byRoot = (await list({ filter: { actor: 'root@axel.test' }, perPage: '100' })).rows;
    expect(byRoot.length).toBeGreaterThanOrEqual(3);
    for (const row of byRoot) expect(row.actor).toMatchObject({ id: rootId, email: 'root@axel.test' });
    expect(byRoot.some((r) => r.type === 'UserRegistered' && r.sentence.includes('created by staff as auditor'))).toBe(true);

    const processes = (await list({ filter: { actor: 'anonymous' } })).rows;
    for (const row of processes) expect(row.actor.kind).toBe('anonymous');

    const ip = aggregate.find((r) => r.ip)!.ip!;
    const byIp = (await list({ filter: { ip, user: other.id }, perPage: '100' })).rows;
    expect(byIp.length).toBeGreaterThan(0);
    for (const row of byIp) expect(row.ip).toBe(ip);
    expect((await list({ filter: { ip: '203.0.113.9' } })).rows).toEqual([]);
    // the same IPv4 address as an IPv6 socket names it
    expect((await list({ filter: { ip: `::ffff:${ip.replace(/^::ffff:/, '')}`, user: other.id }, perPage: '100' })).rows.map((r) => r.id)).toEqual(
      byIp.map((r) => r.id),
    );

    const before = (await list({ filter: { user: ada.id, to: between }, perPage: '100' })).rows;
    const after = (await list({ filter: { user: ada.id, from: between }, perPage: '100' })).rows;
    expect(after.map((r) => r.type)).toEqual(['ProfileUpdated']);
    expect(after[0]!.data).toEqual({ changes: { firstName: 'Grace' } });
    expect(before.length + after.length).toBe((await list({ filter: { user: ada.id }, perPage: '100' })).rows.length);
    for (const row of before) expect(row.time <= between).toBe(true);
  });

  it('refuses malformed filters with VALIDATION_FAILED', async () => {
    for (const query of [
      'filter=%7Bnot-json',
      `filter=${encodeURIComponent(JSON.stringify({ colour: 'red' }))}`,
      `filter=${encodeURIComponent(JSON.stringify({ from: 'yesterday' }))}`,
      `filter=${encodeURIComponent(JSON.stringify({ type: ["'; drop table es_events; --"] }))}`,
      'before=-1',
      'before=5&after=3',
      'range=[9,2]',
      'perPage=501',
    ]) {
      const res = await auditor.get(`/api/admin/activity?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe('VALIDATION_FAILED');
    }
  });
});

describe("the staff member's language", () => {
  it('words the rows in the requested locale (parameter, else Accept-Language, else English), refuses a malformed one', async () => {
    const query = { filter: { user: ada.id, type: ['ProfileUpdated'] } };
    const sentences = async (extra: Record<string, unknown>, headers: Record<string, string> = {}) => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries({ ...query, ...extra })) params.set(k, typeof v === 'string' ? v : JSON.stringify(v));
      const res = await auditor.request<Row[]>('GET', `/api/admin/activity?${params}`, undefined, headers);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.map((r) => r.sentence);
    };
    expect(await sentences({})).toEqual(['Profile updated: firstName', 'Profile updated: firstName, city']);
    expect(await sentences({ locale: 'pt_br' })).toEqual(['Perfil atualizado: firstName', 'Perfil atualizado: firstName, city']);
    expect(await sentences({ locale: 'es' })).toEqual(['Perfil actualizado: firstName', 'Perfil actualizado: firstName, city']);
    expect(await sentences({}, { 'accept-language': 'nl-NL,nl;q=0.9,en;q=0.5' })).toEqual([
      'Profiel bijgewerkt: firstName',
      'Profiel bijgewerkt: firstName, city',
    ]);
    // the parameter wins over the header; a language the console does not speak reads as English
    expect(await sentences({ locale: 'en' }, { 'accept-language': 'nl' })).toEqual(['Profile updated: firstName', 'Profile updated: firstName, city']);
    expect(await sentences({ locale: 'fr' })).toEqual(['Profile updated: firstName', 'Profile updated: firstName, city']);
    for (const locale of ['portuguese', 'pt_br;x', '../en']) {
      const res = await auditor.get(`/api/admin/activity?locale=${encodeURIComponent(locale)}`);
      expect(res.status, locale).toBe(400);
      expect(res.body.code, locale).toBe('VALIDATION_FAILED');
    }
    const exported = await auditor.get(`/api/admin/activity/export?format=jsonl&locale=pt&filter=${encodeURIComponent(JSON.stringify(query.filter))}`);
    expect(exported.status).toBe(200);
    const text = typeof exported.body === 'string' ? exported.body : '';
    expect(
      text
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as Row).sentence),
    ).toEqual(['Perfil atualizado: firstName, city', 'Perfil atualizado: firstName']);
  });
});

describe("the reader's time zone", () => {
  it('writes the instants inside sentences in the time zone asked for (UTC by default), and plans by name', async () => {
    const root = (await signIn('root@axel.test', 'Root-pass-123')).http;
    const buyer = await signedUp();
    expect((await root.post(`/api/admin/users/${buyer.id}/plan`, { productId: 100 })).status).toBe(200);
    expect((await root.post(`/api/admin/users/${buyer.id}/plan`, { productId: 200 })).status).toBe(200);
    const only = async (type: string, extra: Record<string, string>) => {
      const { rows } = await list({ filter: { user: buyer.id, type: [type] }, ...extra });
      expect(rows).toHaveLength(1);
      return rows[0]!;
    };
    const started = await list({ filter: { user: buyer.id, type: ['SubscriptionStarted'] } });
    expect(started.rows.map((r) => r.sentence)).toEqual([
      'Subscription to Professional started (monthly), next payment none',
      'Subscription to Starter started (monthly), next payment none',
    ]);
    const tokyo = await only('SubscriptionCanceled', { timeZone: 'Asia/Tokyo' });
    const end = String((tokyo.data as { endDate: string }).endDate);
    const written = (timeZone: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(end));
    expect(written('Asia/Tokyo')).not.toBe(written('UTC'));
    expect(tokyo.sentence).toBe(`Subscription canceled by staff, ends ${written('Asia/Tokyo')}`);
    expect((await only('SubscriptionCanceled', {})).sentence).toBe(`Subscription canceled by staff, ends ${written('UTC')}`);
    expect((await only('SubscriptionCanceled', { timeZone: 'America/Sao_Paulo', locale: 'pt' })).sentence).toMatch(
      /^Assinatura cancelada pela equipe, termina em \d/,
    );
    expect((await auditor.get('/api/admin/activity?timeZone=%3Cscript%3E')).status).toBe(400);
  });
});

describe('rows written by hand', () => {
  it('reads an event with empty metadata and an unknown type without failing the page', async () => {
    const stream = `probe-${randomUUID()}`;
    await t.app.ctx.pool.query(
      `select * from es_append($1, 'any', null, array[$2::uuid], array['AuditProbe'], array[1], array['{"a":1}'::jsonb], array['{"ip":{"x":1}}'::jsonb])`,
      [stream, randomUUID()],
    );
    const { rows } = await list({ filter: { aggregate: stream } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: 'AuditProbe',
      sentence: 'Audit probe',
      actor: { kind: 'unknown', label: 'unknown' },
      ip: '{"x":1}',
      aggregate: null,
      data: { a: 1 },
    });
  });
});

describe('paging by position', () => {
  it('walks the whole log page by page with the keyset cursor, each event once, in order', async () => {
    const all = (await list({ perPage: '500' })).rows;
    expect(all.length).toBeGreaterThan(12);
    // the running product may append meanwhile (the development chain's blocks): the walk is compared
    // on what the first read saw, and must still give every event once, newest first
    const top = all[0]!.position;
    const seen = (rows: Row[]) => rows.filter((r) => r.position <= top).map((r) => r.id);
    const once = (rows: Row[]) => {
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
      expect(rows.every((r, i) => i === 0 || r.position < rows[i - 1]!.position)).toBe(true);
    };
    const first = await list({ range: [0, 4] });
    expect(first.rows).toHaveLength(5);
    expect(Number(first.range!.match(/^activity 0-4\/(\d+)$/)![1])).toBeGreaterThanOrEqual(all.length);
    const walked: Row[] = [...first.rows];
    let next = first.next;
    while (next) {
      const page = await list({ filter: { before: Number(next) }, range: [0, 4] });
      expect(page.rows.every((r) => r.position < Number(next))).toBe(true);
      walked.push(...page.rows);
      next = page.next;
    }
    once(walked);
    expect(seen(walked)).toEqual(all.map((r) => r.id));

    // with a time range the pages come from the time index, in the same order
    const since = all[all.length - 1]!.time;
    // (the hand-written probe above has no time, so no time range holds it)
    const dated = all.filter((r) => r.type !== 'AuditProbe');
    const timed = (await list({ filter: { from: since }, perPage: '500' })).rows;
    expect(seen(timed)).toEqual(dated.map((r) => r.id));
    const timedWalk: Row[] = [];
    let cursor: string | null = null;
    do {
      const page = await list({ filter: { from: since, ...(cursor ? { before: Number(cursor) } : {}) }, range: [0, 6] });
      timedWalk.push(...page.rows);
      cursor = page.next;
    } while (cursor);
    once(timedWalk);
    expect(seen(timedWalk)).toEqual(dated.map((r) => r.id));
    expect((await auditor.get(`/api/admin/activity?filter=${encodeURIComponent(JSON.stringify({ from: since, before: 3 }))}`)).body.code).toBe(
      'VALIDATION_FAILED',
    );

    // a user's timeline pages the same way (read by bitmap and sorted)
    const theirs = (await list({ filter: { user: ada.id }, perPage: '500' })).rows;
    const theirWalk: Row[] = [];
    let at: string | null = null;
    do {
      const page = await list({ filter: { user: ada.id, ...(at ? { before: Number(at) } : {}) }, range: [0, 1] });
      theirWalk.push(...page.rows);
      at = page.next;
    } while (at);
    expect(theirWalk.map((r) => r.id)).toEqual(theirs.map((r) => r.id));

    // oldest first from a cursor
    const oldest = await list({ sort: ['position', 'ASC'], range: [0, 2] });
    expect(oldest.rows.map((r) => r.id)).toEqual(
      all
        .slice(-3)
        .reverse()
        .map((r) => r.id),
    );
    const then = await list({ filter: { after: Number(oldest.next) }, range: [0, 2] });
    expect(then.rows.map((r) => r.id)).toEqual(
      all
        .slice(-6, -3)
        .reverse()
        .map((r) => r.id),
    );
  });
});

describe('export', () => {
  const exportOf = async (query: string) => {
    const res = await auditor.get(`/api/admin/activity/export?${query}`);
    // the client parses a body that happens to be one JSON value: give the text back as sent
    return { status: res.status, headers: res.headers, text: typeof res.body === 'string' ? res.body : `${JSON.stringify(res.body)}\n` };
  };

  it('JSON Lines: every filtered event, oldest first, as an attachment', async () => {
    const res = await exportOf(`format=jsonl&user=${encodeURIComponent(ada.email)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="axel-activity-.+\.jsonl"$/);
    const lines = res.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Row);
    const listed = (await list({ filter: { user: ada.id }, perPage: '100' })).rows;
    expect(lines).toEqual([...listed].reverse());
  });

  it('CSV: a header and a row per event, commas, quotes and line breaks escaped', async () => {
    const res = await exportOf(`format=csv&filter=${encodeURIComponent(JSON.stringify({ user: ada.id, type: ['ProfileUpdated'] }))}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="axel-activity-.+\.csv"$/);
    // the caller's own X-Client text is never stored: an unknown client is recorded as such
    expect(res.text).not.toContain('v2');
    expect(res.text).toContain('""changes""');
    const [header, ...records] = parseCsv(res.text);
    expect(header).toEqual([
      'position',
      'time',
      'type',
      'stream',
      'revision',
      'actor_kind',
      'actor_id',
      'actor',
      'ip',
      'user_agent',
      'client',
      'correlation_id',
      'causation_id',
      'sentence',
      'data',
    ]);
    expect(records).toHaveLength(2);
    const [older, newer] = records.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]])));
    expect(JSON.parse(older!.data!)).toEqual({ changes: { firstName: 'Ada', city: 'Paris, "Rive Gauche"' } });
    expect(older!.sentence).toBe('Profile updated: firstName, city');
    expect(newer).toMatchObject({
      type: 'ProfileUpdated',
      stream: `user-${ada.id}`,
      actor: ada.email,
      client: 'unknown',
      sentence: 'Profile updated: firstName',
    });
  });

  it('refuses an unknown format', async () => {
    expect((await auditor.get('/api/admin/activity/export?format=xml')).body.code).toBe('VALIDATION_FAILED');
    expect((await auditor.get('/api/admin/activity/export')).status).toBe(400);
  });
});

describe('time travel', () => {
  it("rebuilds a user's state as of an instant with the domain's evolve, beside today's, differences named", async () => {
    const res = await auditor.get(`/api/admin/aggregates/user-${ada.id}/state?at=${encodeURIComponent(between)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ stream: `user-${ada.id}`, aggregate: 'user', at: between });
    expect(res.body.state.profile).toMatchObject({ firstName: 'Ada', city: 'Paris, "Rive Gauche"' });
    expect(res.body.today.profile).toMatchObject({ firstName: 'Grace', city: 'Paris, "Rive Gauche"' });
    expect(res.body.differences).toEqual(['profile.firstName']);
    expect(res.body.revisionToday).toBe(res.body.revisionAt + 1);
    expect(res.body.state.passwordHash).toBe('[redacted]');

    const beforeAll = await auditor.get(`/api/admin/aggregates/user-${ada.id}/state?at=2000-01-01T00:00:00Z`);
    expect(beforeAll.body).toMatchObject({ revisionAt: -1, state: { status: 'unregistered' } });
    const now = await auditor.get(`/api/admin/aggregates/user-${ada.id}/state?at=${encodeURIComponent(t.clock.now().toISOString())}`);
    expect(now.body.differences).toEqual([]);
    expect(now.body.state).toEqual(now.body.today);
  });

  it("rebuilds a storage (whose evolve updates its tables in place) as it was before a folder's rename", async () => {
    const storageId = (await ada.http.get(`/api/users/${ada.id}/storages/`)).body.data[0].id as string;
    const base = `/api/users/${ada.id}/storages/${storageId}`;
    const created = await ada.http.post(`${base}/items/`, { label: 'folder', name: 'Alpha' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const folderId = created.body.id as string;
    t.clock.advance(60_000);
    const beforeRename = t.clock.now().toISOString();
    t.clock.advance(60_000);
    expect((await ada.http.request('PATCH', `${base}/items/${folderId}/`, { name: 'Beta' })).status).toBe(200);

    const res = await auditor.get(`/api/admin/aggregates/storage-${storageId}/state?at=${encodeURIComponent(beforeRename)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.aggregate).toBe('storage');
    expect(res.body.state.items[folderId].name).toBe('Alpha');
    expect(res.body.today.items[folderId].name).toBe('Beta');
    expect(res.body.differences).toContain(`items.${folderId}.name`);
    // the storage is in the user's timeline, worded
    const words = (await list({ filter: { user: ada.email, aggregate: `storage-${storageId}` } })).rows.map((r) => r.sentence);
    expect(words).toEqual(expect.arrayContaining(['Renamed an item to "Beta"', 'Created folder "Alpha"']));
    // the folder's own timeline
    const own = (await list({ filter: { aggregate: `storage-${storageId}`, item: folderId } })).rows;
    expect(own.map((r) => r.sentence)).toEqual(['Renamed an item to "Beta"', 'Created folder "Alpha"']);
  });

  it('refuses what it cannot rebuild', async () => {
    expect((await auditor.get(`/api/admin/aggregates/user-${ada.id}/state`)).body.code).toBe('VALIDATION_FAILED');
    expect((await auditor.get(`/api/admin/aggregates/user-${ada.id}/state?at=soon`)).body.code).toBe('VALIDATION_FAILED');
    expect((await auditor.get(`/api/admin/aggregates/user-nobody/state?at=${between}`)).status).toBe(404);
    expect((await auditor.get(`/api/admin/aggregates/mystery-1/state?at=${between}`)).status).toBe(404);
  });
});

describe('erased personal data', () => {
  it('reads as erased once the subject is forgotten', async () => {
    const gone = await signedUp();
    expect((await gone.http.put(`/api/users/${gone.id}/profile`, { firstName: 'Forgotten' })).status).toBe(200);
    const store = t.app.ctx.store;
    expect(store).toBeInstanceOf(PersonalDataEventStore);
    await (store as PersonalDataEventStore).keys.erase([`user-${gone.id}`]);
    const rows = (await list({ filter: { aggregate: `user-${gone.id}` }, perPage: '100' })).rows;
    const registered = rows.find((r) => r.type === 'UserRegistered')!;
    expect(registered.data.email).toBe(ERASED);
    expect(registered.sentence).toBe(`Signed up as ${ERASED} in web`);
    expect(rows.find((r) => r.type === 'ProfileUpdated')!.ip).toBe(ERASED);
  });
});
