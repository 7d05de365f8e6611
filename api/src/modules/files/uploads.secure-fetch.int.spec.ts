import { createHash, randomBytes } from 'node:crypto';
import { SecureFetchErrors, type ErrorDefinition } from '@axel/domain';
import { freePort } from '@axel/platform';
import { MultiHash } from '@axel/platform/hashing/index';
import { describe, expect, it } from 'vitest';
import { createApp, type AppHandle } from '../../app';
import { loadConfig } from '../../config';
import { createLogger } from '../../logger';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, startTestApp, type TestApp } from '../../testing/harness';
import { onlineStorageId } from './storage.service';
import { storageQuotaGate } from './storage.quota-gate';
import { createBytePipeline, type BytePipeline } from './uploads';
import { pipelineTestApp } from './uploads.testing';
import { ANONYMOUS_CREATIONS_PER_MINUTE } from './uploads.routes';
import { sealHashState } from './uploads.store';

const MiB = 1024 * 1024;
const TUS = { 'tus-resumable': '1.0.0' };

let t: TestApp;
let pipeline: BytePipeline;
pipelineTestApp({ UPLOAD_EXPIRY_HOURS: '1' }, (running) => ({ t, pipeline } = running));
const { signUpConfirmed, signIn } = accountHelpers(() => t);

const reference = (data: Uint8Array) => ({
  md5: createHash('md5').update(data).digest('hex'),
  sha1: createHash('sha1').update(data).digest('hex'),
  sha3_512: createHash('sha3-512').update(data).digest('hex'),
});

/** A Secure Fetch link of a new user, made through the owner's route (the Secure Fetch slice binds the real gate). */
const newLink = async (app: TestApp = t) => {
  const helpers = accountHelpers(() => app);
  const { email, id } = await helpers.signUpConfirmed();
  const { http } = await helpers.signIn(email);
  const made = await http.post(`/api/users/${id}/secure-fetches/`, { note: 'Please send the manuscript', includeMetadata: false, certificate: true });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { linkId: made.body.linkId as string, fetchId: made.body.id as string, ownerId: id, http };
};

/** The owner moves to Professional through the test payments (no per-file limit, 500 GB). */
const upgrade = async (http: HttpClient, id: string) => {
  const bought = await http.post(`/api/users/${id}/products/`, { productId: 200 });
  expect(bought.status, JSON.stringify(bought.body)).toBe(201);
  const sessionId = decodeURIComponent(new URL(bought.body.checkoutLink as string).pathname.slice('/dev/checkout/'.length));
  expect((await http.post(`/api/dev/checkout/${encodeURIComponent(sessionId)}/pay`)).status).toBe(200);
};

const metadata = (linkId: string) => `secureFetchId ${Buffer.from(linkId).toString('base64')},filename ${Buffer.from('manuscript.pdf').toString('base64')}`;

/** An anonymous client: no cookie at all. */
const anonymous = (base = t.url) => new HttpClient(base);

const createAnonymous = async (http: HttpClient, linkId: string, size: number) =>
  http.request('POST', '/api/uploads/', undefined, { ...TUS, 'upload-length': String(size), 'upload-metadata': metadata(linkId) });

const create = async (http: HttpClient, linkId: string, size: number) => {
  const res = await createAnonymous(http, linkId, size);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const location = res.headers.get('location')!;
  expect(location).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);
  return location;
};

const patch = (http: HttpClient, location: string, offset: number, bytes: Uint8Array) =>
  http.request('PATCH', location, bytes, { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' });

const head = async (http: HttpClient, location: string) => {
  const res = await http.request('HEAD', location, undefined, TUS);
  return { status: res.status, offset: Number(res.headers.get('upload-offset')), metadata: res.headers.get('upload-metadata') };
};

/** A PATCH whose connection breaks after `sendBytes` bytes have left the client, in odd pieces. */
const brokenPatch = async (base: string, location: string, offset: number, bytes: Uint8Array, sendBytes: number) => {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= sendBytes) {
        controller.error(new Error('connection lost'));
        return;
      }
      const piece = bytes.subarray(sent, Math.min(sendBytes, sent + 65_537));
      sent += piece.length;
      controller.enqueue(piece);
    },
  });
  await fetch(base + location, {
    method: 'PATCH',
    headers: { ...TUS, 'x-requested-with': 'XMLHttpRequest', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    body,
    duplex: 'half',
  } as RequestInit).catch(() => undefined);
};

/** The offset the server reports once it has recorded what a broken request brought. */
const settledOffset = async (http: HttpClient, location: string, above: number) => {
  let offset = above;
  for (let i = 0; i < 100; i++) {
    offset = (await head(http, location)).offset;
    if (offset > above) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return offset;
};

const idOf = (location: string) => location.split('/').pop()!;

const readAll = async (stream: NodeJS.ReadableStream) => {
  const parts: Buffer[] = [];
  for await (const p of stream) parts.push(p as Buffer);
  return Buffer.concat(parts);
};

describe('Secure Fetch uploads: anonymous tus with certificate hashes', () => {
  it('one PATCH without a session: the upload lands in the link owner storage with MD5, SHA-1 and SHA3-512 of its bytes', async () => {
    const { linkId, ownerId } = await newLink();
    const http = anonymous();
    const file = randomBytes(3 * MiB + 4321);
    const location = await create(http, linkId, file.length);
    const done = await patch(http, location, 0, file);
    expect(done.status).toBe(204);
    expect(Number(done.headers.get('upload-offset'))).toBe(file.length);

    const finished = await pipeline.uploads.finished(idOf(location), ownerId);
    expect(finished).not.toBeNull();
    expect(finished!.storageId).toBe(onlineStorageId(ownerId));
    expect(finished!.secureFetchLinkId).toBe(linkId);
    expect(finished!.hashes).toEqual(reference(file));
    expect(finished!.manifest.sha256).toBe(createHash('sha256').update(file).digest('hex'));
    expect(Buffer.compare(await readAll(pipeline.content.read(finished!.manifest)), file)).toBe(0);
    // a finished upload keeps its digests, no state
    const { rows } = await t.app.ctx.pool.query<{ hash_state: Buffer | null }>('select hash_state from uploads where id = $1', [idOf(location)]);
    expect(rows[0]!.hash_state).toBeNull();
  });

  it('a session upload keeps its path: no certificate hashes, no link', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const file = randomBytes(5000);
    const res = await http.request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': String(file.length),
      'upload-metadata': `storageId ${Buffer.from(onlineStorageId(id)).toString('base64')}`,
    });
    expect(res.status).toBe(201);
    const location = res.headers.get('location')!;
    expect((await patch(http, location, 0, file)).status).toBe(204);
    const finished = await pipeline.uploads.finished(idOf(location), id);
    expect(finished!.manifest.sha256).toBe(createHash('sha256').update(file).digest('hex'));
    expect(finished!.hashes).toBeUndefined();
    expect(finished!.secureFetchLinkId).toBeUndefined();
  });

  it('broken mid-chunk and resumed on new requests with odd PATCH sizes: the hashes go on from the stored states', async () => {
    const { linkId, ownerId } = await newLink();
    const http = anonymous();
    const file = randomBytes(5 * MiB + 777);
    const location = await create(http, linkId, file.length);

    let offset = 0;
    // odd sizes: inside a chunk, across a chunk boundary, a single byte
    for (const n of [333_333, MiB + 17, 1]) {
      const res = await patch(http, location, offset, file.subarray(offset, offset + n));
      expect(res.status).toBe(204);
      offset += n;
      expect((await head(http, location)).offset).toBe(offset);
    }
    // the stored state belongs to the stored offset (and is sealed: no plaintext of the tail in it)
    const { rows } = await t.app.ctx.pool.query<{ offset: string; hash_state: Buffer }>('select "offset", hash_state from uploads where id = $1', [
      idOf(location),
    ]);
    expect(Number(rows[0]!.offset)).toBe(offset);
    expect(rows[0]!.hash_state.length).toBeGreaterThan(600);
    expect(rows[0]!.hash_state.indexOf(file.subarray(offset - 40, offset))).toBe(-1);

    await brokenPatch(t.url, location, offset, file.subarray(offset), 2 * MiB + 12_345);
    const resumeAt = await settledOffset(http, location, offset);
    expect(resumeAt).toBeGreaterThan(offset);
    expect(resumeAt).toBeLessThanOrEqual(offset + 2 * MiB + 12_345);
    offset = resumeAt;

    // a second break, then the rest in two odd pieces
    await brokenPatch(t.url, location, offset, file.subarray(offset), 70_001);
    offset = await settledOffset(http, location, offset);
    const middle = offset + Math.floor((file.length - offset) / 3);
    expect((await patch(http, location, offset, file.subarray(offset, middle))).status).toBe(204);
    const last = await patch(http, location, middle, file.subarray(middle));
    expect(last.status).toBe(204);
    expect(Number(last.headers.get('upload-offset'))).toBe(file.length);

    const finished = await pipeline.uploads.finished(idOf(location), ownerId);
    expect(finished!.hashes).toEqual(reference(file));
    expect(Buffer.compare(await readAll(pipeline.content.read(finished!.manifest)), file)).toBe(0);
  });

  it("the gate's refusals are the spec's errors on creation, before anything is kept", async () => {
    const http = anonymous();
    const refused = async (linkId: string, size: number, error: ErrorDefinition) => {
      const res = await createAnonymous(http, linkId, size);
      expect(res.status, JSON.stringify(res.body)).toBe(error.status);
      expect(res.body).toMatchObject({ code: error.code, message: error.message });
      expect(res.headers.get('location')).toBeNull();
    };
    await refused(randomBytes(16).toString('base64url').slice(0, 22), 10, SecureFetchErrors.missing);
    // a malformed link is refused as the link page refuses it, before the gate reads anything
    const bad = await http.request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': '10',
      'upload-metadata': `secureFetchId ${Buffer.from('../../etc').toString('base64')}`,
    });
    expect(bad.body).toMatchObject({ code: SecureFetchErrors.invalid.code, message: SecureFetchErrors.invalid.message });

    const revoked = await newLink();
    expect((await revoked.http.post(`/api/users/${revoked.ownerId}/secure-fetches/${revoked.fetchId}/revoke`)).status).toBe(200);
    await refused(revoked.linkId, 10, SecureFetchErrors.invalid);

    const used = await newLink();
    const location = await create(http, used.linkId, 4);
    expect((await patch(http, location, 0, Buffer.from('once'))).status).toBe(204);
    const submitted = await http.post(`/api/shares/${used.linkId}/`, { files: [{ uploadId: idOf(location), name: 'once.txt', size: 4, mime: 'text/plain' }] });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    await refused(used.linkId, 10, SecureFetchErrors.used);

    // Basic: each file at most 10 MiB
    const basic = await newLink();
    await refused(basic.linkId, 10 * MiB + 1, SecureFetchErrors.tooLarge);
    // without the per-file limit the owner's quota still bounds it (Professional: 500 GB)
    const pro = await newLink();
    await upgrade(pro.http, pro.ownerId);
    const over = await createAnonymous(http, pro.linkId, 600 * 1000 ** 3);
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 'INSUFFICIENT_SPACE', message: 'Insufficient space or quota' });

    const { rows } = await t.app.ctx.pool.query('select 1 from uploads where user_id = any($1)', [[revoked.ownerId, basic.ownerId, pro.ownerId]]);
    expect(rows).toEqual([]);
    // within the limits it is admitted
    expect((await createAnonymous(http, basic.linkId, 10 * MiB)).status).toBe(201);
  });

  it('requests on a Secure Fetch upload need only its id; a session upload still needs its own session', async () => {
    const { linkId, ownerId } = await newLink();
    const location = await create(anonymous(), linkId, 2000);
    // another anonymous client (a new tab, a retry) that knows the id goes on with it
    expect((await patch(anonymous(), location, 0, Buffer.alloc(700, 1))).status).toBe(204);
    const seen = await head(anonymous(), location);
    expect(seen).toMatchObject({ status: 200, offset: 700 });
    // the uploader is told its link, never the owner's storage
    expect(seen.metadata).toBe(`secureFetchId ${Buffer.from(linkId).toString('base64')}`);
    // an id nobody was given is answered as a session upload is (sign in): no way to tell which ids exist
    expect((await head(anonymous(), `/api/uploads/${randomBytes(16).toString('hex')}`)).status).toBe(401);

    // a signed-in user's own upload: strangers without a session are asked for one, other users do not see it
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    const res = await http.request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': '100',
      'upload-metadata': `storageId ${Buffer.from(onlineStorageId(id)).toString('base64')}`,
    });
    expect(res.status).toBe(201);
    const own = res.headers.get('location')!;
    expect((await head(anonymous(), own)).status).toBe(401);
    expect((await patch(anonymous(), own, 0, Buffer.alloc(100))).status).toBe(401);
    expect((await anonymous().request('DELETE', own, undefined, TUS)).status).toBe(401);
    expect((await anonymous().request('POST', '/api/uploads/', undefined, { ...TUS, 'upload-length': '10' })).status).toBe(401);
    const stranger = (await signIn((await signUpConfirmed()).email)).http;
    expect((await head(stranger, own)).status).toBe(404);

    // the anonymous uploader may give up: DELETE collects it and gives the owner's reservation back
    expect((await anonymous().request('DELETE', location, undefined, TUS)).status).toBe(204);
    // gone: answered as any unknown id
    expect((await head(anonymous(), location)).status).toBe(401);
    expect((await t.app.ctx.pool.query('select 1 from uploads where id = $1', [idOf(location)])).rows).toEqual([]);
    expect(await pipeline.uploads.finished(idOf(location), ownerId)).toBeNull();
  });

  it('a process that stopped between the last chunk and finishing: the next HEAD finishes the upload from the stored state', async () => {
    const { linkId, ownerId } = await newLink();
    const http = anonymous();
    const file = randomBytes(MiB + 5000);
    const location = await create(http, linkId, file.length);
    expect((await patch(http, location, 0, file)).status).toBe(204);
    // as the row stood after the last chunk was recorded: every byte in, not finished; the state is of
    // other bytes of the same length, so the digests show they come from the state, not from the chunks
    const decoy = randomBytes(file.length);
    const hash = await MultiHash.open();
    await hash.update(decoy);
    const { rows } = await t.app.ctx.pool.query<{ key_id: string }>('select key_id from uploads where id = $1', [idOf(location)]);
    const sealed = sealHashState(await pipeline.keys.get(rows[0]!.key_id), rows[0]!.key_id, await hash.save());
    hash.close();
    await t.app.ctx.pool.query(`update uploads set status = 'receiving', sha256 = null, hashes = null, finished_at = null, hash_state = $2 where id = $1`, [
      idOf(location),
      sealed,
    ]);
    expect(await pipeline.uploads.finished(idOf(location), ownerId)).toBeNull();

    expect(await head(http, location)).toMatchObject({ status: 200, offset: file.length });
    const finished = await pipeline.uploads.finished(idOf(location), ownerId);
    expect(finished!.hashes).toEqual(reference(decoy));
    expect(finished!.manifest.sha256).toBe(createHash('sha256').update(file).digest('hex'));
  });

  // last on this app: it spends this address's anonymous creations for the minute
  it('anonymous creations are capped per address; session uploads are not counted', async () => {
    const unknown = randomBytes(16).toString('base64url').slice(0, 22);
    const http = anonymous();
    // all at once, so a slow machine cannot stretch them past the minute the cap counts
    const answers = await Promise.all(Array.from({ length: ANONYMOUS_CREATIONS_PER_MINUTE + 5 }, () => createAnonymous(http, unknown, 10)));
    const limited = answers.find((res) => res.status === 429);
    for (const res of answers) if (res !== limited && res.status !== 429) expect(res.status).toBe(SecureFetchErrors.missing.status);
    expect(answers.filter((res) => res.status !== 429).length).toBeLessThanOrEqual(ANONYMOUS_CREATIONS_PER_MINUTE);
    expect(limited?.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    // a signed-in user's creation from the same address still goes through
    const { email, id } = await signUpConfirmed();
    const { http: signedIn } = await signIn(email);
    const res = await signedIn.request('POST', '/api/uploads/', undefined, {
      ...TUS,
      'upload-length': '10',
      'upload-metadata': `storageId ${Buffer.from(onlineStorageId(id)).toString('base64')}`,
    });
    expect(res.status).toBe(201);
  });

  it('a restart between requests (a new app on the same database and data) goes on from the stored hash states, never from the stored bytes', async () => {
    const first = await startTestApp({ env: { UPLOAD_EXPIRY_HOURS: '1' } });
    let second: AppHandle | undefined;
    try {
      const { linkId, ownerId } = await newLink(first);
      const file = randomBytes(4 * MiB + 99);
      const cut = 2 * MiB + 12_345;
      const plain = await create(anonymous(first.url), linkId, file.length);
      const decoyed = await create(anonymous(first.url), linkId, file.length);
      for (const location of [plain, decoyed]) expect((await patch(anonymous(first.url), location, 0, file.subarray(0, cut))).status).toBe(204);

      // the first server goes; a second one comes up on the same database and DATA_DIR
      const config = first.app.ctx.config;
      await first.app.stop();
      const port = await freePort();
      second = await createApp({
        config: loadConfig({
          NODE_ENV: 'test',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'silent',
          DATABASE_URL: first.db.url,
          DATA_DIR: config.dataDir,
          PORT: String(port),
          PUBLIC_URL: `http://127.0.0.1:${port}`,
        }),
        log: createLogger('silent'),
        now: first.clock.now,
        serveUi: false,
      });
      await second.start();
      const own = createBytePipeline(second.ctx, { quota: storageQuotaGate(second.ctx) });
      try {
        // one upload's stored state is swapped for the state of other bytes of the same length: if
        // the hashes were taken from the stored bytes this would not show; they go on from the state
        const decoy = randomBytes(cut);
        const { rows } = await second.ctx.pool.query<{ key_id: string }>('select key_id from uploads where id = $1', [idOf(decoyed)]);
        const key = await own.keys.get(rows[0]!.key_id);
        const hash = await MultiHash.open();
        await hash.update(decoy);
        await second.ctx.pool.query('update uploads set hash_state = $2 where id = $1', [
          idOf(decoyed),
          sealHashState(key, rows[0]!.key_id, await hash.save()),
        ]);
        hash.close();

        const http = anonymous(`http://127.0.0.1:${port}`);
        for (const location of [plain, decoyed]) {
          expect((await head(http, location)).offset).toBe(cut);
          const odd = cut + 999_999;
          expect((await patch(http, location, cut, file.subarray(cut, odd))).status).toBe(204);
          expect((await patch(http, location, odd, file.subarray(odd))).status).toBe(204);
        }
        const finished = await own.uploads.finished(idOf(plain), ownerId);
        expect(finished!.hashes).toEqual(reference(file));
        expect(Buffer.compare(await readAll(own.content.read(finished!.manifest)), file)).toBe(0);
        const fromState = await own.uploads.finished(idOf(decoyed), ownerId);
        expect(fromState!.hashes).toEqual(reference(Buffer.concat([decoy, file.subarray(cut)])));
        // a state that does not belong to the offset is refused rather than used
        const broken = await create(http, linkId, 3000);
        expect((await patch(http, broken, 0, file.subarray(0, 1000))).status).toBe(204);
        await second.ctx.pool.query('update uploads set hash_state = (select hash_state from uploads where id = $2) where id = $1', [
          idOf(broken),
          idOf(plain),
        ]);
        expect((await patch(http, broken, 1000, file.subarray(1000, 3000))).status).toBe(500);
        expect((await head(http, broken)).offset).toBe(1000);
      } finally {
        await own.close();
      }
    } finally {
      await second?.stop();
      await first.db.drop();
    }
  });
});
