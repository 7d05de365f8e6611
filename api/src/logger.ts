import pino from 'pino';

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

export const createLogger = (level: string, destination?: pino.DestinationStream) =>
  pino({ level, redact: { paths: REDACT, censor: '[redacted]' }, base: { service: 'axel' } }, destination);
export type Logger = ReturnType<typeof createLogger>;
