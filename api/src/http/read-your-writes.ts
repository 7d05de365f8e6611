import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventStore, Pool } from '@axel/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sha256 } from '../secrets';
import { readSessionToken } from './sessions';

/** The highest global position the current request has written. */
const written = new AsyncLocalStorage<{ position: number }>();

export const POSITION_HEADER = 'x-event-position';
export const MIN_POSITION_HEADER = 'x-min-position';

/** An event store that notes, per request, the position of what it appended. */
export const positionTrackingStore = (store: EventStore): EventStore =>
  new Proxy(store, {
    get(target, property, receiver) {
      if (property !== 'append') return Reflect.get(target, property, receiver);
      return async (...args: Parameters<EventStore['append']>) => {
        const result = await target.append(...args);
        const slot = written.getStore();
        if (slot && result.position > slot.position) slot.position = result.position;
        return result;
      };
    },
  });

/**
 * Read-your-writes across requests: every answer that wrote events says where
 * (`X-Event-Position`); a request that sends `X-Min-Position` is answered only once the read
 * models have reached it (bounded by READ_YOUR_WRITES_TIMEOUT_MS). Only a signed-in caller may
 * be held: anyone else could tie up connections by naming a position never reached.
 */
export const registerReadYourWrites = (
  app: FastifyInstance,
  caughtUp: (position: number) => Promise<boolean>,
  signedIn: (request: FastifyRequest) => Promise<boolean>,
) => {
  app.addHook('onRequest', (_request, _reply, done) => {
    written.run({ position: 0 }, done);
  });
  app.addHook('preHandler', async (request) => {
    const wanted = Number(request.headers[MIN_POSITION_HEADER]);
    if (Number.isSafeInteger(wanted) && wanted > 0 && (await signedIn(request))) await caughtUp(wanted);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    const slot = written.getStore();
    if (slot?.position) reply.header(POSITION_HEADER, String(slot.position));
    return payload;
  });
};

/** Whether the request carries the cookie of a live session (read only: no activity is noted). */
export const hasLiveSession = (pool: Pool) => async (request: FastifyRequest) => {
  const token = readSessionToken(request);
  if (!token) return false;
  const { rowCount } = await pool.query('select 1 from sessions where id = $1 and revoked_at is null', [sha256(token)]);
  return (rowCount ?? 0) > 0;
};
