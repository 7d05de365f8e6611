import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { startTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });
});
afterAll(async () => {
  await t?.stop();
});

const { uniqueEmail, signIn, PASSWORD } = accountHelpers(() => t);

const staffMember = async (role: string) => {
  const { http: boss } = await signIn('root@axel.test', 'Root-pass-123');
  const email = uniqueEmail(role);
  const created = await boss.post('/api/admin/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, role });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.id as string, email };
};

describe("the console's language, saved with the staff member's account", () => {
  it('starts in English, and the language an auditor chooses is what every later session reads', async () => {
    const auditor = await staffMember('auditor');
    const first = await signIn(auditor.email);
    expect((await first.http.get('/api/admin/me')).body.locale).toBe('en');

    const saved = await first.http.put(`/api/users/${auditor.id}/account`, { locale: 'nl' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    // another browser: a new session of the same auditor
    const second = await signIn(auditor.email);
    expect((await second.http.get('/api/admin/me')).body).toMatchObject({ id: auditor.id, role: 'auditor', locale: 'nl' });

    expect((await second.http.put(`/api/users/${auditor.id}/account`, { locale: 'pt_br' })).status).toBe(200);
    expect((await first.http.get('/api/admin/me')).body.locale).toBe('pt');
  });

  it("is the staff member's own: another staff member cannot change it, and an unknown language is refused", async () => {
    const admin = await staffMember('admin');
    const auditor = await staffMember('auditor');
    const { http } = await signIn(admin.email);
    const other = await http.put(`/api/users/${auditor.id}/account`, { locale: 'es_mx' });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('FORBIDDEN');

    const unknown = await http.put(`/api/users/${admin.id}/account`, { locale: 'fr' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });

    const { http: auditorHttp } = await signIn(auditor.email);
    expect((await auditorHttp.get('/api/admin/me')).body.locale).toBe('en');
  });
});
