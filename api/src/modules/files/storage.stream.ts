import {
  DomainError,
  storageDecider,
  storageStreamName,
  StorageErrors,
  type StorageCommand,
  type StorageEvent,
  type StorageState,
} from '@axel/domain';
import {
  deterministicId,
  expected,
  metadataFor,
  newId,
  WrongExpectedRevisionError,
  type CommandContext,
  type CommandResult,
} from '@axel/platform';
import type { AppContext } from '../../context';

/*
 * The command path of storages, with the folded state kept between commands. A storage's stream
 * grows with every file, and the generic path folds a whole stream per command: a folder upload of
 * thousands of files would fold quadratically. Here each storage's state stays in memory at its
 * revision, and a command reads only the events written since (by this process or any other), so
 * optimistic concurrency still decides between API processes. Commands on one storage run one at a
 * time in this process, since the cached state is updated in place (see StorageState).
 */

const MAX_CACHED = 500;
const MAX_RETRIES = 10;

interface Cached {
  state: StorageState;
  revision: number;
}

interface Streams {
  readonly cached: Map<string, Cached>;
  readonly queues: Map<string, Promise<unknown>>;
}

const perApp = new WeakMap<AppContext, Streams>();
const streamsOf = (ctx: AppContext): Streams => {
  let streams = perApp.get(ctx);
  if (!streams) perApp.set(ctx, (streams = { cached: new Map(), queues: new Map() }));
  return streams;
};

/** Runs `work` after every earlier work on the same storage of this process has settled. */
const oneAtATime = <T>(streams: Streams, stream: string, work: () => Promise<T>): Promise<T> => {
  const run = (streams.queues.get(stream) ?? Promise.resolve()).then(work, work);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  streams.queues.set(stream, settled);
  void settled.then(() => {
    if (streams.queues.get(stream) === settled) streams.queues.delete(stream);
  });
  return run;
};

/** The storage's state brought up to the stream's head. Only called inside `oneAtATime`. */
const refreshed = async (ctx: AppContext, streams: Streams, stream: string): Promise<Cached> => {
  const known = streams.cached.get(stream);
  let state = known?.state ?? storageDecider.initialState();
  const from = known ? known.revision + 1 : 0;
  const { revision, events } = await ctx.store.readStream(stream, from);
  try {
    for (const recorded of events) {
      state = storageDecider.evolve(state, ctx.registry.decode(recorded.type, recorded.schemaVersion, recorded.data) as StorageEvent);
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

const remember = (streams: Streams, stream: string, current: Cached) => {
  streams.cached.delete(stream);
  streams.cached.set(stream, current);
  if (streams.cached.size > MAX_CACHED) streams.cached.delete(streams.cached.keys().next().value!);
};

export interface StorageCommandOptions {
  /** Refuse (404) unless the storage is open and belongs to this user. */
  readonly owner?: string;
  /** Decides instead of the storage decider (to learn more of a decision than its events). */
  readonly decide?: (command: StorageCommand, state: StorageState) => StorageEvent[];
}

export const runStorageCommand = (
  ctx: AppContext,
  storageId: string,
  command: Omit<StorageCommand, 'metadata'>,
  actor: CommandContext,
  options: StorageCommandOptions = {},
): Promise<CommandResult<StorageEvent, StorageState>> => {
  const streams = streamsOf(ctx);
  const stream = storageStreamName(storageId);
  const decide = options.decide ?? storageDecider.decide;
  return oneAtATime(streams, stream, async () => {
    for (let attempt = 0; ; attempt++) {
      const { state, revision } = await refreshed(ctx, streams, stream);
      if (options.owner !== undefined && (state.status !== 'open' || state.ownerId !== options.owner)) {
        throw new DomainError(StorageErrors.storageNotFound);
      }
      const now = ctx.now();
      const events = decide({ ...command, metadata: { now } } as StorageCommand, state);
      if (events.length === 0) return { events, state, revision, position: 0 };
      const metadata = metadataFor(actor, now);
      const toAppend = events.map((event, index) => ({
        id: actor.idempotencyKey ? deterministicId(actor.idempotencyKey, stream, String(index)) : newId(),
        ...ctx.registry.encode(event),
        metadata,
      }));
      try {
        const result = await ctx.store.append(stream, toAppend, expected.revision(revision));
        const next = { state: events.reduce(storageDecider.evolve, state), revision: result.nextRevision };
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
