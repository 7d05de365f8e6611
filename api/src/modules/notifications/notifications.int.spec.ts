import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, useTestApp } from '../../testing/harness';

// 23 sign-ins to one account in a minute: more than its rate limit allows by default
const t = useTestApp({ env: { RATE_LIMIT_FACTOR: '5' } });
const { signUpConfirmed, signIn, uniqueEmail, lastMail, linkIn, PASSWORD } = accountHelpers(t);

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

  it("speaks the reader's language as it is when read, and names the browser and system of a sign-in", async () => {
    const email = uniqueEmail('pt');
    const anonymous = new HttpClient(t().url);
    const signUp = await anonymous.post('/api/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, termsAccepted: true, locale: 'pt_br' });
    expect(signUp.status).toBe(201);
    const id = signUp.body.id as string;
    expect((await anonymous.post('/api/email-confirmations/', { token: linkIn((await lastMail(email)).text, '/email-confirmation/') })).status).toBe(200);
    const firefoxOnWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
    const http = new HttpClient(t().url, firefoxOnWindows);
    expect((await http.post('/api/sessions/', { email, password: PASSWORD })).status).toBe(200);
    const password = 'Outra-senha-55';
    const changed = await http.put(`/api/users/${id}/password`, { currentPassword: PASSWORD, password, passwordConfirmation: password });
    expect(changed.status).toBe(204);
    const written = changed.headers.get('x-event-position')!;
    expect(written).toBeTruthy();

    // read once the read models have the password change
    const list = async () =>
      (await http.request('GET', `/api/users/${id}/notifications/`, undefined, { 'x-min-position': written })).body.data as {
        type: string;
        title: string;
        body: string;
      }[];
    expect(await list()).toEqual([
      expect.objectContaining({ type: 'password_changed', title: 'Senha alterada', body: 'A senha da sua conta foi alterada.' }),
      expect.objectContaining({ type: 'sign_in', title: 'Novo acesso', body: 'Um novo acesso à sua conta (Firefox no Windows).' }),
    ]);
    expect(JSON.stringify(await list())).not.toContain('Mozilla');

    expect((await http.put(`/api/users/${id}/account`, { locale: 'nl' })).status).toBe(200);
    expect((await list()).map((n) => n.title)).toEqual(['Wachtwoord gewijzigd', 'Nieuwe aanmelding']);
    expect((await list())[1]!.body).toBe('Een nieuwe aanmelding op je account vanaf Firefox op Windows.');
  });

  it('keeps each user to their own list', async () => {
    const a = await signUpConfirmed();
    const b = await signUpConfirmed();
    const { http } = await signIn(a.email);
    expect((await http.get(`/api/users/${b.id}/notifications/`)).status).toBe(403);
    expect((await http.post(`/api/users/${a.id}/notifications/`, { ids: [] })).body.code).toBe('NOTIFICATION_IDS_REQUIRED');
  });
});
