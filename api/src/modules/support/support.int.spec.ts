import { randomBytes, randomUUID } from 'node:crypto';
import { SUPPORT_ATTACHMENT_MAX_BYTES, teamStreamName } from '@axel/domain';
import { expected, metadataFor, newId } from '@axel/platform';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { useTestApp, type HttpClient } from '../../testing/harness';

const SUPPORT = 'help.desk@example.com';
const t = useTestApp({ env: { SUPPORT_EMAIL: SUPPORT } });
const { signUpConfirmed, signIn, lastMail, mailCount, uniqueEmail } = accountHelpers(t);

const user = async (email = uniqueEmail()) => {
  const { id } = await signUpConfirmed(email);
  const { http } = await signIn(email);
  return { http, email, id };
};

/** A multipart POST as a browser's FormData sends it, with the session and CSRF header of `http`. */
const postForm = async (http: HttpClient, path: string, form: FormData) => {
  const body = new Response(form);
  const bytes = new Uint8Array(await body.arrayBuffer());
  return http.request('POST', path, bytes, { 'content-type': body.headers.get('content-type')! });
};

interface DevMail {
  id: string;
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string; size: number; url: string }[];
}
const supportMails = async (): Promise<DevMail[]> => (await (await fetch(`${t().url}/api/dev/mailbox?to=${SUPPORT}`)).json()) as DevMail[];
const supportMailWith = async (marker: string): Promise<DevMail> => {
  for (let i = 0; i < 200; i++) {
    const mail = (await supportMails()).find((m) => m.text.includes(marker));
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no support mail with ${marker}`);
};

describe('contact support', () => {
  it('mails support the form with its attachment, which the development mailbox shows and serves byte for byte', async () => {
    const me = await user();
    const marker = randomUUID();
    const content = randomBytes(200_000);
    const form = new FormData();
    form.set('email', 'reply.here@example.com');
    form.set('subject', '  Cannot open my invoice ');
    form.set('text', `The PDF is blank. ${marker}`);
    form.set('support_attachment', new Blob([content], { type: 'application/pdf' }), 'invoice 7.pdf');
    const res = await postForm(me.http, `/api/users/${me.id}/support/`, form);
    expect(res.status, JSON.stringify(res.body)).toBe(202);

    const mail = await supportMailWith(marker);
    expect(mail.subject).toBe('Support request');
    expect(mail.text).toContain('Subject: Cannot open my invoice');
    expect(mail.text).toContain(`reply.here@example.com (account ${me.id})`);
    expect(mail.attachments).toEqual([{ filename: 'invoice 7.pdf', contentType: 'application/pdf', size: content.length, url: expect.any(String) }]);
    const file = await fetch(t().url + mail.attachments[0]!.url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(content)).toBe(true);

    // the queued copy is gone once delivered: only the recipient's mailbox keeps it
    const { rows } = await t().app.ctx.pool.query('select 1 from mail_attachments where mail_id = $1', [mail.id]);
    expect(rows).toEqual([]);
  });

  it('without an attachment, and as JSON, the account address is the reply address', async () => {
    const me = await user();
    const marker = randomUUID();
    const res = await me.http.post(`/api/users/${me.id}/support/`, { subject: 'Question', text: marker });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const mail = await supportMailWith(marker);
    expect(mail.text).toContain(`${me.email} (account ${me.id})`);
    expect(mail.attachments).toEqual([]);
  });

  it('refuses a missing subject or message, and an attachment over 15 MB, queueing nothing', async () => {
    const me = await user();
    const before = await mailCount(SUPPORT);
    const blank = new FormData();
    blank.set('subject', '   ');
    blank.set('text', '');
    const res = await postForm(me.http, `/api/users/${me.id}/support/`, blank);
    expect([res.status, res.body.code, res.body.data]).toEqual([
      400,
      'VALIDATION_FAILED',
      { fields: { subject: 'validation.required', text: 'validation.required' } },
    ]);

    const big = new FormData();
    big.set('subject', 'Big');
    big.set('text', 'A big file');
    big.set('support_attachment', new Blob([new Uint8Array(SUPPORT_ATTACHMENT_MAX_BYTES + 1)]), 'big.bin');
    const tooBig = await postForm(me.http, `/api/users/${me.id}/support/`, big);
    expect([tooBig.status, tooBig.body.code]).toEqual([413, 'ATTACHMENT_TOO_LARGE']);

    const broken = await me.http.request('POST', `/api/users/${me.id}/support/`, new TextEncoder().encode('--x\r\nnonsense'), {
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect([broken.status, broken.body.code]).toEqual([400, 'VALIDATION_FAILED']);

    // another user's id: refused before anything is read
    const other = await user();
    const form = new FormData();
    form.set('subject', 's');
    form.set('text', 't');
    expect((await postForm(other.http, `/api/users/${me.id}/support/`, form)).status).toBe(403);
    expect(await mailCount(SUPPORT)).toBe(before);
  });
});

describe('contact the owner of my team', () => {
  /** A team owned by `ownerId` that `memberIds` joined, written as the teams context records it. */
  const team = async (ownerId: string, memberIds: string[]) => {
    const { store, registry } = t().app.ctx;
    const teamId = randomUUID();
    const metadata = metadataFor({ actorId: ownerId, actorKind: 'user' }, t().clock.now());
    const events = [
      registry.encode({ type: 'TeamCreated', data: { teamId, ownerId, planKind: 'team' } }),
      ...memberIds.map((userId) => registry.encode({ type: 'TeamMemberJoined', data: { memberId: randomUUID(), userId, via: 'link', quotaBytes: 0 } })),
    ];
    const { position } = await store.append(
      teamStreamName(teamId),
      events.map((e) => ({ id: newId(), ...e, metadata })),
      expected.noStream,
    );
    await t().app.ctx.runner.waitFor(position, { timeoutMs: 10_000 });
  };

  it('a member writes to the owner, in the owner’s mailbox; nobody else can be written to this way', async () => {
    const owner = await user();
    const member = await user();
    const stranger = await user();
    await team(owner.id, [member.id]);

    const marker = randomUUID();
    const res = await member.http.post(`/api/users/${member.id}/emails/`, { receiverId: owner.id, subject: 'More space', text: `Please. ${marker}` });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const mail = await lastMail(owner.email, 'A message from a member of your team');
    expect(mail.text).toContain(member.email);
    expect(mail.text).toContain('Subject: More space');
    expect(mail.text).toContain(marker);

    for (const [who, receiverId] of [
      [stranger, owner.id],
      [owner, member.id],
      [member, member.id],
      [member, 'no-such-user'],
    ] as const) {
      const refused = await who.http.post(`/api/users/${who.id}/emails/`, { receiverId, subject: 's', text: 't' });
      expect([refused.status, refused.body.code]).toEqual([403, 'RECEIVER_NOT_YOUR_ADMIN']);
    }
    const blank = await member.http.post(`/api/users/${member.id}/emails/`, { receiverId: owner.id, subject: '', text: 't' });
    expect([blank.status, blank.body.data]).toEqual([400, { fields: { subject: 'validation.required' } }]);
    expect(await mailCount(stranger.email)).toBe(1);
  });
});
