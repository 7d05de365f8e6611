import type { PinRequest, PinningService, PinState } from '@axel/platform/ipfs/pinning';
import { carOf } from './ipfs.car';
import { dagBlocks } from './ipfs.dag';

/** An error Kubo's RPC answered (`{Message, Code, Type: "error"}`, HTTP 500 for a command that failed). */
export class KuboRpcError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'KuboRpcError';
  }
}

/**
 * Pins on a Kubo node through its HTTP RPC (every call a POST under `/api/v0`): the DAG is handed over
 * as a CAR by `dag/import` (its blocks streamed, leaves read from the file's chunks as they go), then
 * its root pinned recursively by `pin/add`; `pin/ls` tells whether it is pinned, `pin/rm` unpins.
 * For the same CIDs a file added to Kubo itself needs `--cid-version=1 --raw-leaves` and the file's
 * plaintext bytes per chunk as its chunker size.
 */
export class KuboPinning implements PinningService {
  readonly kind = 'kubo';
  private readonly base: string;

  constructor(rpcUrl: string) {
    this.base = `${rpcUrl.replace(/\/+$/, '')}/api/v0`;
  }

  private async call(command: string, args: Record<string, string>, init: RequestInit & { duplex?: 'half' } = {}): Promise<Response> {
    const query = new URLSearchParams(args);
    const response = await fetch(`${this.base}/${command}?${query}`, { method: 'POST', ...init });
    if (!response.ok) {
      const text = await response.text();
      let message = text.trim() || `HTTP ${response.status}`;
      try {
        message = (JSON.parse(text) as { Message?: string }).Message ?? message;
      } catch {
        // a proxy's page, not Kubo's JSON: its text as it is
      }
      throw new KuboRpcError(response.status, `${command}: ${message}`);
    }
    return response;
  }

  async pin(request: PinRequest): Promise<PinState> {
    const { dag } = request;
    const boundary = `axel-${crypto.randomUUID()}`;
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="dag.car"\r\nContent-Type: application/vnd.ipld.car\r\n\r\n`,
    );
    const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
    const car = carOf(dag.root, dagBlocks(dag));
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(head),
      async pull(controller) {
        try {
          const next = await car.next();
          if (next.done) {
            controller.enqueue(tail);
            controller.close();
          } else controller.enqueue(next.value);
        } catch (error) {
          controller.error(error);
        }
      },
    });
    const imported = await this.call(
      'dag/import',
      { 'pin-roots': 'false', stats: 'true' },
      { body, duplex: 'half', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } },
    );
    await imported.text();
    const added = (await (await this.call('pin/add', { arg: dag.root, recursive: 'true', name: request.name })).json()) as { Pins?: string[] };
    if (!added.Pins?.includes(dag.root)) throw new KuboRpcError(200, `pin/add: ${dag.root} was not pinned`);
    return { requestId: request.requestId, cid: dag.root, status: 'pinned' };
  }

  async status(requestId: string, cid: string): Promise<PinState | null> {
    try {
      const listed = (await (await this.call('pin/ls', { arg: cid, type: 'recursive' })).json()) as { Keys?: Record<string, { Type: string }> };
      return listed.Keys?.[cid] ? { requestId, cid, status: 'pinned' } : null;
    } catch (error) {
      if (error instanceof KuboRpcError && /not pinned/.test(error.message)) return null;
      throw error;
    }
  }

  async unpin(_requestId: string, cid: string): Promise<void> {
    try {
      await (await this.call('pin/rm', { arg: cid })).text();
    } catch (error) {
      if (error instanceof KuboRpcError && /not pinned/.test(error.message)) return;
      throw error;
    }
  }
}
