import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, startTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.stop();
});
const { signUpConfirmed, signIn } = accountHelpers(() => t);

describe('notifications', () => {
  it('lists security notices newest first, pages by startFrom, counts unseen, marks seen and deletes', async () => {
    const { email, id } = await signUpConfirmed();
    let http: HttpClient | undefined;
    for (let i = 0; i < 23; i++) http = (await signIn(email)).http;
    const base = `/api/users/${id}/notifications/`;
    expect((await http!.get(`${base}count/`)).body).toEqual({ count: 23 });

    const first = await http!.get(base);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.data[0]).toMatchObject({ type: 'sign_in', title: 'New sign-in', seen: false });
    const times = first.body.data.map((n: { createdAt: string }) => n.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const second = await http!.get(`${base}?startFrom=${first.body.data[19].id}`);
    expect(second.body.data).toHaveLength(3);
    const allIds = [...first.body.data, ...second.body.data].map((n: { id: string }) => n.id);
    expect(new Set(allIds).size).toBe(23);

    expect((await http!.post(base, { ids: allIds.slice(0, 5) })).status).toBe(204);
    expect((await http!.get(`${base}count/`)).body).toEqual({ count: 18 });
    expect((await http!.delete(base, { ids: allIds.slice(0, 10) })).status).toBe(204);
    expect((await http!.get(base)).body.data).toHaveLength(13);
    expect((await http!.get(`${base}count/`)).body).toEqual({ count: 13 });
  });

  it('keeps each user to their own list', async () => {
    const a = await signUpConfirmed();
    const b = await signUpConfirmed();
    const { http } = await signIn(a.email);
    expect((await http.get(`/api/users/${b.id}/notifications/`)).status).toBe(403);
    expect((await http.post(`/api/users/${a.id}/notifications/`, { ids: [] })).body.code).toBe('NOTIFICATION_IDS_REQUIRED');
  });
});
