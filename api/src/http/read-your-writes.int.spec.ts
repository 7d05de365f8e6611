import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../testing/accounts';
import { HttpClient, useTestApp } from '../testing/harness';

const t = useTestApp({ env: { READ_YOUR_WRITES_TIMEOUT_MS: '300' } });
const { signUpConfirmed, signIn } = accountHelpers(t);

describe('read-your-writes', () => {
  it('tells where a write landed, and a later read that names that position sees it', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const write = await http.put(`/api/users/${id}/profile`, { city: 'Lisboa' });
    const position = Number(write.headers.get('x-event-position'));
    expect(position).toBeGreaterThan(0);
    expect(Number((await http.get('/api/health')).body.eventStore.headPosition)).toBeGreaterThanOrEqual(position);
    const read = await http.request('GET', `/api/users/${id}/profile`, undefined, { 'x-min-position': String(position) });
    expect(read.body.city).toBe('Lisboa');
    expect(read.headers.get('x-event-position')).toBeNull();
  });

  it('waits no longer than the bound for a position never reached', async () => {
    const { http } = await signIn((await signUpConfirmed()).email);
    const started = Date.now();
    const res = await http.request('GET', '/api/health', undefined, { 'x-min-position': String(Number.MAX_SAFE_INTEGER) });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('never holds a caller without a live session, whatever position it names', async () => {
    const far = { 'x-min-position': String(Number.MAX_SAFE_INTEGER) };
    for (const cookie of [undefined, 'axel_session=forged-session-token-0123456789']) {
      const started = Date.now();
      const res = await new HttpClient(t().url).request('GET', '/api/health', undefined, cookie ? { ...far, cookie } : far);
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(200);
    }
  });
});
