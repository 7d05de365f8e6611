import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CarBlockIterator } from '@ipld/car';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { blockMatches } from './ipfs.dag';

/**
 * A STAND-IN for a Kubo node's HTTP RPC, for development and tests (a real Kubo cannot be installed
 * here): it serves only the calls the Kubo pinning adapter makes, with the request and answer shapes
 * of Kubo's documented RPC (every call a POST under /api/v0; a failed command answers HTTP 500
 * `{"Message", "Code": 0, "Type": "error"}`): `dag/import` (a CAR in a multipart body, each block
 * checked against its CID), `pin/add`, `pin/ls`, `pin/rm`, and `block/get` to look at what it holds.
 */
export class KuboStandIn {
  readonly blocks = new Map<string, Uint8Array>();
  readonly pins = new Map<string, string>();
  /** Every call made to it, for tests: the command and its query. */
  readonly calls: { command: string; args: Record<string, string> }[] = [];
  /** While true the node is unreachable: every connection is dropped (as a stopped node's would be refused). */
  unreachable = false;
  private server: Server | null = null;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      if (this.unreachable) return void req.socket.destroy();
      this.handle(req, res).catch((error: unknown) => fail(res, error instanceof Error ? error.message : String(error)));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://standin');
    const command = url.pathname.replace(/^\/api\/v0\//, '');
    const args = Object.fromEntries(url.searchParams);
    this.calls.push({ command, args });
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('405 - Method Not Allowed');
      return;
    }
    switch (command) {
      case 'dag/import': {
        const car = filePart(await body(req), req.headers['content-type'] ?? '');
        let count = 0;
        let bytes = 0;
        for await (const block of await CarBlockIterator.fromBytes(car)) {
          const cid = block.cid.toString();
          if (!(await blockMatches(cid, block.bytes))) return fail(res, `block ${cid} does not match its hash`);
          this.blocks.set(cid, block.bytes);
          count++;
          bytes += block.bytes.byteLength;
        }
        return json(res, { Stats: { BlockCount: count, BlockBytesCount: bytes } });
      }
      case 'pin/add': {
        const cid = args.arg ?? '';
        const missing = this.missingUnder(cid);
        if (missing) return fail(res, `block was not found locally (offline): ipld: could not find ${missing}`);
        this.pins.set(cid, args.name ?? '');
        return json(res, { Pins: [cid] });
      }
      case 'pin/ls': {
        const cid = args.arg;
        if (cid && !this.pins.has(cid)) return fail(res, `path '${cid}' is not pinned`);
        const keys = cid ? [cid] : [...this.pins.keys()];
        return json(res, { Keys: Object.fromEntries(keys.map((k) => [k, { Type: 'recursive', Name: this.pins.get(k) ?? '' }])) });
      }
      case 'pin/rm': {
        const cid = args.arg ?? '';
        if (!this.pins.delete(cid)) return fail(res, 'not pinned or pinned indirectly');
        return json(res, { Pins: [cid] });
      }
      case 'block/get': {
        const block = this.blocks.get(args.arg ?? '');
        if (!block) return fail(res, 'block was not found locally (offline): ipld: could not find');
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(block);
        return;
      }
      default:
        res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
    }
  }

  /** The first block under `root` the stand-in does not hold, or null when it holds the whole DAG. */
  private missingUnder(root: string): string | null {
    const bytes = this.blocks.get(root);
    if (!bytes) return root;
    if (CID.parse(root).code !== dagPb.code) return null;
    for (const link of dagPb.decode(bytes).Links) {
      const missing = this.missingUnder(link.Hash.toString());
      if (missing) return missing;
    }
    return null;
  }
}

const body = async (req: IncomingMessage): Promise<Buffer> => {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
};

/** The content of the multipart body's first part (Kubo reads its file argument from it). */
const filePart = (raw: Buffer, contentType: string): Uint8Array => {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) throw new Error("file argument 'path' is required");
  const marker = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const start = raw.indexOf(marker);
  const headersEnd = raw.indexOf('\r\n\r\n', start);
  const end = raw.indexOf(Buffer.concat([Buffer.from('\r\n'), marker]), headersEnd);
  if (start < 0 || headersEnd < 0 || end < 0) throw new Error("file argument 'path' is required");
  return raw.subarray(headersEnd + 4, end);
};

const json = (res: ServerResponse, value: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(`${JSON.stringify(value)}\n`);
};

const fail = (res: ServerResponse, message: string) => {
  if (res.headersSent) return void res.destroy();
  res.writeHead(500, { 'content-type': 'application/json' }).end(`${JSON.stringify({ Message: message, Code: 0, Type: 'error' })}\n`);
};
