import path from 'node:path';
import { PASSWORD_MAX_LENGTH } from '@axel/domain';
import { z } from 'zod';

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.string().url().optional());

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Loopback unless told otherwise: a laptop's server is not the network's. */
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalUrl,
  EVENTSTORE_URL: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => !v || /^(kurrentdb|esdb|kdb|kurrent)(\+discover)?:\/\//.test(v), 'must be a kurrentdb:// or esdb:// connection string'),
  TEMPORAL_ADDRESS: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => !v || /^[\w.-]+:\d+$/.test(v), 'must be host:port'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('AXEL Drive <no-reply@axel.local>'),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(8).max(PASSWORD_MAX_LENGTH).optional(),
  SECRET_KEY: z
    .string()
    .optional()
    .refine((v) => !v || /^[0-9a-f]{64}$/i.test(v), 'must be 64 hex characters (32 bytes)'),
  ACCOUNT_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(3000),
  /** Multiplies every rate limit (e.g. many users behind one address). */
  RATE_LIMIT_FACTOR: z.coerce.number().min(0.1).max(1000).default(1),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * The development mailbox (only without SMTP_URL): `auto` serves it when HOST is loopback, `on`
   * serves it on any HOST (with a warning at start), `off` never. It answers loopback clients only.
   */
  DEV_MAILBOX: z.enum(['auto', 'on', 'off']).default('auto'),
});

export type Config = z.infer<typeof ConfigSchema> & { dataDir: string; publicUrl: string };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads configuration from the environment; a bad value stops the start naming the variable. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const c = parsed.data;
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
  };
};
