import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../testing/accounts';
import { useTestApp } from '../testing/harness';
import { runProductCli } from '../../../test/product-process';
import { readModelRows, settled } from '../testing/read-models';
import { rebuildAllProjections } from './rebuild-all';

const t = useTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });

const { uniqueEmail, signUpConfirmed, signIn, PASSWORD } = accountHelpers(t);

/** Sign-ups, profile and settings changes, staff actions, a role change, a deletion: the accounts slice at work. */
const accountsScenario = async () => {
  const boss = (await signIn('root@axel.test', 'Root-pass-123')).http;
  const people = [];
  for (let i = 0; i < 4; i++) people.push(await signUpConfirmed());
  const [ana, bo, cy, di] = people as [(typeof people)[number], (typeof people)[number], (typeof people)[number], (typeof people)[number]];
  const anaHttp = (await signIn(ana.email)).http;
  expect((await anaHttp.put(`/api/users/${ana.id}/profile`, { firstName: 'Ana', phone: '+55 11 98765-4321' })).status).toBe(200);
  expect((await anaHttp.put(`/api/users/${ana.id}/account`, { username: `ana.${Date.now().toString(36)}`, locale: 'nl' })).status).toBe(200);
  expect((await signIn(bo.email, 'Wrong-pass-1')).res.status).toBe(401);
  expect((await boss.post(`/api/admin/users/${bo.id}/suspend`)).status).toBe(200);
  expect((await boss.post(`/api/admin/users/${bo.id}/unsuspend`)).status).toBe(200);
  expect((await boss.post(`/api/admin/users/${cy.id}/block`)).status).toBe(200);
  expect((await boss.post(`/api/admin/users/${di.id}/role`, { role: 'auditor' })).status).toBe(200);
  const created = await boss.post('/api/admin/users/', { email: uniqueEmail('staff'), password: PASSWORD, passwordConfirmation: PASSWORD, role: 'admin' });
  expect(created.status).toBe(201);
  const leaver = await signUpConfirmed();
  const leaverHttp = (await signIn(leaver.email)).http;
  expect((await leaverHttp.delete(`/api/users/${leaver.id}/`, { confirmation: 'YES', password: PASSWORD })).status).toBe(204);
};

const caughtUp = () => settled(t());

describe('rebuilding every read model', () => {
  it('rebuilds all projections from position 0 to the very same rows', async () => {
    await accountsScenario();
    await caughtUp();
    const before = await readModelRows(t());
    expect(Object.values(before).some((rows) => rows.length > 0)).toBe(true);
    const results = await rebuildAllProjections({
      pool: t().app.ctx.pool,
      store: t().app.ctx.store,
      registry: t().app.ctx.registry,
      projections: t().app.ctx.runner.projections,
    });
    expect([...results.keys()]).toEqual(t().app.ctx.runner.projections.map((p) => p.name));
    expect(await readModelRows(t())).toEqual(before);
  }, 120_000);

  it('npm run projections -- rebuild --all does it from the command line', async () => {
    await caughtUp();
    const before = await readModelRows(t());
    const out = await runProductCli('api/src/cli/projections.ts', ['rebuild', '--all'], {
      DATABASE_URL: t().db.url,
      DATA_DIR: t().app.ctx.config.dataDir,
      LOG_LEVEL: 'silent',
    });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`rebuilt all ${t().app.ctx.runner.projections.length} projections`);
    await caughtUp();
    expect(await readModelRows(t())).toEqual(before);
  }, 120_000);
});
