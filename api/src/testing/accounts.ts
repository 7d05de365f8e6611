import { expect } from 'vitest';
import { HttpClient, type TestApp } from './harness';

/** Account steps shared by API tests: sign up through the dev mailbox, sign in. */
export const accountHelpers = (app: () => TestApp) => {
  let seq = 0;
  const uniqueEmail = (name = 'user') => `${name}.${Date.now().toString(36)}.${++seq}@example.com`;
  const PASSWORD = 'Secret-pass-1';

  /** The newest mail to an address (with that subject), from the development mailbox. */
  const lastMail = async (to: string, subject?: string) => {
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${app().url}/api/dev/mailbox?to=${encodeURIComponent(to)}`);
      const mails = (await res.json()) as { subject: string; text: string }[];
      const mail = mails.find((m) => !subject || m.subject === subject);
      if (mail) return mail;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no mail to ${to}${subject ? ` about "${subject}"` : ''}`);
  };
  const mailCount = async (to: string) => ((await (await fetch(`${app().url}/api/dev/mailbox?to=${encodeURIComponent(to)}`)).json()) as unknown[]).length;
  const linkIn = (text: string, path: string) => {
    const m = text.match(new RegExp(`https?://[^\\s]+${path}([^\\s]+)`));
    if (!m) throw new Error(`no ${path} link in ${text}`);
    return decodeURIComponent(m[1]!);
  };

  const signUpConfirmed = async (email = uniqueEmail()) => {
    const http = new HttpClient(app().url);
    const res = await http.post('/api/users/', { email, password: PASSWORD, passwordConfirmation: PASSWORD, termsAccepted: true });
    expect(res.status).toBe(201);
    const token = linkIn((await lastMail(email)).text, '/email-confirmation/');
    expect((await http.post('/api/email-confirmations/', { token })).status).toBe(200);
    return { http, email, id: res.body.id as string };
  };

  const signIn = async (email: string, password = PASSWORD, code?: string) => {
    const http = new HttpClient(app().url);
    const res = await http.post('/api/sessions/', { email, password, ...(code ? { code } : {}) });
    return { http, res };
  };

  /** A confirmed user, signed in, with the id of their online storage. */
  const signedInUser = async (email = uniqueEmail()) => {
    const { id } = await signUpConfirmed(email);
    const { http } = await signIn(email);
    const storages = await http.get(`/api/users/${id}/storages/`);
    expect(storages.status, JSON.stringify(storages.body)).toBe(200);
    return { http, email, id, storageId: storages.body.data[0].id as string };
  };

  /** A plan bought through the test checkout's own Pay call. */
  const buyPlan = async (http: HttpClient, userId: string, productId: number) => {
    const bought = await http.post(`/api/users/${userId}/products/`, { productId });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const sessionId = decodeURIComponent(new URL(bought.body.checkoutLink as string).pathname.slice('/dev/checkout/'.length));
    expect((await http.post(`/api/dev/checkout/${encodeURIComponent(sessionId)}/pay`)).status).toBe(200);
  };

  return { uniqueEmail, lastMail, mailCount, linkIn, signUpConfirmed, signIn, signedInUser, buyPlan, PASSWORD };
};
