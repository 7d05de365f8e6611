import { WrongExpectedRevisionError, type EventStore } from '@axel/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * What this process counts as it works (requests, appends, bytes, ledger calls), exported at
 * `/metrics` beside the figures read from the database when scraped. Every label is a route
 * pattern, a method, a status or a fixed word: never an id, an e-mail address or a token.
 */
export const processMetrics = new Registry();
collectDefaultMetrics({ register: processMetrics, prefix: 'axel_node_' });

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  registers: [processMetrics],
});
const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method and route pattern',
  labelNames: ['method', 'route'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [processMetrics],
});
const httpErrors = new Counter({
  name: 'http_request_errors_total',
  help: 'HTTP requests answered with an error status, by route pattern and kind (client 4xx, server 5xx)',
  labelNames: ['method', 'route', 'kind'] as const,
  registers: [processMetrics],
});
const transferBytes = new Counter({
  name: 'axel_transfer_bytes_total',
  help: 'File content bytes received (upload) and sent (download), by route pattern',
  labelNames: ['direction', 'route'] as const,
  registers: [processMetrics],
});
const appends = new Counter({
  name: 'axel_eventstore_appends_total',
  help: 'Appends to the event store, by outcome (ok, conflict, error)',
  labelNames: ['outcome'] as const,
  registers: [processMetrics],
});
const appendedEvents = new Counter({
  name: 'axel_eventstore_appended_events_total',
  help: 'Events written by appends to the event store',
  registers: [processMetrics],
});
const appendDuration = new Histogram({
  name: 'axel_eventstore_append_duration_seconds',
  help: 'Time an append to the event store takes',
  buckets: LATENCY_BUCKETS,
  registers: [processMetrics],
});
const ledgerCalls = new Counter({
  name: 'axel_wallet_ledger_calls_total',
  help: 'Calls of the wallet to the AXEL ledger, by outcome (ok, error, timeout)',
  labelNames: ['outcome'] as const,
  registers: [processMetrics],
});

/** A wallet ledger call finished this way. */
export const countLedgerCall = (outcome: 'ok' | 'error' | 'timeout'): void => {
  ledgerCalls.inc({ outcome });
};

/** An event store whose appends are counted and timed. */
export const instrumentedStore = (store: EventStore): EventStore =>
  new Proxy(store, {
    get(target, property, receiver) {
      if (property !== 'append') return Reflect.get(target, property, receiver);
      return async (...args: Parameters<EventStore['append']>) => {
        const end = appendDuration.startTimer();
        try {
          const result = await target.append(...args);
          appends.inc({ outcome: 'ok' });
          appendedEvents.inc(args[1].length);
          return result;
        } catch (error) {
          appends.inc({ outcome: error instanceof WrongExpectedRevisionError ? 'conflict' : 'error' });
          throw error;
        } finally {
          end();
        }
      };
    },
  });

/** Request bodies that are file content: tus PATCH chunks and raw octet streams. */
const UPLOAD_TYPES = /^application\/(offset\+)?octet-stream/i;

const routeOf = (request: FastifyRequest): string => request.routeOptions.url ?? 'unmatched';

const contentLength = (value: unknown): number => {
  const n = Number(Array.isArray(value) ? value[0] : value);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
};

const written = new WeakMap<FastifyRequest, number>();

/**
 * Counts every answer by route pattern (an unknown path counts as `unmatched`), its time and
 * error class, and the file content it carried: uploaded bodies, and downloads (answers that
 * carry a content disposition or a range). A streamed answer without a length is measured on
 * the socket.
 */
export const registerHttpMetrics = (app: FastifyInstance): void => {
  app.addHook('onRequest', (request, _reply, done) => {
    written.set(request, request.raw.socket?.bytesWritten ?? 0);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request);
    const method = request.method;
    const status = reply.statusCode;
    httpRequests.inc({ method, route, status_code: String(status) });
    httpDuration.observe({ method, route }, reply.elapsedTime / 1000);
    if (status >= 400) httpErrors.inc({ method, route, kind: status >= 500 ? 'server' : 'client' });
    if (status < 300 && UPLOAD_TYPES.test(String(request.headers['content-type'] ?? ''))) {
      const bytes = contentLength(request.headers['content-length']);
      if (bytes) transferBytes.inc({ direction: 'upload', route }, bytes);
    }
    if (method === 'GET' && (status === 200 || status === 206) && (reply.getHeader('content-disposition') || status === 206)) {
      const bytes = contentLength(reply.getHeader('content-length')) || Math.max(0, (request.raw.socket?.bytesWritten ?? 0) - (written.get(request) ?? 0));
      if (bytes) transferBytes.inc({ direction: 'download', route }, bytes);
    }
    done();
  });
};
