import { ROLES, staffMay, type Role, type StaffAct } from '@axel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { type HttpClient, startTestApp, type TestApp } from '../../testing/harness';
import { FEATURES_BY_ROLE, type Feature } from '../../http/auth';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });
});
afterAll(async () => {
  await t?.stop();
});

const { uniqueEmail, signIn, PASSWORD } = accountHelpers(() => t);
const STAFF: readonly Role[] = ['super_admin', 'admin', 'financial_admin'];
/** The auditor writes nothing at all: the tests of its own below walk every write route for it. */
const MEMBERS: readonly Role[] = [...STAFF, 'auditor'];

const root = async () => (await signIn('root@axel.test', 'Root-pass-123')).http;

const createAccount = async (by: HttpClient, role: Role) => {
  const email = uniqueEmail(role.replace('_', '-'));
  const res = await by.post('/api/admin/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, role });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as string, email, role };
};

/** A signed-in staff member of each role (the super_admin is a second one, not the first start's). */
const staffOfEveryRole = async () => {
  const boss = await root();
  const members = new Map<Role, { id: string; http: HttpClient }>();
  for (const role of MEMBERS) {
    const account = await createAccount(boss, role);
    const { http, res } = await signIn(account.email);
    expect(res.status).toBe(200);
    members.set(role, { id: account.id, http });
  }
  return { boss, members };
};

type RouteKind =
  | { kind: 'create' }
  | { kind: 'manage'; feature?: Feature; body?: unknown }
  | { kind: 'changeRole' }
  | { kind: 'process' }
  /** Not about an account: allowed exactly to the roles holding the feature (to every staff role without one). */
  | { kind: 'feature'; feature?: Feature };

/**
 * How each admin write route relates to the hierarchy. A new admin write route fails this test
 * until it is classified here, so no write slips past the rule unnoticed.
 */
const classify = (method: string, url: string): RouteKind => {
  if (method === 'POST' && url === '/api/admin/users/') return { kind: 'create' };
  if (method === 'POST' && url === '/api/admin/users/:id/role') return { kind: 'changeRole' };
  if (method === 'POST' && url === '/api/admin/users/:id/password-reset') return { kind: 'manage', feature: 'admin:user:password:reset' };
  if (method === 'DELETE' && url === '/api/admin/users/:id') return { kind: 'manage', feature: 'admin:user:delete' };
  if (method === 'POST' && /^\/api\/admin\/users\/:id\/(suspend|unsuspend|block|unblock)$/.test(url)) return { kind: 'manage' };
  if (url === '/api/admin/users/:id/dbs-access') return { kind: 'manage', feature: 'ddbaas' };
  if (url.startsWith('/api/admin/processes/')) return { kind: 'process' };
  if (method === 'POST' && url === '/api/admin/users/:id/plan') return { kind: 'manage', body: { productId: 200 } };
  if (method === 'POST' && url === '/api/admin/users/:id/checkout') return { kind: 'manage', body: { productId: 1001 } };
  if (method === 'DELETE' && url === '/api/admin/promocodes/:id') return { kind: 'feature', feature: 'admin:promocode:delete' };
  if (url.startsWith('/api/admin/promocodes/')) return { kind: 'feature', feature: 'admin:promocode:add' };
  if (url.startsWith('/api/admin/auto-pay/programs/')) {
    const action = /\/:id\/(submit|approve|reject|lock|unlock|cancel|retry)$/.exec(url)?.[1];
    return { kind: 'feature', feature: (action ? `admin:autopay:${action}` : 'admin:autopay:edit') as Feature };
  }
  if (method === 'POST' && url === '/api/admin/drives/') return { kind: 'feature' };
  if (url.startsWith('/api/admin/drives/')) return { kind: 'feature', feature: 'admin:cloudlocker:unbind' };
  if (method === 'POST' && url === '/api/admin/ipfs-pins/:id/retry') return { kind: 'feature' };
  if (method === 'POST' && url === '/api/admin/ipfs-pins/:id/unpin') return { kind: 'feature', feature: 'admin:ipfs:unpin' };
  throw new Error(`${method} ${url} is an admin write route the staff hierarchy test does not know: classify it`);
};

const writeRoutes = () =>
  (t.app.server as unknown as { routeList: { method: string; url: string }[] }).routeList.filter(
    (r) => r.url.startsWith('/api/admin/') && !['GET', 'HEAD', 'OPTIONS'].includes(r.method),
  );

const newRoleFor = (target: Role): Role => (target === 'user' ? 'financial_admin' : 'user');

describe('staff hierarchy over every admin write route', () => {
  it('each staff role, against a target of each role, is refused exactly when the rule and its features say so', async () => {
    const { boss, members } = await staffOfEveryRole();
    const routes = writeRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(8);
    const mismatches: string[] = [];

    for (const { method, url } of routes) {
      const route = classify(method, url);
      for (const actorRole of STAFF) {
        const actor = members.get(actorRole)!;
        for (const targetRole of ROLES) {
          let path: string;
          let body: unknown = method === 'DELETE' ? undefined : {};
          let act: StaffAct | null;
          let feature: Feature | undefined;
          if (route.kind === 'create') {
            path = url;
            body = { email: uniqueEmail('new'), password: PASSWORD, passwordConfirmation: PASSWORD, role: targetRole };
            act = { kind: 'create', role: targetRole };
          } else if (route.kind === 'feature') {
            path = url.replace(':id', 'NO-SUCH-CODE');
            act = null;
            feature = route.feature;
          } else if (route.kind === 'process') {
            // a process is not an account: any staff member may retry one (it answers 404 or 409, never 403)
            const target = await createAccount(boss, targetRole);
            path = url.replace(':id', encodeURIComponent(`account-deletion:${target.id}`));
            act = null;
          } else {
            const target = await createAccount(boss, targetRole);
            path = url.replace(':id', encodeURIComponent(target.id));
            if (route.kind === 'changeRole') {
              body = { role: newRoleFor(targetRole) };
              act = { kind: 'changeRole', target, role: newRoleFor(targetRole) };
            } else {
              act = { kind: 'manage', target };
              feature = route.feature;
              if (route.body !== undefined) body = route.body;
            }
          }
          const allowed =
            (act === null || staffMay({ id: actor.id, role: actorRole }, act).allowed) &&
            (feature === undefined || FEATURES_BY_ROLE[actorRole].includes(feature));
          const res = await actor.http.request(method, path, body);
          const refused = res.status === 403;
          const label = `${actorRole} ${method} ${url} on ${targetRole}: ${res.status} ${res.body?.code ?? ''}`;
          if (refused === allowed || (allowed && act !== null && res.status >= 300)) mismatches.push(label);
          if (refused && res.body?.code !== 'FORBIDDEN') mismatches.push(`${label} (not in the error shape)`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 420_000); // over a hundred accounts, each with a password hash: slow on a busy machine

  it('refuses every staff role every account write on their own account', async () => {
    const { members } = await staffOfEveryRole();
    for (const { method, url } of writeRoutes()) {
      const route = classify(method, url);
      if (route.kind === 'create' || route.kind === 'process' || route.kind === 'feature') continue;
      for (const actorRole of STAFF) {
        const actor = members.get(actorRole)!;
        const body =
          route.kind === 'changeRole'
            ? { role: 'user' }
            : method === 'DELETE'
              ? undefined
              : route.kind === 'manage' && route.body !== undefined
                ? route.body
                : {};
        const res = await actor.http.request(method, url.replace(':id', actor.id), body);
        expect(res.status, `${actorRole} ${method} ${url}`).toBe(403);
      }
    }
  });

  it('says why in the refusal, and an admin cannot suspend or block a super_admin', async () => {
    const { members } = await staffOfEveryRole();
    const superAdmin = members.get('super_admin')!;
    const admin = members.get('admin')!;
    const suspend = await admin.http.post(`/api/admin/users/${superAdmin.id}/suspend`);
    expect(suspend.status).toBe(403);
    expect(suspend.body).toEqual({ code: 'FORBIDDEN', message: 'Staff act only on accounts of lower rank', data: { reason: 'rank' } });
    expect((await admin.http.post(`/api/admin/users/${superAdmin.id}/block`)).status).toBe(403);
    expect((await superAdmin.http.get('/api/sessions/this/')).status).toBe(200);

    const money = members.get('financial_admin')!;
    const create = await money.http.post('/api/admin/users/', { email: uniqueEmail(), password: PASSWORD, passwordConfirmation: PASSWORD, role: 'user' });
    expect(create.body).toMatchObject({ code: 'FORBIDDEN', data: { reason: 'create_users' } });
  });

  it('a super_admin changes a role; the new role holds at once', async () => {
    const { boss } = await staffOfEveryRole();
    const account = await createAccount(boss, 'user');
    const { http } = await signIn(account.email);
    expect((await http.get('/api/admin/me')).status).toBe(403);
    const changed = await boss.post(`/api/admin/users/${account.id}/role`, { role: 'admin' });
    expect(changed.status).toBe(200);
    expect(changed.body.role).toBe('admin');
    expect((await http.get('/api/admin/me')).body.role).toBe('admin');
    expect((await boss.post(`/api/admin/users/${account.id}/role`, { role: 'owner' })).body.code).toBe('VALIDATION_FAILED');
  });
});

describe('the auditor role', () => {
  const routesOf = (reads: boolean) =>
    (t.app.server as unknown as { routeList: { method: string; url: string }[] }).routeList.filter(
      (r) => r.url.startsWith('/api/admin/') && r.method !== 'HEAD' && (r.method === 'GET') === reads,
    );

  it('is refused every admin write route, whatever it is, as read-only', async () => {
    const { boss, members } = await staffOfEveryRole();
    const auditor = members.get('auditor')!;
    const target = await createAccount(boss, 'user');
    const routes = routesOf(false);
    expect(routes.length).toBeGreaterThanOrEqual(8);
    const answers: string[] = [];
    for (const { method, url } of routes) {
      const path = url.replace(/:id\b/, encodeURIComponent(url.includes('processes') ? `account-deletion:${target.id}` : target.id));
      const body =
        method === 'DELETE'
          ? undefined
          : url === '/api/admin/users/'
            ? { email: uniqueEmail(), password: PASSWORD, passwordConfirmation: PASSWORD, role: 'user' }
            : {};
      const res = await auditor.http.request(method, path, body);
      if (res.status !== 403 || res.body?.code !== 'FORBIDDEN' || res.body?.data?.reason !== 'read_only')
        answers.push(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(answers).toEqual([]);
    expect((await auditor.http.get(`/api/admin/users/${target.id}`)).body.status).not.toBe('suspended');
  });

  it('reads the users, their activity and the processes, and enters the console', async () => {
    const { boss, members } = await staffOfEveryRole();
    const auditor = members.get('auditor')!;
    const target = await createAccount(boss, 'user');
    const me = await auditor.http.get('/api/admin/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ role: 'auditor', features: [] });
    expect((await auditor.http.get('/api/admin/users/')).status).toBe(200);
    expect((await auditor.http.get(`/api/admin/users/${target.id}`)).status).toBe(200);
    expect((await auditor.http.get(`/api/admin/users/${target.id}/activity`)).status).toBe(200);
    expect((await auditor.http.get('/api/admin/processes')).status).toBe(200);
    const forbidden: string[] = [];
    for (const { url } of routesOf(true)) {
      const path = url.replace(/:id\b/, encodeURIComponent(url.includes('processes') ? `account-deletion:${target.id}` : target.id));
      const res = await auditor.http.get(path);
      if (res.status === 401 || res.status === 403) forbidden.push(`GET ${url}: ${res.status}`);
    }
    expect(forbidden).toEqual([]);
  });
});

describe('activity log', () => {
  it('names the acting staff member by e-mail', async () => {
    const { members } = await staffOfEveryRole();
    const admin = members.get('admin')!;
    const adminEmail = (await admin.http.get('/api/admin/me')).body.email;
    const boss = await root();
    const target = await createAccount(boss, 'user');
    expect((await admin.http.post(`/api/admin/users/${target.id}/suspend`)).status).toBe(200);
    const log = await admin.http.get(`/api/admin/users/${target.id}/activity?perPage=50`);
    const suspension = log.body.find((e: { event: string }) => e.event === 'UserSuspended');
    expect(suspension).toMatchObject({ actorId: admin.id, actorKind: 'staff', actorEmail: adminEmail });
    const registered = log.body.find((e: { event: string }) => e.event === 'UserRegistered');
    expect(registered.actorEmail).toBe('root@axel.test');
  });
});

describe('staff powers on development routes', () => {
  type DevRoute = { kind: 'bearer' } | { kind: 'onAccount' } | { kind: 'treasury' };
  /**
   * Every development write route, classified: one acting on another account or the treasury is a
   * staff power and follows the staff rules; a new one fails this test until it is classified here.
   */
  const classifyDev = (method: string, url: string): DevRoute => {
    if (/^\/api\/dev\/checkout\/:sessionId\/(pay|decline)$/.test(url)) return { kind: 'bearer' }; // the checkout page's own link authorises it
    if (method === 'POST' && url === '/api/dev/users/:id/subscriptions/:subscriptionId/renewal') return { kind: 'onAccount' };
    if (method === 'POST' && url === '/api/wallet/v1/faucet') return { kind: 'treasury' };
    if (method === 'POST' && url === '/api/wallet/v1/admin/treasury/fill') return { kind: 'treasury' };
    throw new Error(`${method} ${url} is a development write route this test does not know: classify it`);
  };

  /** A user (or staff member) with a paid test subscription. */
  const subscribed = async (role: Role) => {
    const account = role === 'user' ? await accountHelpers(() => t).signUpConfirmed() : await createAccount(await root(), role);
    const { http } = await signIn(account.email);
    const bought = await http.post(`/api/users/${account.id}/products/`, { productId: 200 });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const sessionId = decodeURIComponent(new URL(bought.body.checkoutLink as string).pathname.slice('/dev/checkout/'.length));
    expect((await http.post(`/api/dev/checkout/${encodeURIComponent(sessionId)}/pay`)).status).toBe(200);
    const [sub] = (await http.get(`/api/users/${account.id}/subscriptions/`)).body;
    return { id: account.id, subscriptionId: sub.id as string, http };
  };

  it('an auditor is refused every one of them as read-only; staff act only on accounts of lower rank', async () => {
    const { members } = await staffOfEveryRole();
    const routes = (t.app.server as unknown as { routeList: { method: string; url: string; schema?: { tags?: string[] } }[] }).routeList.filter(
      (r) => r.schema?.tags?.includes('development') && !['GET', 'HEAD', 'OPTIONS'].includes(r.method),
    );
    expect(routes.length).toBeGreaterThanOrEqual(3);
    const wrong: string[] = [];
    const victim = await subscribed('user');
    const superAdmin = await subscribed('super_admin');
    for (const { method, url } of routes) {
      const route = classifyDev(method, url);
      if (route.kind === 'bearer') continue;
      if (route.kind === 'onAccount') {
        const renewal = (who: { id: string; subscriptionId: string }) => url.replace(':id', who.id).replace(':subscriptionId', who.subscriptionId);
        for (const role of MEMBERS) {
          const res = await members.get(role)!.http.request(method, renewal(victim), { outcome: 'failed' });
          const expected = role === 'auditor' ? 403 : 200;
          if (res.status !== expected || (role === 'auditor' && res.body?.data?.reason !== 'read_only'))
            wrong.push(`${role} ${url} on a user: ${res.status} ${JSON.stringify(res.body)}`);
          if (res.status === 200) await members.get(role)!.http.request(method, renewal(victim), { outcome: 'paid' });
        }
        // nobody but a super_admin's own session acts on a super_admin's account
        for (const role of ['admin', 'financial_admin', 'auditor'] as const) {
          const res = await members.get(role)!.http.request(method, renewal(superAdmin), { outcome: 'failed' });
          if (res.status !== 403) wrong.push(`${role} ${url} on a super_admin: ${res.status} ${JSON.stringify(res.body)}`);
        }
        // the account's own holder still plays the bank on their own test subscription
        expect((await victim.http.request(method, renewal(victim), { outcome: 'paid' })).status).toBe(200);
        const grace = (await victim.http.get(`/api/users/${victim.id}/grace-period-info/`)).body;
        expect(grace).toEqual([]);
      } else {
        const res = await members.get('auditor')!.http.request(method, url, { amount: '1', to: 'treasury' });
        if (res.status !== 403 || res.body?.data?.reason !== 'read_only')
          wrong.push(`auditor ${url} to the treasury: ${res.status} ${JSON.stringify(res.body)}`);
        const staff = await members.get('financial_admin')!.http.request(method, url, { amount: '1', to: 'treasury' });
        if (staff.status !== 200) wrong.push(`financial_admin ${url} to the treasury: ${staff.status} ${JSON.stringify(staff.body)}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);
});
