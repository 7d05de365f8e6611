import { EventEmitter } from 'node:events';
import type { EventRegistry } from '@axel/domain';
import { DurableSubscription, withTransaction, type EventStore, type Pool } from '@axel/platform';
import { applyPage, decodeEvents, ensureTables } from './apply';
import { readCheckpoints } from './checkpoints';
import { liveTables, type Projection } from './projection';

export interface ProjectionStatus {
  readonly name: string;
  readonly position: number;
  /** Events of any type stored after the checkpoint (capped at 100,000). */
  readonly behind: number;
  /** Age of the oldest event not yet projected, 0 when caught up. */
  readonly lagMs: number;
  readonly running: boolean;
  readonly lastError: string | null;
}

export interface ProjectionRunnerOptions {
  readonly pool: Pool;
  readonly store: EventStore;
  readonly registry: EventRegistry;
  readonly projections: readonly Projection[];
  readonly onError?: (projection: string, error: unknown) => void;
  /** Called after each committed page; the benchmark measures live lag with it. */
  readonly onApplied?: (projection: string, position: number) => void;
}

/**
 * Catches every projection up from its checkpoint, then follows the store live (the PostgreSQL
 * store wakes subscriptions through LISTEN/NOTIFY). Each page is written with its checkpoint in
 * one transaction.
 */
export class ProjectionRunner {
  private readonly subscriptions = new Map<string, DurableSubscription>();
  private readonly positions = new Map<string, number>();
  private readonly errors = new Map<string, string>();
  private readonly progress = new EventEmitter();

  constructor(private readonly options: ProjectionRunnerOptions) {
    this.progress.setMaxListeners(0);
  }

  get projections(): readonly Projection[] {
    return this.options.projections;
  }

  /** Creates missing tables and checkpoint rows; safe to call from several processes. */
  async prepare(): Promise<void> {
    for (const p of this.options.projections) {
      await withTransaction(this.options.pool, async (tx) => {
        await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`projection:${p.name}`]);
        await ensureTables(tx, p, liveTables(p), p.name);
      });
    }
  }

  async start(): Promise<void> {
    await this.prepare();
    const checkpoints = await readCheckpoints(this.options.pool);
    for (const p of this.options.projections) {
      this.positions.set(p.name, checkpoints.get(p.name) ?? 0);
      const subscription = this.follow(p);
      this.subscriptions.set(p.name, subscription);
      await subscription.start();
    }
  }

  private follow(p: Projection): DurableSubscription {
    const tables = liveTables(p);
    return new DurableSubscription({
      store: this.options.store,
      // after a failure, resume from the committed checkpoint
      from: async () => (await readCheckpoints(this.options.pool)).get(p.name) ?? 0,
      types: p.handles,
      handler: {
        onBatch: async (events, checkpoint) => {
          const decoded = decodeEvents(this.options.registry, events);
          const reached = await withTransaction(this.options.pool, async (tx) => {
            // Rows and checkpoint commit together, so a crash can only lose both: the page is
            // then read again. Waiting for the WAL flush buys nothing here.
            await tx.query('set local synchronous_commit = off');
            return applyPage(tx, p, tables, p.name, decoded, checkpoint);
          });
          this.errors.delete(p.name);
          this.advance(p.name, reached);
        },
      },
      onError: (error) => {
        this.errors.set(p.name, error instanceof Error ? error.message : String(error));
        this.options.onError?.(p.name, error);
      },
    });
  }

  private advance(name: string, position: number) {
    if (position > (this.positions.get(name) ?? 0)) this.positions.set(name, position);
    this.options.onApplied?.(name, position);
    this.progress.emit('progress');
  }

  /** Lowest checkpoint over the given projections (all by default). */
  position(names?: readonly string[]): number {
    const selected = names ?? this.options.projections.map((p) => p.name);
    return Math.min(...selected.map((n) => this.positions.get(n) ?? 0));
  }

  /**
   * Read-your-writes: resolves true once the projections have passed `position`, false after the
   * timeout. Positions also advance in other processes, so the database is consulted while waiting.
   */
  async waitFor(position: number, options: { names?: readonly string[]; timeoutMs?: number } = {}): Promise<boolean> {
    if (this.position(options.names) >= position) return true;
    const deadline = Date.now() + (options.timeoutMs ?? 5000);
    return new Promise<boolean>((resolve) => {
      let settled = false;
      const finish = (value: boolean) => {
        if (settled) return;
        settled = true;
        this.progress.off('progress', check);
        clearInterval(poll);
        clearTimeout(timer);
        resolve(value);
      };
      const check = () => {
        if (this.position(options.names) >= position) finish(true);
      };
      const poll = setInterval(() => {
        void readCheckpoints(this.options.pool)
          .then((cps) => {
            for (const [name, pos] of cps) if (pos > (this.positions.get(name) ?? 0)) this.positions.set(name, pos);
            check();
          })
          .catch(() => undefined);
      }, 25);
      const timer = setTimeout(() => finish(false), Math.max(0, deadline - Date.now()));
      this.progress.on('progress', check);
    });
  }

  async status(): Promise<ProjectionStatus[]> {
    const checkpoints = await readCheckpoints(this.options.pool);
    return Promise.all(
      this.options.projections.map(async (p) => {
        const position = checkpoints.get(p.name) ?? 0;
        const { behind, oldest } = await this.backlog(position);
        return {
          name: p.name,
          position,
          behind,
          lagMs: oldest ? Math.max(0, Date.now() - oldest.getTime()) : 0,
          running: this.subscriptions.has(p.name),
          lastError: this.errors.get(p.name) ?? null,
        };
      }),
    );
  }

  /** Events stored after a position (capped), and the age of the first of them. */
  private async backlog(position: number): Promise<{ behind: number; oldest: Date | null }> {
    if (this.options.store.kind === 'postgres') {
      const { rows } = await this.options.pool.query<{ behind: number; oldest: Date | null }>(
        `select count(*)::int as behind, min(recorded_at) as oldest
         from (select recorded_at from es_events where position > $1 order by position limit 100000) t`,
        [position],
      );
      return { behind: rows[0]?.behind ?? 0, oldest: rows[0]?.oldest ?? null };
    }
    const page = await this.options.store.readAll({ from: position, limit: 10_000 });
    return { behind: page.events.length, oldest: page.events[0]?.recordedAt ?? null };
  }

  async stop(): Promise<void> {
    const subs = [...this.subscriptions.values()];
    this.subscriptions.clear();
    await Promise.all(subs.map((s) => s.stop()));
  }
}
