import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, useTestApp } from '../testing/harness';

/**
 * A minimal SMTP receiver on a local port, speaking the protocol to the real SMTP transport (no
 * mail server runs on this machine). It keeps every message it accepts.
 */
const startSmtpReceiver = async () => {
  const messages: { from: string; to: string[]; data: string }[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    socket.write('220 receiver ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          messages.push(current);
          current = { from: '', to: [], data: '' };
          socket.write('250 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 receiver\r\n');
        else if (verb === 'MAIL') (current.from = line), socket.write('250 ok\r\n');
        else if (verb === 'RCPT') current.to.push(line), socket.write('250 ok\r\n');
        else if (verb === 'DATA') (inData = true), socket.write('354 go on\r\n');
        else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { messages, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
};

let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(async () => {
  await smtp?.close();
});
const t = useTestApp(() => ({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'AXEL Drive <no-reply@axel.test>' } }));

describe('mail over SMTP', () => {
  it('sends the confirmation mail through SMTP, records the delivery, keeps no body, and has no dev mailbox', async () => {
    const email = `smtp.${Date.now().toString(36)}@example.com`;
    const http = new HttpClient(t().url);
    const res = await http.post('/api/users/', { email, password: 'Secret-pass-1', passwordConfirmation: 'Secret-pass-1', termsAccepted: true });
    expect(res.status).toBe(201);
    for (let i = 0; i < 100 && !smtp.messages.length; i++) await new Promise((r) => setTimeout(r, 50));
    const message = smtp.messages.find((m) => m.to.some((r) => r.includes(email)))!;
    expect(message.from).toContain('no-reply@axel.test');
    expect(message.data).toMatch(/Subject: Confirm your e-mail address/);
    const link = message.data.replace(/=\r\n/g, '').match(/\/email-confirmation\/([\w.-]+)/)![1]!;
    expect((await http.post('/api/email-confirmations/', { token: link })).status).toBe(200);

    const { rows } = await t().app.ctx.pool.query(
      "select status, transport, body_text, recipient from mail_outbox where user_id = $1 and template = 'email-confirmation'",
      [res.body.id],
    );
    for (let i = 0; i < 50 && rows[0]?.status !== 'delivered'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      Object.assign(
        rows,
        (await t().app.ctx.pool.query('select status, transport, body_text, recipient from mail_outbox where user_id = $1', [res.body.id])).rows,
      );
    }
    expect(rows[0]).toEqual({ status: 'delivered', transport: 'smtp', body_text: null, recipient: '[erased]' });
    expect((await http.get('/api/dev/mailbox')).status).toBe(404);
    expect((await http.get('/api/health')).body.adapters.mail).toBe('smtp');
  });
});
