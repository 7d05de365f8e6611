import type { Pool } from '@axel/platform';
import type { PinRequest, PinningService, PinState } from '@axel/platform/ipfs/pinning';
import { blockMatches } from './ipfs.dag';

/**
 * Reads the leaves of a pinned DAG back from where the file's bytes are: `origin` is what the pin was
 * asked with (the file's manifest), `index` the leaf's place in the file.
 */
export type LeafReader = (origin: unknown, index: number) => Promise<Uint8Array>;

/** A block of a root the embedded service holds pinned, as the gateway serves it. */
export interface ServedBlock {
  readonly cid: string;
  bytes(): Promise<Uint8Array>;
}

/**
 * The embedded pinning service: the product serves its pinned DAGs itself through its trustless
 * gateway. A pin records the DAG's inner nodes and names each leaf by the file chunk holding it; a
 * block is served only while a root it belongs to is pinned, and a leaf only once read back and
 * checked against its CID.
 */
export class EmbeddedPinning implements PinningService {
  readonly kind = 'embedded';

  constructor(
    private readonly db: Pool,
    private readonly readLeaf: LeafReader,
  ) {}

  async pin(request: PinRequest): Promise<PinState> {
    const { dag } = request;
    const client = await this.db.connect();
    try {
      await client.query('begin');
      const held = await client.query<{ root: string }>('select root from ipfs_embedded_pins where request_id = $1 for update', [request.requestId]);
      if (held.rows[0]) {
        await client.query('commit');
        return { requestId: request.requestId, cid: held.rows[0].root, status: 'pinned' };
      }
      const blocks = new Map<string, { position: number; node: Uint8Array | null; leaf: number | null }>();
      for (const node of dag.nodes) {
        if (!(await blockMatches(node.cid, node.bytes))) throw new Error(`node ${node.cid} does not match its CID`);
        if (!blocks.has(node.cid)) blocks.set(node.cid, { position: blocks.size, node: node.bytes, leaf: null });
      }
      dag.leaves.forEach((cid, index) => {
        if (!blocks.has(cid)) blocks.set(cid, { position: blocks.size, node: null, leaf: index });
      });
      if (!blocks.has(dag.root)) throw new Error(`the root ${dag.root} is neither a node nor a leaf of its DAG`);
      await client.query(`insert into ipfs_embedded_pins (request_id, root, name, origin, blocks, size, pinned_at) values ($1, $2, $3, $4, $5, $6, now())`, [
        request.requestId,
        dag.root,
        request.name,
        JSON.stringify(request.origin ?? null),
        blocks.size,
        dag.size,
      ]);
      const rows = [...blocks].map(([cid, b]) => ({
        cid,
        position: b.position,
        node: b.node ? Buffer.from(b.node).toString('base64') : null,
        leaf_index: b.leaf,
      }));
      await client.query(
        `insert into ipfs_embedded_blocks (request_id, cid, position, node, leaf_index)
         select $1, r.cid, r.position, decode(r.node, 'base64'), r.leaf_index
         from jsonb_to_recordset($2::jsonb) as r(cid text, position integer, node text, leaf_index integer)`,
        [request.requestId, JSON.stringify(rows)],
      );
      await client.query('commit');
      return { requestId: request.requestId, cid: dag.root, status: 'pinned' };
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async status(requestId: string, cid: string): Promise<PinState | null> {
    const { rows } = await this.db.query<{ root: string }>('select root from ipfs_embedded_pins where request_id = $1 and root = $2', [requestId, cid]);
    return rows[0] ? { requestId, cid: rows[0].root, status: 'pinned' } : null;
  }

  async unpin(requestId: string, cid: string): Promise<void> {
    await this.db.query('delete from ipfs_embedded_pins where request_id = $1 and root = $2', [requestId, cid]);
  }

  /** A block of a pinned root, or null when no pinned root holds it. */
  async block(cid: string): Promise<ServedBlock | null> {
    const { rows } = await this.db.query<{ node: Buffer | null; leaf_index: number | null; origin: unknown }>(
      `select b.node, b.leaf_index, p.origin from ipfs_embedded_blocks b join ipfs_embedded_pins p using (request_id)
       where b.cid = $1 order by p.pinned_at limit 1`,
      [cid],
    );
    const row = rows[0];
    if (!row) return null;
    return { cid, bytes: () => (row.node ? Promise.resolve(row.node) : this.verifiedLeaf(cid, row.origin, row.leaf_index!)) };
  }

  private async verifiedLeaf(cid: string, origin: unknown, index: number): Promise<Uint8Array> {
    const bytes = await this.readLeaf(origin, index);
    if (!(await blockMatches(cid, bytes))) throw new LeafMismatchError(cid);
    return bytes;
  }
}

/** A leaf read back from the file is not what its CID names (the file changed or was destroyed). */
export class LeafMismatchError extends Error {
  constructor(readonly cid: string) {
    super(`the bytes read for ${cid} do not match it`);
    this.name = 'LeafMismatchError';
  }
}
