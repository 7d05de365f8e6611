import type { ClioRegion } from '@axel/domain';
import { ClioAnswerError, ClioRefusedError, type ClioGrant, type ClioMatter, type ClioPort } from './clio.port';

/** Clio's hosts per data region (https://docs.developers.clio.com/api-docs/clio-manage/). */
export const CLIO_HOSTS: Record<ClioRegion, string> = {
  app: 'https://app.clio.com',
  eu: 'https://eu.app.clio.com',
  ca: 'https://ca.app.clio.com',
  au: 'https://au.app.clio.com',
};

export interface ClioHttpOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /** One host for every region (the Clio stand-in); Clio's own per region when unset. */
  readonly baseUrl?: string;
  readonly now?: () => Date;
}

/** Clio's JSON as read here: each field is checked where it is used. */
interface ClioJson {
  readonly [key: string]: ClioJson | string | number | boolean | null | undefined | readonly ClioJson[];
}

const json = async (res: Response): Promise<ClioJson | null> => {
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
};

/**
 * Clio Manage's HTTP API v4: OAuth authorization code (no discovery document, so the endpoints are
 * given by hand), matters, and the documented three-step document upload.
 */
export class ClioHttp implements ClioPort {
  private readonly now: () => Date;
  constructor(private readonly options: ClioHttpOptions) {
    this.now = options.now ?? (() => new Date());
  }

  private host(region: ClioRegion): string {
    return (this.options.baseUrl ?? CLIO_HOSTS[region]).replace(/\/$/, '');
  }

  authorizeUrl(region: ClioRegion, input: { state: string; redirectUri: string }): string {
    const url = new URL(`${this.host(region)}/oauth/authorize`);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.options.clientId);
    url.searchParams.set('redirect_uri', input.redirectUri);
    url.searchParams.set('state', input.state);
    return url.toString();
  }

  private async token(region: ClioRegion, params: Record<string, string>) {
    const res = await fetch(`${this.host(region)}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...params, client_id: this.options.clientId, client_secret: this.options.clientSecret }),
    });
    const body = await json(res);
    if (res.status === 400 || res.status === 401) throw new ClioRefusedError(String(body?.error ?? res.status));
    if (!res.ok || !body || typeof body.access_token !== 'string') throw new ClioAnswerError(res.status, 'the token request');
    const seconds = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    return { body: body as ClioJson & { access_token: string }, expiresAt: new Date(this.now().getTime() + Math.max(0, seconds - 60) * 1000) };
  }

  async exchangeCode(region: ClioRegion, input: { code: string; redirectUri: string }): Promise<ClioGrant> {
    const { body, expiresAt } = await this.token(region, { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri });
    if (typeof body.refresh_token !== 'string') throw new ClioRefusedError('no_refresh_token');
    return { accessToken: body.access_token, expiresAt, refreshToken: body.refresh_token };
  }

  async refresh(region: ClioRegion, refreshToken: string) {
    const { body, expiresAt } = await this.token(region, { grant_type: 'refresh_token', refresh_token: refreshToken });
    return { accessToken: body.access_token as string, expiresAt, refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null };
  }

  async deauthorize(region: ClioRegion, accessToken: string): Promise<void> {
    const res = await fetch(`${this.host(region)}/oauth/deauthorize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: accessToken }),
    });
    await res.arrayBuffer();
    if (!res.ok && res.status !== 401) throw new ClioAnswerError(res.status, 'the deauthorization');
  }

  private async api(region: ClioRegion, accessToken: string, method: string, pathAndQuery: string, body?: unknown): Promise<ClioJson | null> {
    const res = await fetch(`${this.host(region)}/api/v4/${pathAndQuery}`, {
      method,
      headers: { authorization: `Bearer ${accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = await json(res);
    if (!res.ok) throw new ClioAnswerError(res.status, `${method} ${pathAndQuery.split('?')[0]}`);
    return answer;
  }

  async whoAmI(region: ClioRegion, accessToken: string) {
    const data = (await this.api(region, accessToken, 'GET', 'users/who_am_i.json?fields=id,name'))?.data as ClioJson | undefined;
    return { id: String(data?.id ?? ''), name: String(data?.name ?? '') };
  }

  async matters(region: ClioRegion, accessToken: string, query: string | undefined): Promise<ClioMatter[]> {
    const params = new URLSearchParams({ fields: 'id,display_number,description', status: 'open,pending', limit: '200' });
    if (query) params.set('query', query);
    const answer = await this.api(region, accessToken, 'GET', `matters.json?${params}`);
    const rows = (Array.isArray(answer?.data) ? answer.data : []) as readonly ClioJson[];
    return rows.map((m) => ({ id: String(m.id), displayNumber: String(m.display_number ?? ''), description: String(m.description ?? '') }));
  }

  async fileDocument(region: ClioRegion, accessToken: string, input: { matterId: string; name: string; bytes: Buffer; contentType: string }) {
    // 1. the document and its first version, which answers where its bytes go
    const created = await this.api(region, accessToken, 'POST', 'documents.json?fields=id,latest_document_version{uuid,put_url,put_headers}', {
      data: { name: input.name, parent: { id: Number(input.matterId), type: 'Matter' } },
    });
    const data = created?.data as ClioJson | undefined;
    const documentId = String(data?.id ?? '');
    const version = data?.latest_document_version as ClioJson | undefined;
    if (!documentId || typeof version?.put_url !== 'string' || typeof version?.uuid !== 'string') throw new ClioAnswerError(502, 'the document creation');
    // 2. the bytes, to the upload URL with the headers Clio gave
    const headers: Record<string, string> = {};
    for (const h of (version.put_headers ?? []) as unknown as { name: string; value: string }[]) headers[h.name] = h.value;
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = input.contentType;
    const put = await fetch(version.put_url, { method: 'PUT', headers, body: input.bytes });
    await put.arrayBuffer();
    if (!put.ok) throw new ClioAnswerError(put.status, 'the document upload');
    // 3. the version marked fully uploaded
    await this.api(region, accessToken, 'PATCH', `documents/${encodeURIComponent(documentId)}.json?fields=id,latest_document_version{fully_uploaded}`, {
      data: { uuid: version.uuid, fully_uploaded: true },
    });
    return { documentId };
  }

  async addNote(region: ClioRegion, accessToken: string, input: { matterId: string; subject: string; detail: string }) {
    await this.api(region, accessToken, 'POST', 'notes.json', {
      data: { type: 'Matter', matter: { id: Number(input.matterId) }, subject: input.subject, detail: input.detail },
    });
  }
}
