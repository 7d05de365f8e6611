import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@axel/platform';
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { createApp, type AppHandle, type Role } from '../app';
import type { StorageBytes } from '../modules/files/storage.bytes';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { bootstrapAdmin } from '../modules/accounts/bootstrap-admin';
import { configSecrets, describeFindings, scanEventsForSecrets } from './secret-scan';

/** A clock tests can move forward. */
export class TestClock {
  private offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

export interface TestApp {
  readonly app: AppHandle;
  readonly url: string;
  readonly db: TestDatabase;
  readonly clock: TestClock;
  stop(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  roles?: Role[];
  serveUi?: boolean;
  logLines?: string[];
  bytes?: StorageBytes;
  /** A database another app (or the test) already uses: this app does not drop it when it stops. */
  database?: TestDatabase;
}

/** The whole product on a fresh database, listening on a free port: tests speak real HTTP to it. */
export const startTestApp = async (options: TestAppOptions = {}): Promise<TestApp> => {
  const db = options.database ?? (await createTestDatabase());
  const clock = new TestClock();
  // a known port, so the links in mail point back at this server
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    HOST: '127.0.0.1',
    DATABASE_URL: db.url,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'axel-api-')),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...options.env,
  });
  const log = options.logLines ? createLogger('debug', { write: (line: string) => void options.logLines!.push(line) }) : createLogger(config.LOG_LEVEL);
  const app = await createApp({ config, log, now: clock.now, roles: options.roles, serveUi: options.serveUi ?? false, bytes: options.bytes });
  if (config.ADMIN_EMAIL) await bootstrapAdmin(app.ctx);
  const { url } = await app.start();
  return {
    app,
    url: url!.replace('0.0.0.0', '127.0.0.1'),
    db,
    clock,
    stop: async () => {
      await app.stop();
      // every test file's events, once written: none may hold a secret (the run fails naming it)
      const findings = await scanEventsForSecrets(db.pool, configSecrets(config));
      if (!options.database) await db.drop();
      if (findings.length) throw new Error(describeFindings(findings));
    },
  };
};

/**
 * The product started before the tests of the file (or of the describe block it is called in) and
 * stopped after them. `options` may be a function, called when the product starts, for options that
 * depend on something an earlier `beforeAll` started (a fake SMTP server, a fake Stripe). Answers a
 * getter of the running app.
 */
export const useTestApp = (options: TestAppOptions | (() => TestAppOptions) = {}): (() => TestApp) => {
  let running: TestApp | undefined;
  beforeAll(async () => {
    running = await startTestApp(typeof options === 'function' ? options() : options);
  });
  afterAll(async () => {
    await running?.stop();
  });
  return () => {
    if (!running) throw new Error('the test app is not running: read it inside a test or hook');
    return running;
  };
};

export interface HttpResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A browser-like HTTP client: keeps its cookies, sends the CSRF header on writes. */
export class HttpClient {
  private cookies = new Map<string, string>();
  constructor(
    readonly baseUrl: string,
    private readonly userAgent = 'axel-test',
  ) {}

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> {
    const h: Record<string, string> = { 'user-agent': this.userAgent, ...headers };
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (method !== 'GET' && method !== 'HEAD' && !('x-requested-with' in headers)) h['x-requested-with'] = 'XMLHttpRequest';
    if (body !== undefined && !(body instanceof Uint8Array)) h['content-type'] = 'application/json';
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : body instanceof Uint8Array ? body : JSON.stringify(body),
      redirect: 'manual',
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, v] = pair!.split('=');
      if (!v || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) this.cookies.delete(k!);
      else this.cookies.set(k!, v);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body ?? {});
  }
  put<T = any>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, body ?? {});
  }
  patch<T = any>(path: string, body?: unknown) {
    return this.request<T>('PATCH', path, body ?? {});
  }
  delete<T = any>(path: string, body?: unknown) {
    return this.request<T>('DELETE', path, body);
  }
  hasSession() {
    return this.cookies.has('axel_session');
  }
}
