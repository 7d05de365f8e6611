import { randomBytes, randomUUID } from 'node:crypto';
import type { PinnableDag, PinningService } from '@axel/platform/ipfs/pinning';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../testing/harness';
import { blockMatches, buildFileDag } from './ipfs.dag';
import { EmbeddedPinning } from './ipfs.embedded.store';
import { KuboPinning } from './ipfs.kubo';
import { KuboStandIn } from './kubo-standin';

/*
 * The pinning port's contract, run against each adapter: the embedded service (the product's own,
 * over its database) and Kubo's HTTP RPC (against a stand-in speaking Kubo's documented shapes).
 */

const CHUNK = 64 * 1024;
/** Files by the origin a pin records: the embedded service reads its leaves back from here. */
const files = new Map<string, Buffer>();
const leafOf = (file: Buffer, index: number) => file.subarray(index * CHUNK, (index + 1) * CHUNK);

/** A file's DAG as the port takes it, its leaves read from the file on demand. */
const dagOf = async (file: Buffer): Promise<PinnableDag & { origin: string }> => {
  const origin = randomUUID();
  files.set(origin, file);
  const built = await buildFileDag(
    (async function* () {
      yield file;
    })(),
    CHUNK,
  );
  return { ...built, origin, leaf: async (index) => leafOf(file, index) };
};

interface Fixture {
  readonly service: PinningService;
  /** A block as the service now holds it (and would serve it), or null. */
  block(cid: string): Promise<Uint8Array | null>;
}

const t = useTestApp();
const standIn = new KuboStandIn();
let kuboUrl = '';
beforeAll(async () => {
  kuboUrl = await standIn.start();
});
afterAll(() => standIn.stop());

const fixtures: Record<string, () => Fixture> = {
  embedded: () => {
    const service = new EmbeddedPinning(t().app.ctx.pool, async (origin, index) => leafOf(files.get(origin as string)!, index));
    return {
      service,
      block: async (cid) => {
        const held = await service.block(cid);
        return held ? held.bytes() : null;
      },
    };
  },
  'kubo (stand-in)': () => ({
    service: new KuboPinning(kuboUrl),
    block: async (cid) => {
      const res = await fetch(`${kuboUrl}/api/v0/block/get?arg=${cid}`, { method: 'POST' });
      return res.ok ? new Uint8Array(await res.arrayBuffer()) : null;
    },
  }),
};

describe.each(Object.keys(fixtures))('pinning port: %s', (name) => {
  const fixture = () => fixtures[name]!();

  it('pins a DAG: pinned under its root, every block held and matching its CID', async () => {
    const { service, block } = fixture();
    const dag = await dagOf(randomBytes(3 * CHUNK + 99));
    const requestId = randomUUID();
    expect(await service.status(requestId, dag.root)).toBeNull();
    const state = await service.pin({ requestId, name: 'contract', dag, origin: dag.origin });
    expect(state).toMatchObject({ requestId, cid: dag.root, status: 'pinned' });
    expect(await service.status(requestId, dag.root)).toMatchObject({ cid: dag.root, status: 'pinned' });
    expect(dag.nodes.length).toBe(1);
    for (const cid of [dag.root, ...dag.leaves]) {
      const bytes = await block(cid);
      expect(bytes, cid).not.toBeNull();
      expect(await blockMatches(cid, bytes!)).toBe(true);
    }
  });

  it('a file of one leaf is pinned as that leaf', async () => {
    const { service, block } = fixture();
    const dag = await dagOf(Buffer.from('one leaf'));
    expect(dag.nodes).toEqual([]);
    expect((await service.pin({ requestId: randomUUID(), name: 'one', dag, origin: dag.origin })).cid).toBe(dag.root);
    expect(Buffer.from((await block(dag.root))!).toString()).toBe('one leaf');
  });

  it('pinning again answers the same pin', async () => {
    const { service } = fixture();
    const dag = await dagOf(randomBytes(2 * CHUNK));
    const requestId = randomUUID();
    const first = await service.pin({ requestId, name: 'again', dag, origin: dag.origin });
    const second = await service.pin({ requestId, name: 'again', dag, origin: dag.origin });
    expect(second).toEqual(first);
  });

  it('unpins: no longer pinned; unpinning again is a no-op', async () => {
    const { service } = fixture();
    const dag = await dagOf(randomBytes(CHUNK + 1));
    const requestId = randomUUID();
    await service.pin({ requestId, name: 'gone', dag, origin: dag.origin });
    await service.unpin(requestId, dag.root);
    expect(await service.status(requestId, dag.root)).toBeNull();
    await service.unpin(requestId, dag.root);
  });

  it('refuses a DAG whose root node is missing or whose node does not match its CID, and pins nothing', async () => {
    const { service } = fixture();
    const dag = await dagOf(randomBytes(2 * CHUNK + 5));
    const requestId = randomUUID();
    await expect(service.pin({ requestId, name: 'missing', dag: { ...dag, nodes: [] }, origin: dag.origin })).rejects.toThrow();
    expect(await service.status(requestId, dag.root)).toBeNull();
    const tampered = { cid: dag.nodes[0]!.cid, bytes: Uint8Array.from(dag.nodes[0]!.bytes, (b, i) => (i === 5 ? b ^ 1 : b)) };
    await expect(service.pin({ requestId, name: 'tampered', dag: { ...dag, nodes: [tampered] }, origin: dag.origin })).rejects.toThrow();
    expect(await service.status(requestId, dag.root)).toBeNull();
  });
});

describe('Kubo RPC stand-in: the shapes of Kubo’s documented RPC', () => {
  it('takes POST only; answers a failed command 500 {Message, Code, Type: "error"}', async () => {
    expect((await fetch(`${kuboUrl}/api/v0/pin/ls`)).status).toBe(405);
    const res = await fetch(`${kuboUrl}/api/v0/pin/ls?arg=bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku&type=recursive`, { method: 'POST' });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      Message: "path 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku' is not pinned",
      Code: 0,
      Type: 'error',
    });
  });

  it('the adapter imports the DAG as a CAR without pinning its roots, then pins the root recursively', async () => {
    const dag = await dagOf(randomBytes(CHUNK + 3));
    const from = standIn.calls.length;
    await new KuboPinning(kuboUrl).pin({ requestId: randomUUID(), name: 'shapes', dag });
    expect(standIn.calls.slice(from)).toEqual([
      { command: 'dag/import', args: { 'pin-roots': 'false', stats: 'true' } },
      { command: 'pin/add', args: { arg: dag.root, recursive: 'true', name: 'shapes' } },
    ]);
  });
});
