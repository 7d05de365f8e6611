import { describe, expect, it } from 'vitest';
import { devMailboxMode } from '../modules/dev-mailbox.route';
import { isLoopbackAddress, isLoopbackHost } from './loopback';
import { startTestApp, type TestApp, useTestApp } from '../testing/harness';

const MAILBOX_ROUTES = ['/api/dev/mailbox', '/dev/mailbox'];
const routesOf = (t: TestApp) => (t.app.server as unknown as { routeList: { method: string; url: string }[] }).routeList.map((r) => r.url);

describe('the development mailbox on a loopback HOST (the default), behind a trusted proxy', () => {
  const t = useTestApp({ roles: ['api'], env: { TRUST_PROXY: 'true' } });

  it('answers a client on this machine', async () => {
    for (const path of MAILBOX_ROUTES) expect((await fetch(`${t().url}${path}`)).status, path).toBe(200);
  });

  it('answers no other client: not a remote address, nor one a proxy forwards, nor one claiming 127.0.0.1', async () => {
    for (const url of MAILBOX_ROUTES) {
      for (const remoteAddress of ['203.0.113.7', '10.0.0.2', '::ffff:192.168.1.9', '2001:db8::1']) {
        const res = await t().app.server.inject({ method: 'GET', url, remoteAddress });
        expect(res.statusCode, `${url} from ${remoteAddress}`).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND', data: null });
      }
      const spoofed = await t().app.server.inject({ method: 'GET', url, remoteAddress: '203.0.113.7', headers: { 'x-forwarded-for': '127.0.0.1' } });
      expect(spoofed.statusCode).toBe(404);
      for (const headers of [
        { 'x-forwarded-for': '203.0.113.7' },
        { 'x-forwarded-for': '127.0.0.1, 203.0.113.7' },
        { forwarded: 'for=203.0.113.7' },
        { 'x-real-ip': '198.51.100.1' },
      ]) {
        const res = await fetch(`${t().url}${url}`, { headers });
        expect(res.status, `${url} ${JSON.stringify(headers)}`).toBe(404);
      }
      expect((await fetch(`${t().url}${url}`, { headers: { 'x-forwarded-for': '127.0.0.1' } })).status).toBe(200);
    }
  });

  it('sends HSTS only when the trusted proxy says the request came over https', async () => {
    expect((await fetch(`${t().url}/api/health`)).headers.get('strict-transport-security')).toBeNull();
    const https = await fetch(`${t().url}/api/health`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });
});

describe('the development mailbox on a HOST other machines reach', () => {
  it('is not served at all, and an https PUBLIC_URL brings HSTS', async () => {
    const t = await startTestApp({ roles: ['api'], env: { HOST: '0.0.0.0', PUBLIC_URL: 'https://drive.example.test' } });
    try {
      for (const path of MAILBOX_ROUTES) {
        expect(routesOf(t)).not.toContain(path);
        expect((await fetch(`${t.url}${path}`, { headers: { accept: 'application/json' } })).status, path).toBe(404);
      }
      expect((await fetch(`${t.url}/api/health`)).headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    } finally {
      await t.stop();
    }
  });

  it('is served with DEV_MAILBOX=on, with a warning at start, still to loopback clients only', async () => {
    const lines: string[] = [];
    const t = await startTestApp({ roles: ['api'], logLines: lines, env: { HOST: '0.0.0.0', DEV_MAILBOX: 'on' } });
    try {
      for (const path of MAILBOX_ROUTES) {
        expect(routesOf(t)).toContain(path);
        expect((await fetch(`${t.url}${path}`)).status, path).toBe(200);
        expect((await t.app.server.inject({ method: 'GET', url: path, remoteAddress: '203.0.113.7' })).statusCode).toBe(404);
      }
      const warnings = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((e) => e.level === 40);
      expect(warnings.some((w) => /DEV_MAILBOX=on/.test(w.msg))).toBe(true);
    } finally {
      await t.stop();
    }
  });
});

describe('who counts as loopback', () => {
  it('is 127.0.0.0/8, ::1 and IPv4-mapped 127.x, nothing else', () => {
    for (const a of ['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1', '[::1]']) expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ['0.0.0.0', '10.0.0.1', '::ffff:10.0.0.1', '::', '128.0.0.1', '127.0.0.1.evil', 'localhost', '', undefined]) {
      expect(isLoopbackAddress(a), String(a)).toBe(false);
    }
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
  });

  it('decides where the mailbox is served', () => {
    expect(devMailboxMode({ HOST: '127.0.0.1', DEV_MAILBOX: 'auto', SMTP_URL: undefined })).toBe('loopback');
    expect(devMailboxMode({ HOST: '0.0.0.0', DEV_MAILBOX: 'auto', SMTP_URL: undefined })).toBe('off');
    expect(devMailboxMode({ HOST: '0.0.0.0', DEV_MAILBOX: 'on', SMTP_URL: undefined })).toBe('exposed');
    expect(devMailboxMode({ HOST: '127.0.0.1', DEV_MAILBOX: 'off', SMTP_URL: undefined })).toBe('off');
    expect(devMailboxMode({ HOST: '127.0.0.1', DEV_MAILBOX: 'on', SMTP_URL: 'smtp://mail.example.test' })).toBe('off');
  });
});
