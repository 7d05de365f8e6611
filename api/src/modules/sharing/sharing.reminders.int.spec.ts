import { EmbeddedProcessRuntime } from '@axel/workflows';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { useTestApp } from '../../testing/harness';
import { MemoryBytes } from '../files/storage.testing';

const DAY = 24 * 60 * 60 * 1000;
const SUBJECT = 'Your share expires soon';

const bytes = new MemoryBytes();
const t = useTestApp({ env: { RATE_LIMIT_FACTOR: '10' }, bytes: { uploads: bytes, content: bytes } });
const { signUpConfirmed, signIn, mailCount, lastMail } = accountHelpers(t);

const runtime = () => {
  const rt = t().app.ctx.processes();
  if (!(rt instanceof EmbeddedProcessRuntime)) throw new Error('expected the embedded runtime');
  return rt;
};

/** Moves the test clock to `at` and runs every process timer due by then. */
const advanceTo = async (at: number) => {
  const ms = at - t().clock.now().getTime();
  if (ms > 0) t().clock.advance(ms);
  await runtime().fireDueTimers();
  await runtime().whenIdle();
};

/** Mails about expiring shares, once the outbox has delivered what it will. */
const reminderMails = async (email: string, expected: number) => {
  let mails: { subject: string; text: string }[] = [];
  for (let i = 0; i < 60; i++) {
    mails = ((await (await fetch(`${t().url}/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as typeof mails).filter((m) => m.subject === SUBJECT);
    if (mails.length >= expected) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return mails;
};

describe('share expiry reminders', () => {
  it('mails and notifies the owner 7, 3 and 1 days before; an edit moves them; revocation ends them', async () => {
    const { email, id } = await signUpConfirmed();
    let { http } = await signIn(email);
    const storageId = (await http.get(`/api/users/${id}/storages/`)).body.data[0].id as string;
    const uploadId = bytes.upload(id, storageId, 'report');
    const fileId = (await http.post(`/api/users/${id}/storages/${storageId}/items/`, { label: 'file', name: 'report.txt', uploadId })).body.id as string;
    const start = t().clock.now().getTime();
    const expiresAt = new Date(start + 10 * DAY).toISOString();
    const share = (await http.post('/api/shares/', { itemIds: [fileId], title: 'Quarterly report', downloadable: true, expiresAt })).body;
    expect(share.expiresAt).toBe(expiresAt);
    await runtime().whenIdle();

    await advanceTo(start + 2.9 * DAY);
    expect(await reminderMails(email, 0)).toHaveLength(0);
    await advanceTo(start + 3.1 * DAY);
    const [seven] = await reminderMails(email, 1);
    expect(seven!.text).toContain('"Quarterly report" expires in 7 day(s)');
    expect(seven!.text).toContain(expiresAt.slice(0, 10));
    ({ http } = await signIn(email));
    const notices = (await http.get(`/api/users/${id}/notifications/`)).body;
    expect(JSON.stringify(notices)).toContain('One of your shares expires in 7 day(s)');

    // the owner moves the expiry by ten days: the 3-day reminder of the old date never comes
    const moved = new Date(start + 20 * DAY).toISOString();
    expect((await http.request('PATCH', `/api/shares/${share.id}/`, { expiresAt: moved })).status).toBe(200);
    await runtime().whenIdle();
    await advanceTo(start + 8 * DAY);
    expect(await reminderMails(email, 2)).toHaveLength(1);
    await advanceTo(start + 13.1 * DAY);
    const after = await reminderMails(email, 2);
    expect(after).toHaveLength(2);
    expect((await lastMail(email, SUBJECT)).text).toContain(moved.slice(0, 10));

    // revoked: no 3- or 1-day reminder
    ({ http } = await signIn(email));
    expect((await http.post(`/api/shares/${share.id}/revoke`)).status).toBe(200);
    await runtime().whenIdle();
    await advanceTo(start + 25 * DAY);
    await new Promise((r) => setTimeout(r, 300));
    expect(await reminderMails(email, 3)).toHaveLength(2);
    expect(await mailCount(email)).toBeGreaterThanOrEqual(3);
  });
});
