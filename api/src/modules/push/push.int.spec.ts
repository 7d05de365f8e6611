import { createDecipheriv, createECDH, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { secureFetchStreamName } from '@axel/domain';
import { expected, metadataFor, newId } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { useTestApp } from '../../testing/harness';

/** What the stand-ins (a browser push service, a Slack incoming webhook) received. */
interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}
const received: Received[] = [];
let standIn: Server;
let standInUrl = '';
/** Answer of the push service stand-in for a path (201 unless told: 410 says the subscription ended). */
const answers = new Map<string, number>();

beforeAll(async () => {
  standIn = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = answers.get(req.url ?? '') ?? 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  standInUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => standIn.close(() => resolve())));

const SLACK_SECRET = 'slack-signing-secret-for-tests';
const t = useTestApp({ env: { PUSH_SERVICE_HOSTS: '127.0.0.1', SLACK_WEBHOOK_HOSTS: '127.0.0.1', SLACK_SIGNING_SECRET: SLACK_SECRET } });
const { uniqueEmail, signUpConfirmed, signIn } = accountHelpers(t);

/** A browser's side of a push subscription: its P-256 key pair and auth secret (RFC 8291). */
const browserSubscription = (path: string) => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    json: { endpoint: `${standInUrl}${path}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
    /** Decrypts an aes128gcm message as the browser does. */
    decrypt(body: Buffer): string {
      const salt = body.subarray(0, 16);
      const idLength = body[20]!;
      const serverKey = body.subarray(21, 21 + idLength);
      const ciphertext = body.subarray(21 + idLength);
      const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();
      const secret = ecdh.computeSecret(serverKey);
      const ikm = hmac(hmac(auth, secret), Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverKey, Buffer.from([1])]));
      const prk = hmac(salt, ikm);
      const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
      const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
      const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
      let end = padded.length - 1;
      while (padded[end] === 0) end--;
      expect(padded[end]).toBe(2); // the last record's delimiter
      return padded.subarray(0, end).toString('utf8');
    },
  };
};

const arrivalAt = async (path: string, count = 1): Promise<Received[]> => {
  for (let i = 0; i < 300; i++) {
    const hits = received.filter((r) => r.path === path);
    if (hits.length >= count) return hits;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing reached ${path}`);
};

const user = async (email = uniqueEmail()) => {
  const { id } = await signUpConfirmed(email);
  const { http } = await signIn(email);
  return { http, email, id };
};

describe('web push', () => {
  it('binds a browser subscription and pushes a new notice to it, encrypted for that browser and signed with the server VAPID key', async () => {
    const me = await user();
    const path = `/push/${randomUUID()}`;
    const browser = browserSubscription(path);
    const { publicKey } = (await me.http.get('/api/push/vapid-public-key')).body;
    // the spec's fcmToken, as the JSON text of the browser's PushSubscription
    const bound = await me.http.post(`/api/users/${me.id}/fcm-tokens/`, { fcmToken: JSON.stringify(browser.json) });
    expect([bound.status, bound.body]).toEqual([200, { bound: true }]);

    // a new sign-in is a notice of the account
    await signIn(me.email);
    const [push] = await arrivalAt(path);
    expect(push!.headers['content-encoding']).toBe('aes128gcm');
    expect(String(push!.headers.authorization)).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`));
    const message = JSON.parse(browser.decrypt(push!.body));
    expect(message).toMatchObject({ type: 'sign_in', title: expect.any(String), body: expect.any(String) });
    const listed = (await me.http.get(`/api/users/${me.id}/notifications/`)).body.data;
    expect(listed.map((n: { id: string }) => n.id)).toContain(message.id);
  });

  it('drops a subscription its push service says has ended, and refuses one that points elsewhere', async () => {
    const me = await user();
    const path = `/push/${randomUUID()}`;
    answers.set(path, 410);
    const browser = browserSubscription(path);
    expect((await me.http.post(`/api/users/${me.id}/fcm-tokens/`, { fcmToken: browser.json })).body).toEqual({ bound: true });
    await signIn(me.email);
    await arrivalAt(path);
    for (let i = 0; i < 100; i++) {
      const { rows } = await t().app.ctx.pool.query('select 1 from push_subscriptions where endpoint = $1', [browser.json.endpoint]);
      if (!rows.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await t().app.ctx.pool.query('select 1 from push_subscriptions where endpoint = $1', [browser.json.endpoint])).rows).toEqual([]);

    const elsewhere = { ...browser.json, endpoint: 'https://internal.example.net/hook' };
    const refused = await me.http.post(`/api/users/${me.id}/fcm-tokens/`, { fcmToken: elsewhere });
    expect([refused.status, refused.body.code]).toEqual([400, 'INTEGRATION_DESTINATION_REFUSED']);
    const garbage = await me.http.post(`/api/users/${me.id}/fcm-tokens/`, { fcmToken: 'not a subscription' });
    expect(garbage.status).toBe(400);
  });

  it('gives an unpaid user no binding', async () => {
    const me = await user();
    await t().app.ctx.pool.query(`update users set status = 'unpaid' where id = $1`, [me.id]);
    const browser = browserSubscription(`/push/${randomUUID()}`);
    expect((await me.http.post(`/api/users/${me.id}/fcm-tokens/`, { fcmToken: browser.json })).body).toEqual({ bound: false });
    expect((await t().app.ctx.pool.query('select 1 from push_subscriptions where user_id = $1', [me.id])).rows).toEqual([]);
  });
});

describe('Slack', () => {
  const slackCommand = (body: string, secret = SLACK_SECRET) => {
    const ts = String(Math.floor(t().clock.now().getTime() / 1000));
    const signature = `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`;
    return fetch(`${t().url}/api/slack/commands`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': ts, 'x-slack-signature': signature },
      body,
    });
  };

  it('links a Slack user through the signed link its command answers, and posts arrivals to the webhook the user sets', async () => {
    const me = await user();
    const slackUserId = `U${randomBytes(5).toString('hex').toUpperCase()}`;
    expect((await slackCommand(`user_id=${slackUserId}&command=%2Faxel`, 'forged-secret')).status).toBe(401);
    const answer = await slackCommand(`token=x&user_id=${slackUserId}&command=%2Faxel`);
    expect(answer.status).toBe(200);
    const { text } = (await answer.json()) as { text: string };
    const link = new URL(text.match(/https?:\/\/\S+/)![0]);
    expect(link.pathname).toBe(`/slack-auth/${slackUserId}`);
    const linkBody = { slackUserId, expires: link.searchParams.get('expires'), signature: link.searchParams.get('signature') };

    // the link names one Slack user: it cannot be bent to another
    const bent = await me.http.post(`/api/users/${me.id}/slack/`, { ...linkBody, slackUserId: 'UOTHER123' });
    expect([bent.status, bent.body.code]).toEqual([400, 'SSO_STATE_INVALID']);
    const linked = await me.http.post(`/api/users/${me.id}/slack/`, linkBody);
    expect([linked.status, linked.body]).toEqual([200, { slackUserId, webhookUrl: null }]);

    const hookPath = `/slack/${randomUUID()}`;
    const refused = await me.http.put(`/api/users/${me.id}/slack/webhook`, { webhookUrl: 'https://evil.example.com/hook' });
    expect([refused.status, refused.body.code]).toEqual([400, 'INTEGRATION_DESTINATION_REFUSED']);
    const hook = await me.http.put(`/api/users/${me.id}/slack/webhook`, { webhookUrl: `${standInUrl}${hookPath}` });
    expect([hook.status, hook.body.webhookUrl]).toEqual([200, `${standInUrl}${hookPath}`]);

    // files arrive through one of the user's Secure Fetch links
    const { store, registry } = t().app.ctx;
    const event = registry.encode({
      type: 'SecureFetchSubmitted',
      data: {
        ownerId: me.id,
        storageId: randomUUID(),
        folderId: randomUUID(),
        itemIds: [randomUUID(), randomUUID()],
        totalSize: 10,
        files: [],
        metadata: null,
        submittedAt: t().clock.now().toISOString(),
      },
    });
    await store.append(
      secureFetchStreamName(randomUUID()),
      [{ id: newId(), ...event, metadata: metadataFor({ actorId: 'anonymous', actorKind: 'anonymous' }, t().clock.now()) }],
      expected.any,
    );
    const [post] = await arrivalAt(hookPath);
    expect(post!.headers['content-type']).toBe('application/json');
    const notices = (await me.http.get(`/api/users/${me.id}/notifications/`)).body.data as { type: string; title: string; body: string }[];
    const arrival = notices.find((n) => n.type === 'secure_fetch_files_arrived')!;
    expect(JSON.parse(post!.body.toString()).text).toContain(arrival.title);

    // a sign-in notice is not for Slack
    await signIn(me.email);
    await new Promise((r) => setTimeout(r, 2500));
    expect(received.filter((r) => r.path === hookPath)).toHaveLength(1);
  });
});
