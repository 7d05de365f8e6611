import pino from 'pino';
import { loggableUrl, redactText } from './http/redact';

/** Paths that may hold secrets; pino replaces them before anything is written. */
export const REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passwordConfirmation',
  '*.currentPassword',
  '*.code',
  '*.token',
  '*.secret',
  '*.passwordHash',
  'password',
  'token',
];

interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  is404?: boolean;
  routeOptions?: { url?: string };
  socket?: { remotePort?: number };
}

/**
 * A request as a log line shows it: the route pattern rather than the URL (a one-time link's
 * token is part of its URL), with query values and unrouted paths redacted.
 */
const serializeRequest = (req: LoggedRequest) => {
  const route = req.is404 ? undefined : req.routeOptions?.url;
  return {
    method: req.method,
    url: typeof req.url === 'string' ? loggableUrl(req.url, route) : undefined,
    route,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
};

const serializeError = (err: Error) => {
  const out = pino.stdSerializers.err(err) as Record<string, unknown>;
  if (typeof out.message === 'string') out.message = redactText(out.message);
  if (typeof out.stack === 'string') out.stack = redactText(out.stack);
  // a parse error of Node's HTTP parser carries the bytes it was given, secrets and all
  delete out.rawPacket;
  return out;
};

export const createLogger = (level: string, destination?: pino.DestinationStream) =>
  pino(
    {
      level,
      redact: { paths: REDACT, censor: '[redacted]' },
      base: { service: 'axel' },
      serializers: { req: serializeRequest, err: serializeError },
      hooks: {
        // messages are free text and sometimes quote a URL (fastify's own warnings do)
        logMethod(args, method) {
          method.apply(this, args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg)) as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
export type Logger = ReturnType<typeof createLogger>;
