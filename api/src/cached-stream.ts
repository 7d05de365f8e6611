import { deterministicId, expected, metadataFor, newId, WrongExpectedRevisionError, type CommandContext } from '@axel/platform';
import type { DomainEvent } from '@axel/domain';
import type { AppContext } from './context';

/*
 * A command path that keeps each stream's folded state between commands. A stream that grows
 * with every command (a storage with every file, a share with every open) would cost more per
 * command if folded whole each time: here each stream's state stays in memory at its revision and
 * a command reads only the events written since, by this process or any other, so optimistic
 * concurrency still decides between API processes. Commands on one stream run one at a time in
 * this process, so a state updated in place is never seen halfway.
 */

const MAX_CACHED = 500;
const MAX_RETRIES = 10;

interface Cached<S> {
  state: S;
  revision: number;
}

interface Streams<S> {
  readonly cached: Map<string, Cached<S>>;
  readonly queues: Map<string, Promise<unknown>>;
}

/** What a cached stream needs of its decider. */
export interface Folding<S, E> {
  initialState(): S;
  evolve(state: S, event: E): S;
}

export interface CachedCommandResult<E, S> {
  readonly events: E[];
  readonly state: S;
  readonly revision: number;
  readonly position: number;
}

export interface CachedCommandOptions {
  /** Event ids derived from the actor's idempotency key (a retried request appends nothing twice). */
  readonly idempotent?: boolean;
}

/** Runs `work` after every earlier work on the same stream of this process has settled. */
const oneAtATime = <T>(queues: Map<string, Promise<unknown>>, stream: string, work: () => Promise<T>): Promise<T> => {
  const run = (queues.get(stream) ?? Promise.resolve()).then(work, work);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(stream, settled);
  void settled.then(() => {
    if (queues.get(stream) === settled) queues.delete(stream);
  });
  return run;
};

const remember = <S>(streams: Streams<S>, stream: string, current: Cached<S>) => {
  streams.cached.delete(stream);
  streams.cached.set(stream, current);
  if (streams.cached.size > MAX_CACHED) streams.cached.delete(streams.cached.keys().next().value!);
};

/**
 * A runner of commands on streams folded by `folding`, its states cached per app context. The
 * command gets `metadata: { now }`; `decide` may throw to refuse (it runs on the state at the head).
 */
export const cachedStreamCommands = <S, E extends DomainEvent>(folding: Folding<S, E>) => {
  const perApp = new WeakMap<AppContext, Streams<S>>();
  const streamsOf = (ctx: AppContext): Streams<S> => {
    let streams = perApp.get(ctx);
    if (!streams) perApp.set(ctx, (streams = { cached: new Map(), queues: new Map() }));
    return streams;
  };

  /** The stream's state brought up to its head. Only called inside `oneAtATime`. */
  const refreshed = async (ctx: AppContext, streams: Streams<S>, stream: string): Promise<Cached<S>> => {
    const known = streams.cached.get(stream);
    let state = known?.state ?? folding.initialState();
    const { revision, events } = await ctx.store.readStream(stream, known ? known.revision + 1 : 0);
    try {
      for (const recorded of events) {
        state = folding.evolve(state, ctx.registry.decode(recorded.type, recorded.schemaVersion, recorded.data) as E);
      }
    } catch (error) {
      // a state folded halfway is not at any revision: the next command folds the stream afresh
      streams.cached.delete(stream);
      throw error;
    }
    const current = { state, revision: known && !events.length ? known.revision : revision };
    remember(streams, stream, current);
    return current;
  };

  return <C extends object>(
    ctx: AppContext,
    stream: string,
    command: C,
    actor: CommandContext,
    decide: (command: C & { metadata: { now: Date } }, state: S) => E[],
    options: CachedCommandOptions = {},
  ): Promise<CachedCommandResult<E, S>> => {
    const streams = streamsOf(ctx);
    return oneAtATime(streams.queues, stream, async () => {
      for (let attempt = 0; ; attempt++) {
        const { state, revision } = await refreshed(ctx, streams, stream);
        const now = ctx.now();
        const events = decide({ ...command, metadata: { now } }, state);
        if (events.length === 0) return { events, state, revision, position: 0 };
        const metadata = metadataFor(actor, now);
        const toAppend = events.map((event, index) => ({
          id: options.idempotent && actor.idempotencyKey ? deterministicId(actor.idempotencyKey, stream, String(index)) : newId(),
          ...ctx.registry.encode(event),
          metadata,
        }));
        try {
          const result = await ctx.store.append(stream, toAppend, expected.revision(revision));
          const next = { state: events.reduce(folding.evolve, state), revision: result.nextRevision };
          remember(streams, stream, next);
          return { events, state: next.state, revision: next.revision, position: result.position };
        } catch (error) {
          // another process wrote first: the next round reads what it wrote
          if (error instanceof WrongExpectedRevisionError && attempt < MAX_RETRIES) continue;
          throw error;
        }
      }
    });
  };
};
