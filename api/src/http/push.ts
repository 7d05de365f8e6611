import createSubscriber, { type Subscriber } from 'pg-listen';
import type { Pool } from '@axel/platform';
import type { FastifyReply } from 'fastify';

const CHANNEL = 'axel_push';

export interface PushMessage {
  readonly userId: string;
  readonly event: string;
  readonly data: unknown;
}

/**
 * Server-sent events to signed-in browsers. Messages travel through PostgreSQL NOTIFY, so an API
 * process delivers to its own connections whichever process published.
 */
export class PushHub {
  private readonly clients = new Map<string, Set<FastifyReply>>();
  private listener: Subscriber | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly connectionString: string,
  ) {}

  async start(): Promise<void> {
    const listener = createSubscriber({ connectionString: this.connectionString });
    listener.notifications.on(CHANNEL, (message: PushMessage) => this.deliver(message));
    listener.events.on('error', () => undefined);
    await listener.connect();
    await listener.listenTo(CHANNEL);
    this.listener = listener;
    this.heartbeat = setInterval(() => {
      for (const set of this.clients.values()) for (const reply of set) reply.raw.write(': keep-alive\n\n');
    }, 25_000);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const set of this.clients.values()) for (const reply of set) reply.raw.end();
    this.clients.clear();
    await this.listener?.close().catch(() => undefined);
  }

  async publish(message: PushMessage): Promise<void> {
    await this.pool.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify(message)]);
  }

  attach(userId: string, reply: FastifyReply): void {
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    reply.raw.write('event: ready\ndata: {}\n\n');
    let set = this.clients.get(userId);
    if (!set) this.clients.set(userId, (set = new Set()));
    set.add(reply);
    reply.raw.on('close', () => {
      set!.delete(reply);
      if (!set!.size) this.clients.delete(userId);
    });
  }

  connectionsOf(userId: string): number {
    return this.clients.get(userId)?.size ?? 0;
  }

  private deliver(message: PushMessage) {
    const set = this.clients.get(message.userId);
    if (!set) return;
    const frame = `event: ${message.event}\ndata: ${JSON.stringify(message.data ?? {})}\n\n`;
    for (const reply of set) reply.raw.write(frame);
  }
}
