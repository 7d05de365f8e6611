import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { type HttpClient, useTestApp } from '../../testing/harness';

const DAY = 24 * 60 * 60 * 1000;

const t = useTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });

const helpers = accountHelpers(t);
const buyer = async () => {
  const { email, id } = await helpers.signUpConfirmed();
  return { http: (await helpers.signIn(email)).http, id, email };
};

const createCode = async (numberOfUses: number) => {
  const staff = (await helpers.signIn('root@axel.test', 'Root-pass-123')).http;
  const code = `LIMIT${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1e6)}`;
  const created = await staff.post('/api/admin/promocodes/', {
    code,
    title: 'Limited',
    productIds: [200],
    discount: { amount: 50, unit: 'percent' },
    numberOfUses,
    startDate: new Date(t().clock.now().getTime() - DAY).toISOString(),
    expiryDate: new Date(t().clock.now().getTime() + 30 * DAY).toISOString(),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { code, staff };
};

const start = (http: HttpClient, id: string, promoCode: string) => http.post(`/api/users/${id}/products/`, { productId: 200, promoCode });
const sessionOf = (checkoutLink: string) => encodeURIComponent(decodeURIComponent(new URL(checkoutLink).pathname.slice('/dev/checkout/'.length)));

describe('a promo code with a use limit under parallel checkouts', () => {
  it('of six checkouts started at once with a code for two, exactly two get it; a declined one frees its use, a paid one keeps it', async () => {
    const { code, staff } = await createCode(2);
    const buyers: Awaited<ReturnType<typeof buyer>>[] = [];
    for (let i = 0; i < 6; i++) buyers.push(await buyer());

    const answers = await Promise.all(buyers.map((b) => start(b.http, b.id, code)));
    const won = answers.flatMap((a, i) => (a.status === 201 ? [{ ...buyers[i]!, link: a.body.checkoutLink as string }] : []));
    expect(won).toHaveLength(2);
    for (const refused of answers.filter((a) => a.status !== 201)) expect(refused.body).toMatchObject({ code: 5015, message: 'Promo code quota reached' });
    const late = await buyer();
    expect((await start(late.http, late.id, code)).body.code).toBe(5015);
    expect((await staff.get(`/api/admin/promocodes/${code}`)).body).toMatchObject({ usedTimes: 0, heldUses: 2 });
    // a spelling no code can have names no stream
    expect((await start(late.http, late.id, 'no such/code')).body.code).toBe(5007);

    // the first declines: its use is free again, and someone else takes it
    const [first, second] = won as [(typeof won)[number], (typeof won)[number]];
    expect((await first.http.post(`/api/dev/checkout/${sessionOf(first.link)}/decline`)).status).toBe(200);
    const retaken = await start(late.http, late.id, code);
    expect(retaken.status, JSON.stringify(retaken.body)).toBe(201);

    // the second pays: its use counts as used, and the code stays full
    const paid = await second.http.post(`/api/dev/checkout/${sessionOf(second.link)}/pay`);
    expect(paid.body).toMatchObject({ status: 'paid' });
    expect((await second.http.get(`/api/users/${second.id}/payments/`)).body.data[0]).toMatchObject({ amount: 1000, promoCode: code });
    expect((await start(first.http, first.id, code)).body.code).toBe(5015);
    expect((await staff.get(`/api/admin/promocodes/${code}`)).body).toMatchObject({ usedTimes: 1, heldUses: 1 });
  });

  it('fifteen checkouts at once by one buyer on a code for three: exactly three get it, none fails', async () => {
    const { code } = await createCode(3);
    const b = await buyer();
    const answers = await Promise.all(Array.from({ length: 15 }, () => start(b.http, b.id, code)));
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(3).fill(201), ...Array(12).fill(400)]);
    for (const refused of answers.filter((a) => a.status === 400)) expect(refused.body.code).toBe(5015);
  });

  it('a checkout left open holds its use for a day; then the use is free, and the old checkout cannot be paid', async () => {
    const { code } = await createCode(1);
    const a = await buyer();
    const b = await buyer();
    const held = await start(a.http, a.id, code);
    expect(held.status).toBe(201);
    expect((await start(b.http, b.id, code)).body.code).toBe(5015);
    t().clock.advance(DAY + 61 * 60 * 1000);
    try {
      const a2 = (await helpers.signIn(a.email)).http;
      const b2 = (await helpers.signIn(b.email)).http;
      const refused = await a2.post(`/api/dev/checkout/${sessionOf(held.body.checkoutLink)}/pay`);
      expect(refused.body).toMatchObject({ code: 'CHECKOUT_EXPIRED' });
      expect((await a2.get(`/api/users/${a.id}/subscriptions/`)).body).toEqual([]);
      const taken = await start(b2, b.id, code);
      expect(taken.status, JSON.stringify(taken.body)).toBe(201);
      expect((await b2.post(`/api/dev/checkout/${sessionOf(taken.body.checkoutLink)}/pay`)).body).toMatchObject({ status: 'paid' });
    } finally {
      t().clock.advance(-(DAY + 61 * 60 * 1000));
    }
  });
});
