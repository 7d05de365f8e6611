import { randomBytes } from 'node:crypto';
import { deterministicId } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdAt } from '../../failpoints';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, startTestApp, type HttpResponse, type TestApp } from '../../testing/harness';
import { onlineStorageId } from './storage.service';

/*
 * A tus DELETE racing with the upload being made into a file (the owner's `POST .../items/`, or a
 * Secure Fetch submission): every order, at every step of both calls, and seeded interleavings. After
 * both settle, either the file exists and reads back byte for byte, or the creation failed with a clear
 * error and the upload is gone; never a success whose file cannot be read, never a 500.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
});
afterAll(async () => {
  await t?.stop();
});
const { signUpConfirmed, signIn } = accountHelpers(() => t);
const TUS = { 'tus-resumable': '1.0.0' };

/** A seeded generator (mulberry32): the same rounds on every run. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const owner = async () => {
  const { email, id } = await signUpConfirmed();
  const { http } = await signIn(email);
  const storageId = onlineStorageId(id);
  expect((await http.get(`/api/users/${id}/storages/`)).status).toBe(200);
  return { http, id, storageId, base: `/api/users/${id}/storages/${storageId}` };
};

/** A finished tus upload of `content`, with the owner's session or through a Secure Fetch link. */
const upload = async (http: HttpClient, content: string, to: { storageId: string } | { linkId: string }) => {
  const meta = 'linkId' in to ? `secureFetchId ${Buffer.from(to.linkId).toString('base64')}` : `storageId ${Buffer.from(to.storageId).toString('base64')}`;
  const created = await http.request('POST', '/api/uploads/', undefined, { ...TUS, 'upload-length': String(content.length), 'upload-metadata': meta });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const location = created.headers.get('location')!;
  const sent = await http.request('PATCH', location, new Uint8Array(Buffer.from(content)), {
    ...TUS,
    'upload-offset': '0',
    'content-type': 'application/offset+octet-stream',
  });
  expect(sent.status).toBe(204);
  return location.split('/').at(-1)!;
};

const terminate = (http: HttpClient, uploadId: string) => http.request('DELETE', `/api/uploads/${uploadId}`, undefined, TUS);

/** Every error answer is the product's `{ code, message, data }`, and none is a 500. */
const clear = (res: HttpResponse) => {
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  if (res.status >= 400) expect(Object.keys(res.body as object).sort()).toEqual(['code', 'data', 'message']);
};

/**
 * Runs `first` until it reaches `point`, holds it there while `second` runs to its end, then lets
 * `first` go on; answers both answers. A point never reached runs `first` whole before `second`.
 */
const heldAt = async <A, B>(point: string, first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> => {
  let reached!: () => void;
  const atPoint = new Promise<void>((r) => (reached = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let once = false;
  const stop = holdAt(point, async () => {
    if (once) return;
    once = true;
    reached();
    await released;
  });
  try {
    const a = first();
    const done = a.then(
      () => undefined,
      () => undefined,
    );
    await Promise.race([atPoint, done]);
    const b = await second();
    release();
    return [await a, b];
  } finally {
    release();
    stop();
  }
};

describe('a file made of an upload while the upload is terminated', () => {
  /** Both calls settled: the file reads back whole, or the creation failed clearly and the upload is gone. */
  const settledOwner = async (o: Awaited<ReturnType<typeof owner>>, uploadId: string, content: string, made: HttpResponse, deleted: HttpResponse) => {
    clear(made);
    clear(deleted);
    const fileId = deterministicId('file-from-upload', uploadId);
    if (made.status === 201) {
      expect(made.body.id).toBe(fileId);
      const read = await o.http.get(`${o.base}/files/${fileId}/sources/`);
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expect(read.body).toBe(content);
      // the termination did nothing to it: refused while saving, or the upload was already gone
      expect([409, 404]).toContain(deleted.status);
      if (deleted.status === 409) expect(deleted.body.code).toBe('CANNOT_CANCEL_WHILE_SAVING');
      return 'made';
    }
    expect(made.status).toBe(400);
    expect(made.body.code).toBe('INCOMPLETE_UPLOAD');
    expect(deleted.status).toBe(204);
    expect((await o.http.request('HEAD', `/api/uploads/${uploadId}`, undefined, TUS)).status).toBe(404);
    expect((await o.http.get(`${o.base}/files/${fileId}`)).status).toBe(404);
    // nothing left reserved either
    expect((await o.http.get(`/api/users/${o.id}/storages/`)).body.data[0]).toMatchObject({ sizeReserved: 0 });
    return 'refused';
  };

  it('the owner: every order at every step of both calls', async () => {
    const o = await owner();
    const outcomes: string[] = [];
    const points = ['file-from-upload:claimed', 'file-from-upload:added', 'upload-discard:before-delete', 'upload-discard:deleted'];
    for (const point of points) {
      const content = randomBytes(40_000).toString('base64url');
      const uploadId = await upload(o.http, content, { storageId: o.storageId });
      const make = () => o.http.post(`${o.base}/items/`, { label: 'file', name: `${point.replace(/:/g, '-')}.txt`, uploadId });
      const del = () => terminate(o.http, uploadId);
      const [made, deleted] = point.startsWith('file') ? await heldAt(point, make, del) : (await heldAt(point, del, make)).reverse();
      outcomes.push(`${point} ${await settledOwner(o, uploadId, content, made as HttpResponse, deleted as HttpResponse)}`);
    }
    // held after the claim, the file wins; held inside the termination before its deletion, the claim
    // wins too (the deletion then passes it by); held after the deletion, the creation is refused
    expect(outcomes).toEqual([
      'file-from-upload:claimed made',
      'file-from-upload:added made',
      'upload-discard:before-delete made',
      'upload-discard:deleted refused',
    ]);
    // and one after the other, in both orders
    const first = randomBytes(1000).toString('base64url');
    const a = await upload(o.http, first, { storageId: o.storageId });
    const madeFirst = await o.http.post(`${o.base}/items/`, { label: 'file', name: 'a.txt', uploadId: a });
    expect(await settledOwner(o, a, first, madeFirst, await terminate(o.http, a))).toBe('made');
    const b = await upload(o.http, first, { storageId: o.storageId });
    const deletedFirst = await terminate(o.http, b);
    const after = await o.http.post(`${o.base}/items/`, { label: 'file', name: 'b.txt', uploadId: b });
    clear(after);
    expect(after.body.code).toBe('INCOMPLETE_UPLOAD');
    expect(deletedFirst.status).toBe(204);
  }, 120_000);

  it('the owner: 30 seeded interleavings lose no file', async () => {
    const random = seeded(19);
    const o = await owner();
    const seen = new Set<string>();
    for (let round = 0; round < 30; round++) {
      const content = randomBytes(2000 + Math.floor(random() * 60_000)).toString('base64url');
      const uploadId = await upload(o.http, content, { storageId: o.storageId });
      const delay = Math.floor(random() * 25);
      const deleteFirst = random() < 0.5;
      const make = async () => {
        if (!deleteFirst) await sleep(delay);
        return o.http.post(`${o.base}/items/`, { label: 'file', name: `round-${round}.txt`, uploadId });
      };
      const del = async () => {
        if (deleteFirst) await sleep(delay);
        return terminate(o.http, uploadId);
      };
      const [made, deleted] = await Promise.all([make(), del()]);
      seen.add(
        await settledOwner(o, uploadId, content, made, deleted).catch((error: unknown) => {
          throw new Error(`round ${round} (delay ${delay}, ${deleteFirst ? 'delete' : 'create'} waits): ${String(error)}`);
        }),
      );
    }
    expect(seen.size).toBeGreaterThan(0);
  }, 300_000);

  /** A link of a new owner (a plan allows a few links a month), with `count` files sent through it. */
  const linkWithUploads = async (count: number) => {
    const o = await owner();
    const made = await o.http.post(`/api/users/${o.id}/secure-fetches/`, { note: 'Please send the files', includeMetadata: false, certificate: false });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const linkId = made.body.linkId as string;
    const sender = new HttpClient(t.url);
    const contents = Array.from({ length: count }, () => randomBytes(3000).toString('base64url'));
    const uploadIds = [];
    for (const content of contents) uploadIds.push(await upload(sender, content, { linkId }));
    const files = uploadIds.map((uploadId, i) => ({ uploadId, name: `file-${i}.txt`, size: contents[i]!.length, mime: 'text/plain' }));
    return { o, fetchId: made.body.id as string, linkId, sender, contents, uploadIds, files };
  };

  /** Both settled: the receipt's files are all stored and readable, or nothing was placed and the link is still open. */
  const settledSubmission = async (l: Awaited<ReturnType<typeof linkWithUploads>>, victim: number, submitted: HttpResponse, deleted: HttpResponse) => {
    clear(submitted);
    clear(deleted);
    if (submitted.status === 201) {
      expect(submitted.body.items).toHaveLength(l.files.length);
      for (const [i, uploadId] of l.uploadIds.entries()) {
        const read = await l.o.http.get(`${l.o.base}/files/${deterministicId('file-from-upload', uploadId)}/sources/`);
        expect(read.status, `file ${i}: ${JSON.stringify(read.body)}`).toBe(200);
        expect(read.body).toBe(l.contents[i]);
      }
      expect([409, 404, 401]).toContain(deleted.status);
      return 'stored';
    }
    expect(submitted.status).toBe(400);
    expect(submitted.body).toMatchObject({ code: 'INCOMPLETE_UPLOAD', data: { uploadId: l.uploadIds[victim] } });
    expect(deleted.status).toBe(204);
    // nothing was placed and the link is not used: the other files can still be sent
    const link = await l.o.http.get(`/api/users/${l.o.id}/secure-fetches/${l.fetchId}/`);
    expect(link.body.items).toEqual([]);
    const rest = l.files.filter((_, i) => i !== victim);
    const again = await l.sender.post(`/api/shares/${l.linkId}/`, { files: rest });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.items).toHaveLength(rest.length);
    return 'refused';
  };

  it('a Secure Fetch submission: every order at every step of both calls', async () => {
    const outcomes: string[] = [];
    const points = ['secure-fetch-submit:claimed', 'secure-fetch-submit:placing', 'upload-discard:before-delete', 'upload-discard:deleted'];
    for (const point of points) {
      const l = await linkWithUploads(3);
      const submit = () => l.sender.post(`/api/shares/${l.linkId}/`, { files: l.files });
      const del = () => terminate(l.sender, l.uploadIds[1]!);
      const [submitted, deleted] = point.startsWith('secure') ? await heldAt(point, submit, del) : (await heldAt(point, del, submit)).reverse();
      outcomes.push(`${point} ${await settledSubmission(l, 1, submitted as HttpResponse, deleted as HttpResponse)}`);
    }
    expect(outcomes).toEqual([
      'secure-fetch-submit:claimed stored',
      'secure-fetch-submit:placing stored',
      'upload-discard:before-delete stored',
      'upload-discard:deleted refused',
    ]);
  }, 180_000);

  it('a Secure Fetch submission: 8 seeded interleavings lose no file', async () => {
    const random = seeded(6);
    for (let round = 0; round < 8; round++) {
      const l = await linkWithUploads(3);
      const victim = Math.floor(random() * 3);
      const delay = Math.floor(random() * 25);
      const deleteFirst = random() < 0.5;
      const [submitted, deleted] = await Promise.all([
        (async () => {
          if (!deleteFirst) await sleep(delay);
          return l.sender.post(`/api/shares/${l.linkId}/`, { files: l.files });
        })(),
        (async () => {
          if (deleteFirst) await sleep(delay);
          return terminate(l.sender, l.uploadIds[victim]!);
        })(),
      ]);
      await settledSubmission(l, victim, submitted, deleted).catch((error: unknown) => {
        throw new Error(`round ${round} (upload ${victim}, delay ${delay}, ${deleteFirst ? 'delete' : 'submit'} waits): ${String(error)}`);
      });
    }
  }, 300_000);
});
