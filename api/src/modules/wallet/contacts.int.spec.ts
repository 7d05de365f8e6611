import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { useTestApp } from '../../testing/harness';

const t = useTestApp({ env: { RATE_LIMIT_FACTOR: '10' } });

const helpers = accountHelpers(t);
const signedIn = async () => {
  const { email, id } = await helpers.signUpConfirmed();
  const { http } = await helpers.signIn(email);
  return { http, email, id };
};
const key = (n: number) => `y${String(n).padStart(33, '0')}`;

describe('contacts', () => {
  it('adds, lists, edits and removes contacts, for their owner only', async () => {
    const me = await signedIn();
    const path = `/api/users/${me.id}/contacts/`;
    expect((await me.http.get(path)).body).toEqual({ data: [], total: 0 });
    const added = await me.http.post(path, {
      nickname: 'Ada',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'Ada@Example.com',
      phone: '+44 20 7946 0000',
      publicKey: key(1),
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      nickname: 'Ada',
      email: 'ada@example.com',
      phone: '+44 20 7946 0000',
      publicKey: key(1),
      active: true,
      middleName: null,
    });
    await me.http.post(path, { nickname: 'Babbage', email: 'charles@example.com', publicKey: key(2) });
    expect((await me.http.get(path)).body.data.map((c: { nickname: string }) => c.nickname)).toEqual(['Ada', 'Babbage']);

    const edited = await me.http.put(`${path}${added.body.id}`, { ...added.body, id: undefined, active: undefined, nickname: 'Countess' });
    expect(edited.status).toBe(200);
    expect(edited.body.nickname).toBe('Countess');

    const other = await signedIn();
    expect((await other.http.get(path)).status).toBe(403);
    expect((await other.http.post(path, { nickname: 'X', email: 'x@example.com', publicKey: key(9) })).status).toBe(403);

    expect((await me.http.delete(`${path}${added.body.id}`)).status).toBe(204);
    expect((await me.http.delete(`${path}${added.body.id}`)).body.code).toBe('CONTACT_NOT_FOUND');
    expect((await me.http.get(path)).body.total).toBe(1);
  });

  it('checks the contact rules with their codes', async () => {
    const me = await signedIn();
    const path = `/api/users/${me.id}/contacts/`;
    const missing = await me.http.post(path, {});
    expect(missing.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      data: { fields: { nickname: 'validation.required', email: 'validation.required', publicKey: 'validation.required' } },
    });
    const formats = await me.http.post(path, { nickname: 'A', email: 'not-an-email', phone: 'call me', publicKey: 'short' });
    expect(formats.body.data.fields).toEqual({ email: 'validation.email', phone: 'validation.phone', publicKey: 'validation.publicKeyLength' });
    expect((await me.http.post(path, { nickname: 'Me', email: me.email.toUpperCase(), publicKey: key(1) })).body.code).toBe('CONTACT_OWN_EMAIL');
    const { body: wallet } = await me.http.post('/api/wallet/v1/addresses', {});
    expect((await me.http.post(path, { nickname: 'Me', email: 'me2@example.com', publicKey: wallet.addresses[1].address })).body.code).toBe('CONTACT_OWN_KEY');
    await me.http.post(path, { nickname: 'Ada', email: 'ada@example.com', publicKey: key(1) });
    const dupEmail = await me.http.post(path, { nickname: 'Ada 2', email: 'ADA@example.com', publicKey: key(2) });
    expect(dupEmail.status).toBe(409);
    expect(dupEmail.body.code).toBe('CONTACT_DUPLICATE_EMAIL');
    expect((await me.http.post(path, { nickname: 'Ada 3', email: 'ada3@example.com', publicKey: key(1) })).body.code).toBe('CONTACT_DUPLICATE_KEY');
  });
});

describe('a purged account', () => {
  it('forgets its contacts: their fields read as erased in the log', async () => {
    const me = await signedIn();
    const path = `/api/users/${me.id}/contacts/`;
    const nickname = `Forget me ${Date.now()}`;
    await me.http.post(path, { nickname, email: 'forget@example.com', publicKey: key(7) });
    const { forgetWalletData } = await import('./forget');
    const actor = { actorId: 'account-deletion:test', actorKind: 'process' as const, now: new Date() };
    await forgetWalletData(t().app.ctx, me.id, actor);
    await forgetWalletData(t().app.ctx, me.id, actor);
    const { events } = await t().app.ctx.store.readStream(`contacts-${me.id}`);
    expect(events.map((e) => e.type)).toEqual(['ContactAdded', 'ContactsForgotten']);
    expect(events[0]!.data).toMatchObject({ nickname: '[erased]', email: '[erased]', publicKey: '[erased]' });
    expect((await me.http.get(path)).body).toEqual({ data: [], total: 0 });
  });
});
