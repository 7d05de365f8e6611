import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  DropboxRefusedError,
  type DropboxAnswer,
  type DropboxBytes,
  type DropboxContentEndpoint,
  type DropboxGrant,
  type DropboxPort,
  type DropboxRpcEndpoint,
} from './dropbox.port';

export interface DropboxHttpOptions {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** https://www.dropbox.com/oauth2/authorize, or the stand-in's. */
  readonly authorizeUrl: string;
  /** https://api.dropboxapi.com (OAuth token and RPC endpoints). */
  readonly apiUrl: string;
  /** https://content.dropboxapi.com (download, upload, previews). */
  readonly contentUrl: string;
  readonly now?: () => Date;
  /** How many times a 429 is waited out before it is answered (Dropbox asks to wait Retry-After seconds). */
  readonly maxRetries?: number;
  /** The longest wait accepted, in seconds: a longer Retry-After is answered at once. */
  readonly maxWaitSeconds?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

const trim = (url: string) => url.replace(/\/$/, '');
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Dropbox's header arguments are JSON with every non-ASCII character escaped (its "HTTP header safe JSON"). */
export const headerSafeJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const retryAfterOf = (res: Response, body: unknown): number => {
  const header = Number(res.headers.get('retry-after'));
  if (Number.isFinite(header) && header >= 0) return header;
  const inBody = (body as { error?: { retry_after?: number } } | null)?.error?.retry_after;
  return typeof inBody === 'number' ? inBody : 1;
};

const readBody = async (res: Response): Promise<unknown> => {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { error_summary: text.slice(0, 500) };
  }
};

/**
 * Dropbox's HTTP API (https://www.dropbox.com/developers/documentation/http/documentation):
 * OAuth 2 code flow with PKCE and `token_access_type=offline` (a refresh token, access tokens of
 * four hours), RPC endpoints on the api host, content endpoints on the content host. A 429
 * `too_many_requests` is waited out for the Retry-After Dropbox gives, a few times, then answered.
 */
export class DropboxHttp implements DropboxPort {
  private readonly now: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: DropboxHttpOptions) {
    this.now = options.now ?? (() => new Date());
    this.sleep = options.sleep ?? wait;
  }

  authorizeUrl(input: { state: string; codeChallenge: string; redirectUri: string }): string {
    const url = new URL(this.options.authorizeUrl);
    url.searchParams.set('client_id', this.options.clientId);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('token_access_type', 'offline');
    url.searchParams.set('code_challenge', input.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('redirect_uri', input.redirectUri);
    url.searchParams.set('state', input.state);
    return url.toString();
  }

  private async token(params: Record<string, string>): Promise<Record<string, unknown>> {
    const form = new URLSearchParams({ ...params, client_id: this.options.clientId });
    if (this.options.clientSecret) form.set('client_secret', this.options.clientSecret);
    const res = await this.send(() =>
      fetch(`${trim(this.options.apiUrl)}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }),
    );
    const body = (await readBody(res)) as Record<string, unknown> | null;
    if (res.status === 400 || res.status === 401) throw new DropboxRefusedError(String(body?.error ?? res.status));
    if (!res.ok || !body || typeof body.access_token !== 'string') throw new Error(`Dropbox token endpoint answered ${res.status}`);
    return body;
  }

  private expiry(body: Record<string, unknown>): Date {
    const seconds = typeof body.expires_in === 'number' ? body.expires_in : 14_400;
    // a minute early, so a token is never sent in its last seconds
    return new Date(this.now().getTime() + Math.max(0, seconds - 60) * 1000);
  }

  async exchangeCode(input: { code: string; codeVerifier: string; redirectUri: string }): Promise<DropboxGrant> {
    const body = await this.token({ grant_type: 'authorization_code', code: input.code, code_verifier: input.codeVerifier, redirect_uri: input.redirectUri });
    if (typeof body.refresh_token !== 'string') throw new DropboxRefusedError('no_refresh_token');
    return {
      accessToken: body.access_token as string,
      expiresAt: this.expiry(body),
      refreshToken: body.refresh_token,
      accountId: String(body.account_id ?? body.uid ?? ''),
    };
  }

  async refresh(refreshToken: string): Promise<{ accessToken: string; expiresAt: Date }> {
    const body = await this.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
    return { accessToken: body.access_token as string, expiresAt: this.expiry(body) };
  }

  async revoke(accessToken: string): Promise<void> {
    const res = await this.send(() =>
      fetch(`${trim(this.options.apiUrl)}/2/auth/token/revoke`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } }),
    );
    await res.arrayBuffer();
    // an access token already expired or revoked is as good as revoked
    if (!res.ok && res.status !== 401) throw new Error(`Dropbox token revoke answered ${res.status}`);
  }

  async rpc(accessToken: string, endpoint: DropboxRpcEndpoint, args: unknown): Promise<DropboxAnswer> {
    const res = await this.send(() =>
      fetch(`${trim(this.options.apiUrl)}/2/files/${endpoint}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(args ?? null),
      }),
    );
    const body = await readBody(res);
    return { status: res.status, body, ...(res.status === 429 ? { retryAfter: retryAfterOf(res, body) } : {}) };
  }

  async content(accessToken: string, endpoint: DropboxContentEndpoint, args: unknown): Promise<DropboxBytes | DropboxAnswer> {
    const res = await this.send(() =>
      fetch(`${trim(this.options.contentUrl)}/2/files/${endpoint}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'dropbox-api-arg': headerSafeJson(args ?? {}) },
      }),
    );
    if (!res.ok || !res.body) {
      const body = await readBody(res);
      return { status: res.status, body, ...(res.status === 429 ? { retryAfter: retryAfterOf(res, body) } : {}) };
    }
    let result: Record<string, unknown> | null = null;
    try {
      result = JSON.parse(res.headers.get('dropbox-api-result') ?? 'null') as Record<string, unknown> | null;
    } catch {
      result = null;
    }
    return {
      status: res.status,
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
      result,
      body: Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>),
    };
  }

  async upload(accessToken: string, args: { path: string; mode?: 'add' | 'overwrite'; autorename?: boolean }, body: Buffer): Promise<DropboxAnswer> {
    const res = await this.send(() =>
      fetch(`${trim(this.options.contentUrl)}/2/files/upload`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${accessToken}`,
          'content-type': 'application/octet-stream',
          'dropbox-api-arg': headerSafeJson({ mode: args.mode ?? 'add', autorename: args.autorename ?? true, path: args.path }),
        },
        body,
      }),
    );
    const answer = await readBody(res);
    return { status: res.status, body: answer, ...(res.status === 429 ? { retryAfter: retryAfterOf(res, answer) } : {}) };
  }

  /** Sends, waiting out a 429 as Dropbox asks (Retry-After), up to `maxRetries` times. */
  private async send(request: () => Promise<Response>): Promise<Response> {
    const maxRetries = this.options.maxRetries ?? 3;
    const maxWait = this.options.maxWaitSeconds ?? 30;
    for (let attempt = 0; ; attempt++) {
      const res = await request();
      if (res.status !== 429 || attempt >= maxRetries) return res;
      const seconds = retryAfterOf(res, null);
      if (seconds > maxWait) return res;
      await res.arrayBuffer().catch(() => undefined);
      await this.sleep(seconds * 1000);
    }
  }
}
