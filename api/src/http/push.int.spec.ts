import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../testing/accounts';
import { useTestApp } from '../testing/harness';

const t = useTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123' } });
const { signUpConfirmed, signIn } = accountHelpers(t);

/** Collects server-sent events from a response body; `next(type)` waits for one of that type. */
const sseReader = (body: ReadableStream<Uint8Array>) => {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const seen: { event: string; data: unknown }[] = [];
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = frame
          .split('\n')
          .find((l) => l.startsWith('event: '))
          ?.slice(7);
        const data = frame
          .split('\n')
          .find((l) => l.startsWith('data: '))
          ?.slice(6);
        if (event) seen.push({ event, data: data ? JSON.parse(data) : null });
      }
    }
  })().catch(() => undefined);
  return {
    async next(event: string, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = seen.find((e) => e.event === event);
        if (found) return found.data;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`no ${event} event; saw ${seen.map((e) => e.event).join(', ')}`);
    },
    close: async () => {
      await reader.cancel().catch(() => undefined);
      await pump;
    },
  };
};

describe('push to the signed-in browser', () => {
  it('tells an open session it was suspended', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const cookie = `axel_session=${(http as unknown as { cookies: Map<string, string> }).cookies.get('axel_session')}`;
    const stream = await fetch(`${t().url}/api/users/${id}/push`, { headers: { cookie, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const events = sseReader(stream.body!);
    await events.next('ready');
    const admin = (await signIn('root@axel.test', 'Root-pass-123')).http;
    expect((await admin.post(`/api/admin/users/${id}/suspend`)).status).toBe(200);
    expect(await events.next('user.suspended')).toEqual({ code: 'USER_SUSPENDED' });
    await events.close();
  });
});
