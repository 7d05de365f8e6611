import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeAudience } from './auth';
import { accountHelpers } from '../testing/accounts';
import { HttpClient, useTestApp } from '../testing/harness';
import { startClioStandIn, type ClioStandIn } from '../modules/integrations/clio/clio.standin';
import { startDropboxStandIn, type DropboxStandIn } from '../modules/integrations/dropbox/dropbox.standin';

/**
 * Every route of the server's own route list, fed arbitrary unicode (NUL and lone surrogates
 * included) and out-of-range numbers in its path parameters, query and JSON body, by a stranger,
 * a user and a super_admin: no answer is a 500, every error is `{ code, message, data }`.
 */

// the integrations configured (against their stand-ins), so their routes are fed too, not answered 503 at the door
let dropbox: DropboxStandIn;
let clio: ClioStandIn;
beforeAll(async () => {
  dropbox = await startDropboxStandIn({ root: mkdtempSync(path.join(os.tmpdir(), 'dropbox-standin-')) });
  clio = await startClioStandIn();
});
afterAll(async () => {
  await dropbox?.stop();
  await clio?.stop();
});

const t = useTestApp(() => ({
  env: {
    ADMIN_EMAIL: 'root@axel.test',
    ADMIN_PASSWORD: 'Root-pass-123',
    RATE_LIMIT_FACTOR: '1000',
    READ_YOUR_WRITES_TIMEOUT_MS: '200',
    DROPBOX_CLIENT_ID: 'props-app-key',
    DROPBOX_AUTHORIZE_URL: `${dropbox.url}/oauth2/authorize`,
    DROPBOX_API_URL: dropbox.url,
    DROPBOX_CONTENT_URL: dropbox.url,
    CLIO_CLIENT_ID: 'props-clio-id',
    CLIO_CLIENT_SECRET: 'props-clio-secret',
    CLIO_URL: clio.url,
  },
}));
const { signUpConfirmed, signIn, uniqueEmail } = accountHelpers(t);

interface RouteEntry {
  method: string;
  url: string;
  schema?: { params?: unknown; querystring?: unknown; body?: unknown };
}

// ---- values ------------------------------------------------------------------------------------

const nasty = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '%00',
  '%ff',
  '%E0%A4%A',
  '1e20',
  '-1',
  '9'.repeat(30),
  '[1e20,1e20]',
  '[0,1e400]',
  '["\\u0000","ASC"]',
  '{"q":"\\u0000"}',
  '{"q":"\\ud800"}',
  '',
  ' ',
  '../..',
  'null',
  'account-deletion:x',
  'no-such-type:1',
  'x'.repeat(300),
];
const text = fc.oneof(
  fc.constantFrom(...nasty),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: fc.constantFrom('\u0000', '\ud800', '\udc00', 'a', '%', '0'), maxLength: 8 }),
);
const number = fc.oneof(fc.constantFrom(1e20, -1e20, 2 ** 63, -1, 0, 0.5, Number.MAX_SAFE_INTEGER + 2, 2147483648), fc.double(), fc.integer());
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: text },
  { weight: 2, arbitrary: number },
  fc.boolean(),
  fc.constant(null),
  fc.array(text, { maxLength: 3 }),
  fc.dictionary(text, text, { maxKeys: 2 }),
);

/** A URL component with lone surrogates written as the (invalid) UTF-8 bytes a client could send. */
const encode = (s: string) => {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(s.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += `%${(0xe0 | (c >> 12)).toString(16)}%${(0x80 | ((c >> 6) & 0x3f)).toString(16)}%${(0x80 | (c & 0x3f)).toString(16)}`.toUpperCase();
    } else {
      out += encodeURIComponent(s[i]!);
    }
  }
  return out;
};

// ---- schemas -----------------------------------------------------------------------------------

type ZodLike = { shape?: Record<string, ZodLike>; _zod?: { def: Record<string, any> } };
const def = (schema: ZodLike | undefined) => schema?._zod?.def;

const shapeOf = (schema: ZodLike | undefined): Record<string, ZodLike> => {
  if (!schema) return {};
  if (schema.shape) return schema.shape;
  const d = def(schema);
  return shapeOf(d?.in ?? d?.innerType ?? d?.schema);
};

/** A plausible value for a field, so that a single fuzzed field reaches past the others' checks. */
const plausible = (key: string, schema: ZodLike | undefined): unknown => {
  if (/email/i.test(key)) return 'fuzz.person@example.com';
  if (/password/i.test(key)) return 'Wrong-pass-9';
  if (key === 'confirmation') return 'NO';
  if (/code$/i.test(key)) return '123456';
  if (/token/i.test(key)) return 'x'.repeat(24);
  const d = def(schema);
  switch (d?.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return plausible(key, d.innerType);
    case 'pipe':
      return plausible(key, d.in);
    case 'string':
      return 'sample';
    case 'number':
    case 'int':
      return 1;
    case 'boolean':
      return true;
    case 'literal':
      return d.values?.[0];
    case 'enum':
      return Object.values(d.entries ?? {})[0];
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(Object.entries(shapeOf(schema)).map(([k, s]) => [k, plausible(k, s)]));
    case 'union':
      return plausible(key, d.options?.[0]);
    default:
      return 'sample';
  }
};

// ---- cases -------------------------------------------------------------------------------------

interface Ids {
  self: string;
  victim: string;
}

const caseFor = (route: RouteEntry, ids: Ids | null) => {
  const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const realIds = ids
    ? route.url.startsWith('/api/admin/')
      ? [ids.victim, `account-deletion:${ids.victim}`]
      : route.url.endsWith('/push')
        ? []
        : [ids.self]
    : [];
  const param = realIds.length ? fc.oneof(fc.constantFrom(...realIds), text) : text;
  const queryKeys = [...new Set([...Object.keys(shapeOf(route.schema?.querystring as ZodLike)), 'range', 'page'])];
  const bodyShape = shapeOf(route.schema?.body as ZodLike);
  const bodyKeys = Object.keys(bodyShape);
  const base = Object.fromEntries(bodyKeys.map((k) => [k, plausible(k, bodyShape[k])]));
  const withBody = route.method !== 'GET';
  return fc.record({
    params: fc.tuple(...paramNames.map(() => param)),
    query: fc.dictionary(fc.oneof(fc.constantFrom(...queryKeys), text), fc.oneof(text, number.map(String)), { maxKeys: 3 }),
    body: withBody
      ? fc.oneof(
          {
            weight: 4,
            arbitrary: fc
              .dictionary(fc.oneof(...(bodyKeys.length ? [fc.constantFrom(...bodyKeys)] : []), text), value, { maxKeys: 3 })
              .map((over) => ({ ...base, ...over })),
          },
          { weight: 1, arbitrary: value },
        )
      : fc.constant(undefined),
  });
};

const send = async (http: HttpClient, route: RouteEntry, c: { params: string[]; query: Record<string, string>; body: unknown }) => {
  let i = 0;
  const path = route.url.replace(/:(\w+)/g, () => encode(c.params[i++]!));
  const query = Object.entries(c.query)
    .map(([k, v]) => `${encode(k)}=${encode(v)}`)
    .join('&');
  return http.request(route.method, query ? `${path}?${query}` : path, c.body);
};

// ---- the property ------------------------------------------------------------------------------

describe('every route, under arbitrary input', () => {
  it('never answers 500, and every error is { code, message, data }', async () => {
    const routes = (t().app.server as unknown as { routeList: RouteEntry[] }).routeList
      .filter((r) => r.method !== 'HEAD' && !r.url.startsWith('/api/docs'))
      // signing out ends the session the other routes are tried with: last
      .sort((a, b) => Number(a.url === '/api/sessions/this/' && a.method === 'DELETE') - Number(b.url === '/api/sessions/this/' && b.method === 'DELETE'));
    expect(routes.length).toBeGreaterThanOrEqual(40);

    const user = await signUpConfirmed();
    const victim = await signUpConfirmed(uniqueEmail('victim'));
    const root = (await signIn('root@axel.test', 'Root-pass-123')).http;
    const rootId = (await root.get('/api/sessions/this/')).body.user.id as string;
    expect(rootId).toBeTruthy();
    const identities: { name: string; http: () => Promise<HttpClient>; ids: Ids | null }[] = [
      { name: 'stranger', http: async () => new HttpClient(t().url), ids: null },
      { name: 'user', http: async () => (await signIn(user.email)).http, ids: { self: user.id, victim: victim.id } },
      { name: 'super_admin', http: async () => root, ids: { self: rootId, victim: victim.id } },
    ];
    const failures: string[] = [];
    for (const identity of identities) {
      const http = await identity.http();
      for (const route of routes) {
        await fc.assert(
          fc.asyncProperty(caseFor(route, identity.ids), async (c) => {
            const res = await send(http, route, c);
            const where = `${identity.name} ${route.method} ${route.url} ${JSON.stringify(c)} -> ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`;
            // an integration this installation has not configured says so (the contract's 503), it does not fail
            const unconfigured = res.status === 503 && res.body?.code === 'INTEGRATION_NOT_CONFIGURED';
            if (res.status >= 500 && !unconfigured) failures.push(where);
            if (!unconfigured) expect(res.status, where).toBeLessThan(500);
            if (res.status >= 400) expect(Object.keys(res.body ?? {}).sort(), where).toEqual(['code', 'data', 'message']);
          }),
          { numRuns: 8, endOnFailure: true },
        );
      }
    }
    expect(failures).toEqual([]);
  }, 600_000); // thousands of requests over every route: minutes on a busy machine
});

/**
 * Routes a stranger may call with another credential, or whose 401 is their answer: the session
 * check itself, tus uploads (a Secure Fetch link's sender holds no session), and the faucet (it
 * answers 404 to any other machine before it asks who calls).
 */
const OTHER_CREDENTIALS = ['/api/sessions/this/', '/api/uploads/', '/api/wallet/v1/faucet'];

describe('a stranger is asked to sign in before anything they sent is read', () => {
  it('every user and staff route answers 401 to a stranger whatever the body and query; a route that answers strangers 401 is one of them', async () => {
    const routes = (t().app.server as unknown as { routeList: RouteEntry[] }).routeList.filter(
      (r) => r.method !== 'HEAD' && !r.url.startsWith('/api/docs') && r.url.startsWith('/api/'),
    );
    const guarded = routes.filter((r) => routeAudience(r.url, r.method) !== 'anyone');
    expect(guarded.filter((r) => routeAudience(r.url, r.method) === 'user').length).toBeGreaterThanOrEqual(40);
    const stranger = new HttpClient(t().url);
    const wrong: string[] = [];
    for (const route of routes) {
      const path = route.url.replace(/:(\w+)/g, 'x');
      const bodyShape = shapeOf(route.schema?.body as ZodLike);
      const withBody = route.method !== 'GET' && route.method !== 'DELETE';
      if (routeAudience(route.url, route.method) !== 'anyone') {
        // wrong types in every field, a malformed JSON text, a nonsense query: none of it is read
        const bad: { query: string; body?: unknown; headers?: Record<string, string> }[] = [
          {
            query: '?page=-1&perPage=1e9&range=nonsense',
            body: withBody ? Object.fromEntries(Object.keys(bodyShape).map((k) => [k, { nested: ['\u0000'] }])) : undefined,
          },
          ...(withBody ? [{ query: '', body: new TextEncoder().encode('{"unterminated'), headers: { 'content-type': 'application/json' } }] : []),
        ];
        for (const c of bad) {
          const res = await stranger.request(route.method, path + c.query, c.body, c.headers);
          if (res.status !== 401) wrong.push(`${route.method} ${route.url}: ${res.status} ${JSON.stringify(res.body)?.slice(0, 120)}`);
        }
      } else {
        // a route outside the rule that still wants a session would answer a bad body 400 first
        const res = await stranger.request(
          route.method,
          path,
          withBody ? Object.fromEntries(Object.entries(bodyShape).map(([k, s]) => [k, plausible(k, s)])) : undefined,
        );
        if (res.status === 401 && !OTHER_CREDENTIALS.some((p) => route.url.startsWith(p)))
          wrong.push(`${route.method} ${route.url}: a stranger is answered 401, but its path is not a user's or staff route`);
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);
});
