import { createHash, randomBytes, randomUUID } from 'node:crypto';
import querystring from 'node:querystring';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * A Clio STAND-IN for development and tests (Clio cannot be reached from here): the request and
 * answer shapes of Clio Manage's API v4 for what the product uses: OAuth authorize (approves at
 * once) and token (authorization code, refresh), deauthorize, `users/who_am_i`, `matters`, the
 * three-step document upload (create the document with `latest_document_version{uuid,put_url,
 * put_headers}`, PUT the bytes to that URL, PATCH `fully_uploaded`) and matter notes. It is not
 * Clio and is never part of the product's own code paths.
 */
export interface ClioStandIn {
  readonly url: string;
  /** The matters of the stand-in's firm (every account sees them). */
  readonly matters: { id: number; display_number: string; description: string }[];
  /** Documents filed, with the SHA-256 of the bytes received and whether the version was completed. */
  readonly documents: Map<number, { name: string; matterId: number; uuid: string; sha256: string | null; size: number; fullyUploaded: boolean }>;
  readonly notes: { matterId: number; subject: string; detail: string }[];
  stop(): Promise<void>;
}

export const startClioStandIn = async (options: { host?: string; port?: number } = {}): Promise<ClioStandIn> => {
  const codes = new Map<string, { redirectUri: string; userId: number }>();
  const refreshTokens = new Map<string, number>();
  const accessTokens = new Map<string, number>();
  const uploads = new Map<string, { documentId: number; signature: string }>();
  const matters = [
    { id: 1001, display_number: '00001-Acme', description: 'Acme v. Roadrunner' },
    { id: 1002, display_number: '00002-Wayne', description: 'Wayne Enterprises merger' },
  ];
  const documents: ClioStandIn['documents'] = new Map();
  const notes: ClioStandIn['notes'] = [];
  let nextDocument = 5000;
  let nextUser = 300;
  const token = () => randomBytes(24).toString('base64url');

  const app = Fastify({ bodyLimit: 200 * 1024 * 1024 });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, querystring.parse(body as string)));
  // uploaded bytes stay bytes whatever their type says
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  const userOf = (request: FastifyRequest, reply: FastifyReply): number | undefined => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const user = bearer ? accessTokens.get(bearer) : undefined;
    if (user === undefined) void reply.status(401).send({ error: { type: 'AuthenticationError', message: 'Invalid access token' } });
    return user;
  };

  app.get('/oauth/authorize', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    if (q.response_type !== 'code' || !q.client_id || !q.redirect_uri) return reply.status(400).type('text/plain').send('invalid authorize request');
    const code = token();
    codes.set(code, { redirectUri: q.redirect_uri, userId: nextUser++ });
    const back = new URL(q.redirect_uri);
    back.searchParams.set('code', code);
    if (q.state) back.searchParams.set('state', q.state);
    return reply.redirect(back.toString());
  });

  app.post('/oauth/token', async (request, reply) => {
    const b = (request.body ?? {}) as Record<string, string | undefined>;
    if (!b.client_id || !b.client_secret) return reply.status(401).send({ error: 'invalid_client' });
    const issue = (userId: number, refresh?: string) => {
      const accessToken = token();
      accessTokens.set(accessToken, userId);
      return { token_type: 'bearer', access_token: accessToken, expires_in: 604_800, ...(refresh ? { refresh_token: refresh } : {}) };
    };
    if (b.grant_type === 'authorization_code') {
      const grant = b.code ? codes.get(b.code) : undefined;
      if (b.code) codes.delete(b.code);
      if (!grant || grant.redirectUri !== b.redirect_uri)
        return reply.status(400).send({ error: 'invalid_grant', error_description: 'Authorization code is invalid' });
      const refresh = token();
      refreshTokens.set(refresh, grant.userId);
      return issue(grant.userId, refresh);
    }
    if (b.grant_type === 'refresh_token') {
      const userId = b.refresh_token ? refreshTokens.get(b.refresh_token) : undefined;
      if (userId === undefined) return reply.status(400).send({ error: 'invalid_grant' });
      return issue(userId);
    }
    return reply.status(400).send({ error: 'unsupported_grant_type' });
  });

  app.post('/oauth/deauthorize', async (request, reply) => {
    const userId = userOf(request, reply);
    if (userId === undefined) return reply;
    for (const [t, u] of accessTokens) if (u === userId) accessTokens.delete(t);
    for (const [t, u] of refreshTokens) if (u === userId) refreshTokens.delete(t);
    return reply.status(200).send({});
  });

  app.get('/api/v4/users/who_am_i.json', async (request, reply) => {
    const userId = userOf(request, reply);
    if (userId === undefined) return reply;
    return { data: { id: userId, name: `Stand-in attorney ${userId}` } };
  });

  app.get('/api/v4/matters.json', async (request, reply) => {
    if (userOf(request, reply) === undefined) return reply;
    const q = ((request.query as { query?: string }).query ?? '').toLowerCase();
    const data = matters.filter((m) => !q || m.display_number.toLowerCase().includes(q) || m.description.toLowerCase().includes(q));
    return { data, meta: { paging: {}, records: data.length } };
  });

  app.post('/api/v4/documents.json', async (request, reply) => {
    if (userOf(request, reply) === undefined) return reply;
    const data = (request.body as { data?: { name?: unknown; parent?: { id?: unknown; type?: unknown } } } | null)?.data;
    const matter = matters.find((m) => m.id === data?.parent?.id);
    if (typeof data?.name !== 'string' || !data.name || data.parent?.type !== 'Matter') {
      return reply.status(422).send({ error: { type: 'ValidationError', message: 'Name and parent are required' } });
    }
    if (!matter) return reply.status(404).send({ error: { type: 'RecordNotFound', message: 'Matter not found' } });
    const id = nextDocument++;
    const uuid = randomUUID();
    const signature = token();
    uploads.set(uuid, { documentId: id, signature });
    documents.set(id, { name: data.name, matterId: matter.id, uuid, sha256: null, size: 0, fullyUploaded: false });
    const host = `http://${request.headers.host}`;
    return reply.status(201).send({
      data: {
        id,
        latest_document_version: {
          uuid,
          put_url: `${host}/uploads/${uuid}?signature=${signature}`,
          put_headers: [{ name: 'x-amz-server-side-encryption', value: 'AES256' }],
        },
      },
    });
  });

  app.put('/uploads/:uuid', async (request, reply) => {
    const upload = uploads.get((request.params as { uuid: string }).uuid);
    if (!upload || (request.query as { signature?: string }).signature !== upload.signature || request.headers['x-amz-server-side-encryption'] !== 'AES256') {
      return reply.status(403).type('application/xml').send('<Error><Code>SignatureDoesNotMatch</Code></Error>');
    }
    const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const doc = documents.get(upload.documentId)!;
    documents.set(upload.documentId, { ...doc, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });
    return reply.status(200).send();
  });

  app.patch('/api/v4/documents/:id', async (request, reply) => {
    if (userOf(request, reply) === undefined) return reply;
    const id = Number((request.params as { id: string }).id.replace(/\.json$/, ''));
    const doc = documents.get(id);
    if (!doc) return reply.status(404).send({ error: { type: 'RecordNotFound', message: 'Document not found' } });
    const data = (request.body as { data?: { uuid?: unknown; fully_uploaded?: unknown } } | null)?.data;
    if (data?.uuid !== doc.uuid || data?.fully_uploaded !== true || doc.sha256 === null) {
      return reply.status(422).send({ error: { type: 'ValidationError', message: 'The version was not uploaded' } });
    }
    documents.set(id, { ...doc, fullyUploaded: true });
    return { data: { id, latest_document_version: { fully_uploaded: true } } };
  });

  app.post('/api/v4/notes.json', async (request, reply) => {
    if (userOf(request, reply) === undefined) return reply;
    const data = (request.body as { data?: { type?: unknown; matter?: { id?: unknown }; subject?: unknown; detail?: unknown } } | null)?.data;
    const matter = matters.find((m) => m.id === data?.matter?.id);
    if (!matter || data?.type !== 'Matter') return reply.status(404).send({ error: { type: 'RecordNotFound', message: 'Matter not found' } });
    notes.push({ matterId: matter.id, subject: String(data.subject ?? ''), detail: String(data.detail ?? '') });
    return reply.status(201).send({ data: { id: notes.length } });
  });

  const address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  return { url: address.replace('0.0.0.0', '127.0.0.1'), matters, documents, notes, stop: () => app.close() };
};
