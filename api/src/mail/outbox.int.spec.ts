import { ERASED } from '@axel/domain';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../testing/accounts';
import { HttpClient, useTestApp } from '../testing/harness';

const t = useTestApp();
const { uniqueEmail, lastMail, linkIn, signUpConfirmed, signIn } = accountHelpers(t);

const allDelivered = async () => {
  for (let i = 0; i < 100; i++) {
    const { rows } = await t().app.ctx.pool.query<{ n: number }>("select count(*)::int as n from mail_outbox where status = 'pending'");
    if (rows[0]!.n === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('mail still pending');
};

describe('the mail outbox', () => {
  it('forgets the body of a delivered mail (links, tokens, codes); the development mailbox still has it, its link working', async () => {
    const email = uniqueEmail('outbox');
    const http = new HttpClient(t().url);
    const signUp = await http.post('/api/users/', { email, password: 'Secret-pass-1', passwordConfirmation: 'Secret-pass-1', termsAccepted: true });
    expect(signUp.status).toBe(201);
    const confirmation = linkIn((await lastMail(email, 'Confirm your e-mail address')).text, '/email-confirmation/');

    const other = await signUpConfirmed();
    expect((await http.post('/api/password-resets/', { email: other.email })).status).toBe(202);
    const reset = linkIn((await lastMail(other.email, 'Reset your password')).text, '/reset-password/');
    const { http: signedIn } = await signIn(other.email);
    expect((await signedIn.post(`/api/users/${other.id}/two-factor/email-code`)).status).toBe(202);
    const code = (await lastMail(other.email, 'Your verification code')).text.match(/\b(\d{6})\b/)![1]!;

    await allDelivered();
    const { rows } = await t().app.ctx.pool.query<{ row: string; status: string; recipient: string }>(
      'select row_to_json(o)::text as row, status, recipient from mail_outbox o where user_id = any($1)',
      [[signUp.body.id, other.id]],
    );
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const { row, status, recipient } of rows) {
      expect(status).toBe('delivered');
      // the address went with the mail: its event and the outbox both forgot it
      expect(recipient).toBe(ERASED);
      expect(row).not.toMatch(/https?:\/\//);
      for (const secret of [confirmation, confirmation.split('.')[1]!, reset, reset.split('.')[1]!, code]) expect(row).not.toContain(secret);
    }

    // the confirmation link read from the development mailbox after delivery still works
    expect((await http.post('/api/email-confirmations/', { token: confirmation })).status).toBe(200);
  });

  it('shows the development mailbox as a page with the link clickable', async () => {
    const email = uniqueEmail('page');
    const http = new HttpClient(t().url);
    expect((await http.post('/api/users/', { email, password: 'Secret-pass-1', passwordConfirmation: 'Secret-pass-1', termsAccepted: true })).status).toBe(201);
    const token = linkIn((await lastMail(email)).text, '/email-confirmation/');
    await allDelivered();
    const page = await http.get('/dev/mailbox');
    expect(page.status).toBe(200);
    expect(page.body).toContain(`href="${t().url}/email-confirmation/${token}"`);
  });
});
