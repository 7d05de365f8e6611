import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { HttpClient, useTestApp } from '../testing/harness';

const t = useTestApp();

describe('the HTTP surface', () => {
  it('reports adapters, the event-store head and every projection with its position and lag', async () => {
    const res = await new HttpClient(t().url).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body.adapters).toEqual({ database: 'external', eventStore: 'postgres', processes: 'embedded', mail: 'dev', blobs: 'local' });
    const names = res.body.projections.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['users', 'mail_outbox', 'notifications']));
    for (const p of res.body.projections) expect(p).toMatchObject({ running: true, lastError: null, behind: expect.any(Number), lagMs: expect.any(Number) });
  });

  it('serves an OpenAPI document generated from the route schemas, and a browsable UI', async () => {
    const http = new HttpClient(t().url);
    const doc = await http.get('/api/docs/json');
    expect(doc.body.openapi).toMatch(/^3\./);
    const signUp = doc.body.paths['/api/users/'].post;
    expect(signUp.requestBody.content['application/json'].schema.properties).toHaveProperty('passwordConfirmation');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/api/sessions/', '/api/admin/users/', '/api/health']));
    const ui = await fetch(`${t().url}/api/docs/`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
  });

  it('answers unknown API paths with the error shape, not a page', async () => {
    const res = await new HttpClient(t().url).get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', data: null });
  });

  it('echoes a correlation id on every answer', async () => {
    const res = await new HttpClient(t().url).request('GET', '/api/health', undefined, { 'x-correlation-id': 'abc-123-correlation' });
    expect(res.headers.get('x-correlation-id')).toBe('abc-123-correlation');
  });

  it('rate-limits password reset requests for one account', async () => {
    const http = new HttpClient(t().url);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await http.post('/api/password-resets/', { email: 'limit.me@example.com' })).status);
    // three reset mails a minute per account, whoever asks
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
    const limited = await http.post('/api/password-resets/', { email: 'limit.me@example.com' });
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('sends security headers', async () => {
    const res = await fetch(`${t().url}/api/health`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });
});

describe('configuration', () => {
  it('stops the start with a message naming each bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', ACCOUNT_RETENTION_DAYS: '-1' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', EVENTSTORE_URL: 'http://x', TEMPORAL_ADDRESS: 'nohost' });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('EVENTSTORE_URL');
      expect(message).toContain('TEMPORAL_ADDRESS');
    }
  });
  it('has sensible defaults', () => {
    expect(loadConfig({})).toMatchObject({ PORT: 8080, ACCOUNT_RETENTION_DAYS: 30, publicUrl: 'http://localhost:8080' });
  });
});
