import { createHash, randomBytes } from 'node:crypto';
import { CarBlockIterator } from '@ipld/car';
import * as dagPb from '@ipld/dag-pb';
import { CHUNK_PLAIN_SIZE } from '@axel/platform/blobs/index';
import { importBytes } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { ERASED } from '@axel/domain';
import { EmbeddedProcessRuntime } from '@axel/workflows';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, useTestApp } from '../../testing/harness';

const t = useTestApp({ env: { RATE_LIMIT_FACTOR: '20', ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', ACCOUNT_RETENTION_DAYS: '30' } });
const helpers = accountHelpers(t);
const TUS = { 'tus-resumable': '1.0.0' };
const CAR = 'application/vnd.ipld.car';
const RAW = 'application/vnd.ipld.raw';

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> => {
  for (let i = 0; i < 150; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/** The UnixFS root an IPFS client computes for these bytes with the product's settings (computed here, independently). */
const expectedRoot = async (bytes: Uint8Array) =>
  (
    await importBytes(
      bytes,
      { put: async (cid: CID) => cid },
      { cidVersion: 1, rawLeaves: true, chunker: fixedSize({ chunkSize: CHUNK_PLAIN_SIZE }), reduceSingleLeafToSelf: true },
    )
  ).cid.toString();

/** A block checked against its CID here: the multihash recomputed over the bytes. */
const verifies = async (cid: CID, bytes: Uint8Array) => {
  expect(cid.multihash.code).toBe(sha256.code);
  return Buffer.from((await sha256.digest(bytes)).digest).equals(Buffer.from(cid.multihash.digest));
};

/** A CAR fetched through the gateway: every block verified, the file reassembled from the root by its links. */
const fetchCar = async (path: string, root: string) => {
  const res = await fetch(`${t().url}${path}`, { headers: { accept: CAR } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/vnd\.ipld\.car/);
  const car = await CarBlockIterator.fromBytes(new Uint8Array(await res.arrayBuffer()));
  expect((await car.getRoots()).map(String)).toEqual([root]);
  const blocks = new Map<string, Uint8Array>();
  for await (const block of car) {
    expect(await verifies(block.cid, block.bytes), `block ${block.cid} verifies`).toBe(true);
    blocks.set(block.cid.toString(), block.bytes);
  }
  const parts: Uint8Array[] = [];
  const walk = (cid: CID) => {
    const bytes = blocks.get(cid.toString());
    if (!bytes) throw new Error(`the CAR lacks ${cid}`);
    if (cid.code === raw.code) parts.push(bytes);
    else for (const link of dagPb.decode(bytes).Links) walk(link.Hash);
  };
  walk(CID.parse(root));
  return { file: Buffer.concat(parts), blocks };
};

const owner = async () => {
  const { email, id } = await helpers.signUpConfirmed();
  const { http } = await helpers.signIn(email);
  return { http, id };
};

const uploadThrough = async (linkId: string, data: Buffer, name: string) => {
  const http = new HttpClient(t().url);
  const created = await http.request('POST', '/api/uploads/', undefined, {
    ...TUS,
    'upload-length': String(data.length),
    'upload-metadata': `secureFetchId ${Buffer.from(linkId).toString('base64')},filename ${Buffer.from(name).toString('base64')}`,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const location = created.headers.get('location')!;
  const patched = await http.request('PATCH', location, new Uint8Array(data), {
    ...TUS,
    'upload-offset': '0',
    'content-type': 'application/offset+octet-stream',
  });
  expect(patched.status, JSON.stringify(patched.body)).toBe(204);
  return { uploadId: location.split('/').pop()!, name, size: data.length, mime: 'application/octet-stream' };
};

/** A link with these files received through it. */
const received = async (contents: Buffer[]) => {
  const user = await owner();
  const link = (await user.http.post(`/api/users/${user.id}/secure-fetches/`, { note: 'Send the scans', certificate: true })).body;
  const files = [];
  for (const [i, data] of contents.entries()) files.push(await uploadThrough(link.linkId, data, `scan-${i}.bin`));
  const receipt = await new HttpClient(t().url).post(`/api/shares/${link.linkId}/`, { files });
  expect(receipt.status, JSON.stringify(receipt.body)).toBe(201);
  return { ...user, link };
};

const fund = async (http: HttpClient) => {
  expect((await http.post('/api/wallet/v1/addresses', {})).status).toBe(201);
  expect((await http.post('/api/wallet/v1/faucet', { amount: '1' })).status).toBe(200);
  const before = (await http.get('/api/wallet/v1/blockchaininfo')).body.blocks as number;
  t().clock.advance(10_000);
  await until(
    () => http.get('/api/wallet/v1/blockchaininfo'),
    (r) => r.body.blocks > before,
    'a block',
  );
};

describe('IPFS pinning of paid Secure Fetch files and the trustless gateway', () => {
  let root: HttpClient;
  beforeAll(async () => {
    root = (await helpers.signIn('root@axel.test', 'Root-pass-123')).http;
  });

  it('pays and pins: the certificate names each root CID; the root fetched as a CAR verifies block by block and reassembles the file', async () => {
    const big = randomBytes(2 * CHUNK_PLAIN_SIZE + 123_457);
    const small = Buffer.from('a short letter\n');
    const roots = [await expectedRoot(big), await expectedRoot(small)];
    const { http, id, link } = await received([big, small]);

    // unpaid: nothing of it is served, at either address, in either form
    for (const path of [`/api/ipfs/${roots[0]}`, `/ipfs/${roots[0]}`, `/ipfs/${roots[1]}`]) {
      for (const accept of [CAR, RAW]) {
        const res = await fetch(`${t().url}${path}`, { headers: { accept } });
        expect([path, accept, res.status]).toEqual([path, accept, 404]);
        expect(((await res.json()) as { code: string }).code).toBe('BLOCK_NOT_FOUND');
      }
    }

    await fund(http);
    const paid = await http.post(`/api/users/${id}/secure-fetches/${link.id}/pay`);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);

    const certificate = (await http.get(`/api/users/${id}/secure-fetches/${link.id}/certificate`)).body;
    expect(certificate.files.map((f: { cid: string }) => f.cid)).toEqual(roots);
    // the CIDs are part of what the transaction's hash certifies
    const { txId, canonicalSha256, ...body } = certificate;
    expect(txId).toBe(paid.body.txId);
    const canonical = (value: unknown): string => {
      if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
      if (value && typeof value === 'object')
        return `{${Object.keys(value)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
          .join(',')}}`;
      return JSON.stringify(value);
    };
    expect(createHash('sha256').update(canonical(body)).digest('hex')).toBe(canonicalSha256);

    const pins = await http.get(`/api/users/${id}/secure-fetches/${link.id}/pins`);
    expect(pins.status).toBe(200);
    expect(pins.body.data.map((p: { status: string; cid: string }) => [p.status, p.cid])).toEqual(roots.map((r) => ['pinned', r]));
    expect(pins.body.data[0].url).toBe(`${t().app.ctx.config.publicUrl}/ipfs/${roots[0]}`);

    // the CAR of the big file: root node and three leaves, each verified, the file byte for byte
    const fetched = await fetchCar(`/api/ipfs/${roots[0]}`, roots[0]!);
    expect(fetched.blocks.size).toBe(4);
    expect(fetched.file.equals(big)).toBe(true);
    // at the site root too, and for the one-leaf file (its root is its only block)
    expect((await fetchCar(`/ipfs/${roots[1]}`, roots[1]!)).file.equals(small)).toBe(true);
    expect((await fetchCar(`/ipfs/${roots[0]}?format=car`, roots[0]!)).file.equals(big)).toBe(true);

    // one block, raw: the root node, and a leaf named by a CIDv1 the root links to
    const rootBlock = await fetch(`${t().url}/ipfs/${roots[0]}`, { headers: { accept: RAW } });
    expect(rootBlock.status).toBe(200);
    expect(rootBlock.headers.get('content-type')).toBe(RAW);
    expect(rootBlock.headers.get('etag')).toBe(`"${roots[0]}.raw"`);
    const rootBytes = new Uint8Array(await rootBlock.arrayBuffer());
    expect(await verifies(CID.parse(roots[0]!), rootBytes)).toBe(true);
    const leaf = dagPb.decode(rootBytes).Links[1]!.Hash;
    const leafBlock = await fetch(`${t().url}/api/ipfs/${leaf}?format=raw`);
    expect(leafBlock.status).toBe(200);
    const leafBytes = Buffer.from(await leafBlock.arrayBuffer());
    expect(await verifies(leaf, leafBytes)).toBe(true);
    expect(leafBytes.equals(big.subarray(CHUNK_PLAIN_SIZE, 2 * CHUNK_PLAIN_SIZE))).toBe(true);

    // what the gateway does not serve: other answers than blocks and CARs, strings that are no CID, unknown CIDs
    expect((await fetch(`${t().url}/ipfs/${roots[0]}`, { headers: { accept: 'text/html' } })).status).toBe(406);
    expect((await fetch(`${t().url}/api/ipfs/not-a-cid`, { headers: { accept: RAW } })).status).toBe(404);
    const unknown = await expectedRoot(randomBytes(64));
    expect((await fetch(`${t().url}/api/ipfs/${unknown}`, { headers: { accept: RAW } })).status).toBe(404);

    // paying again pins nothing twice
    expect((await http.post(`/api/users/${id}/secure-fetches/${link.id}/pay`)).body.txId).toBe(paid.body.txId);
    expect((await http.get(`/api/users/${id}/secure-fetches/${link.id}/pins`)).body.data).toHaveLength(2);
  });

  it('public links follow the preferred gateway, whose format is checked', async () => {
    const { http, id, link } = await received([randomBytes(5000)]);
    await fund(http);
    expect((await http.post(`/api/users/${id}/secure-fetches/${link.id}/pay`)).status).toBe(200);
    expect((await http.get(`/api/users/${id}/ipfs-gateway`)).body).toMatchObject({ gateway: null });

    const bad = await http.request('PUT', `/api/users/${id}/ipfs-gateway`, { gateway: 'http://ipfs.io' });
    expect([bad.status, bad.body.code, bad.body.message]).toEqual([400, 'INVALID_IPFS_GATEWAY', 'Enter a valid IPFS gateway address']);
    const chosen = await http.request('PUT', `/api/users/${id}/ipfs-gateway`, { gateway: 'https://dweb.example.org/ipfs/' });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body.gateway).toBe('https://dweb.example.org');
    const pins = (await http.get(`/api/users/${id}/secure-fetches/${link.id}/pins`)).body.data;
    expect(pins[0].url).toBe(`https://dweb.example.org/ipfs/${pins[0].cid}`);
    await http.request('PUT', `/api/users/${id}/ipfs-gateway`, { gateway: 'https://{cid}.ipfs.example.org' });
    expect((await http.get(`/api/users/${id}/secure-fetches/${link.id}/pins`)).body.data[0].url).toBe(`https://${pins[0].cid}.ipfs.example.org`);

    // another account sees neither the settings nor the pins
    const other = await owner();
    expect((await other.http.get(`/api/users/${id}/ipfs-gateway`)).status).toBe(403);
    expect((await other.http.get(`/api/users/${id}/secure-fetches/${link.id}/pins`)).status).toBe(403);
  });

  it('staff list pins with status, size, owner and transaction; unpinning needs a reason and stops the gateway serving it; only a failed pin is retried', async () => {
    const data = randomBytes(CHUNK_PLAIN_SIZE + 10);
    const cid = await expectedRoot(data);
    const { http, id, link } = await received([data]);
    await fund(http);
    const paid = await http.post(`/api/users/${id}/secure-fetches/${link.id}/pay`);

    // a user is not staff
    expect((await http.get('/api/admin/ipfs-pins/')).status).toBe(403);
    const listed = await root.get(`/api/admin/ipfs-pins/?filter=${encodeURIComponent(JSON.stringify({ q: cid }))}`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body).toHaveLength(1);
    const pin = listed.body[0];
    expect(pin).toMatchObject({ status: 'pinned', cid, size: data.length, ownerId: id, txId: paid.body.txId, service: 'embedded', blocks: 3 });
    expect((await root.get(`/api/admin/ipfs-pins/?filter=${encodeURIComponent(JSON.stringify({ status: 'failed', q: cid }))}`)).body).toEqual([]);

    const retried = await root.post(`/api/admin/ipfs-pins/${pin.id}/retry`);
    expect([retried.status, retried.body.code]).toEqual([409, 'PIN_NOT_FAILED']);
    const noReason = await root.post(`/api/admin/ipfs-pins/${pin.id}/unpin`, { reason: '  ' });
    expect([noReason.status, noReason.body.code]).toEqual([400, 'REASON_REQUIRED']);
    expect((await fetch(`${t().url}/ipfs/${cid}`, { headers: { accept: CAR } })).status).toBe(200);

    const unpinned = await root.post(`/api/admin/ipfs-pins/${pin.id}/unpin`, { reason: 'Takedown request 42' });
    expect(unpinned.status, JSON.stringify(unpinned.body)).toBe(200);
    expect(unpinned.body).toMatchObject({ status: 'unpinned', removedReason: 'Takedown request 42', url: null });
    expect((await fetch(`${t().url}/ipfs/${cid}`, { headers: { accept: CAR } })).status).toBe(404);
    expect((await root.post(`/api/admin/ipfs-pins/${pin.id}/unpin`, { reason: 'again' })).body.code).toBe('PIN_UNPINNED');
    // the removal is an event of the pin's stream, with who and why
    const { events } = await t().app.ctx.store.readStream(`ipfs-pin-${pin.id}`);
    expect(events.map((e) => e.type)).toEqual(['IpfsPinRequested', 'IpfsPinStarted', 'IpfsPinPinned', 'IpfsPinRemoved']);
    expect(events.at(-1)!.metadata).toMatchObject({ actorKind: 'staff' });
    expect((await root.post(`/api/admin/ipfs-pins/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/retry`)).status).toBe(404);
  });

  it("a purged account's pins are unpinned (an event with the reason) and no longer served; its chosen gateway reads as erased", async () => {
    const tag = randomBytes(4).toString('hex');
    const data = randomBytes(3000);
    const cid = await expectedRoot(data);
    const { http, id, link } = await received([data]);
    await fund(http);
    expect((await http.post(`/api/users/${id}/secure-fetches/${link.id}/pay`)).status).toBe(200);
    expect((await http.request('PUT', `/api/users/${id}/ipfs-gateway`, { gateway: `https://gw-${tag}.example.org` })).status).toBe(200);
    expect((await fetch(`${t().url}/ipfs/${cid}?format=car`)).status).toBe(200);

    expect((await http.delete(`/api/users/${id}/`, { confirmation: 'YES', password: helpers.PASSWORD })).status).toBe(204);
    const runtime = t().app.ctx.processes();
    if (!(runtime instanceof EmbeddedProcessRuntime)) throw new Error('expected the embedded runtime');
    await runtime.whenIdle({ timeoutMs: 120_000 });
    t().clock.advance(31 * 86_400_000);
    await runtime.fireDueTimers();
    await runtime.whenIdle({ timeoutMs: 120_000 });
    expect(await t().app.ctx.runner.waitFor(await t().app.ctx.store.headPosition(), { timeoutMs: 10_000 })).toBe(true);

    expect((await fetch(`${t().url}/ipfs/${cid}?format=car`)).status).toBe(404);
    expect((await fetch(`${t().url}/ipfs/${cid}?format=raw`)).status).toBe(404);
    // a month later: staff sign in again
    const staff = (await helpers.signIn('root@axel.test', 'Root-pass-123')).http;
    const pin = (await staff.get(`/api/admin/ipfs-pins/?filter=${encodeURIComponent(JSON.stringify({ q: cid }))}`)).body[0];
    expect(pin).toMatchObject({ status: 'unpinned', removedReason: "The owner's account was erased" });
    const { events } = await t().app.ctx.store.readStream(`ipfs-settings-${id}`);
    expect(events.map((e) => e.type)).toEqual(['IpfsGatewayChosen', 'IpfsSettingsForgotten']);
    expect(events[0]!.data).toMatchObject({ gateway: ERASED });
    const { rows } = await t().app.ctx.pool.query<{ r: string }>(`select string_agg(t::text, ' ') as r from es_events t`);
    expect(rows[0]!.r).not.toContain(tag);
  }, 300_000);
});
