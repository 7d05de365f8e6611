import {
  shareAccessDecider,
  shareAccessStreamName,
  type ShareAccessCommand,
  type ShareAccessEvent,
  type ShareAccessState,
} from '@axel/domain';
import { expected, metadataFor, newId, WrongExpectedRevisionError, type CommandContext } from '@axel/platform';
import type { AppContext } from '../../context';

/*
 * The command path of a share's access stream, with its folded state kept between commands. A
 * busy link's stream grows with every open, and folding it whole per open would cost more with
 * every visitor: here each stream's (small) state stays in memory at its revision and a command
 * reads only the events written since, by this process or any other, so optimistic concurrency
 * still decides between API processes. Commands on one stream run one at a time in this process.
 */

const MAX_CACHED = 500;
const MAX_RETRIES = 10;

interface Cached {
  readonly state: ShareAccessState;
  readonly revision: number;
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

const remember = (streams: Streams, stream: string, current: Cached) => {
  streams.cached.delete(stream);
  streams.cached.set(stream, current);
  if (streams.cached.size > MAX_CACHED) streams.cached.delete(streams.cached.keys().next().value!);
};

/** The stream's state brought up to its head, reading only what was written since the cached revision. */
const refreshed = async (ctx: AppContext, streams: Streams, stream: string): Promise<Cached> => {
  const known = streams.cached.get(stream);
  let state = known?.state ?? shareAccessDecider.initialState();
  const { revision, events } = await ctx.store.readStream(stream, known ? known.revision + 1 : 0);
  try {
    for (const recorded of events) {
      state = shareAccessDecider.evolve(state, ctx.registry.decode(recorded.type, recorded.schemaVersion, recorded.data) as ShareAccessEvent);
    }
  } catch (error) {
    streams.cached.delete(stream);
    throw error;
  }
  const current = { state, revision: known && !events.length ? known.revision : revision };
  remember(streams, stream, current);
  return current;
};

/** Records an open or a download of a share (nothing when the access was refused). */
export const runShareAccessCommand = (
  ctx: AppContext,
  shareId: string,
  command: Omit<ShareAccessCommand, 'metadata'>,
  actor: CommandContext,
): Promise<{ events: ShareAccessEvent[]; position: number }> => {
  const streams = streamsOf(ctx);
  const stream = shareAccessStreamName(shareId);
  return oneAtATime(streams, stream, async () => {
    for (let attempt = 0; ; attempt++) {
      const { state, revision } = await refreshed(ctx, streams, stream);
      const now = ctx.now();
      const events = shareAccessDecider.decide({ ...command, metadata: { now } } as ShareAccessCommand, state);
      if (!events.length) return { events, position: 0 };
      const metadata = metadataFor(actor, now);
      const toAppend = events.map((event) => ({ id: newId(), ...ctx.registry.encode(event), metadata }));
      try {
        const result = await ctx.store.append(stream, toAppend, expected.revision(revision));
        remember(streams, stream, { state: events.reduce(shareAccessDecider.evolve, state), revision: result.nextRevision });
        return { events, position: result.position };
      } catch (error) {
        // another process wrote first: the next round reads what it wrote
        if (error instanceof WrongExpectedRevisionError && attempt < MAX_RETRIES) continue;
        throw error;
      }
    }
  });
};
