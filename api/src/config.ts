import path from 'node:path';
import { isStorageRegion, parseAxel, PASSWORD_MAX_LENGTH } from '@axel/domain';
import { parseRegionShards } from '@axel/platform/blobs/regions';
import { z } from 'zod';

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.string().url().optional());

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));
const hostList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    );

/** Support mail, single sign-on, web push and Slack: the services users already work in. */
const connectionsConfig = {
  /** Where the contact-support form's mail goes. */
  SUPPORT_EMAIL: z.string().email().default('support@axel.local'),
  /** OpenID Connect providers: each is offered once its issuer URL, client id and secret are set. */
  OIDC_GOOGLE_ISSUER: optionalUrl,
  OIDC_GOOGLE_CLIENT_ID: optionalText,
  OIDC_GOOGLE_CLIENT_SECRET: optionalText,
  OIDC_MICROSOFT_ISSUER: optionalUrl,
  OIDC_MICROSOFT_CLIENT_ID: optionalText,
  OIDC_MICROSOFT_CLIENT_SECRET: optionalText,
  /** Web push (VAPID): generated once into DATA_DIR/vapid.json when unset. */
  VAPID_PUBLIC_KEY: optionalText,
  VAPID_PRIVATE_KEY: optionalText,
  VAPID_SUBJECT: z.string().default('mailto:support@axel.local'),
  /**
   * Hosts a browser's push subscription may point at (the browsers' push services); a subscription
   * elsewhere is refused, so the server never posts to a host a user chose. Suffix match.
   */
  PUSH_SERVICE_HOSTS: hostList('fcm.googleapis.com,updates.push.services.mozilla.com,push.services.mozilla.com,notify.windows.com,push.apple.com'),
  /** Verifies Slack's calls of the `/axel` command (Slack's signing secret). */
  SLACK_SIGNING_SECRET: optionalText,
  /** Hosts a Slack incoming-webhook URL may point at. */
  SLACK_WEBHOOK_HOSTS: hostList('hooks.slack.com'),
};

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
  /** Local blob shards (folders under DATA_DIR/blobs) and how many of them hold each chunk. */
  BLOB_SHARDS: z.coerce.number().int().min(1).max(64).default(4),
  BLOB_REPLICAS: z.coerce.number().int().min(1).max(8).default(2),
  /**
   * Shard folders per region, `eu=/disks/eu-a,/disks/eu-b;us=us-a` (absolute, or under DATA_DIR/blobs):
   * an account's new uploads in a region listed here are kept on that region's folders only. Regions
   * not listed (and every region when this is empty) use the BLOB_SHARDS folders. Local shards only.
   */
  BLOB_REGIONS: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .refine((v) => {
      if (!v) return true;
      try {
        parseRegionShards(v, isStorageRegion);
        return true;
      } catch {
        return false;
      }
    }, 'must be region=folder,folder;region=folder with regions us, eu, asia or africa'),
  /** Wraps every file's data key; generated once into DATA_DIR/master.key when absent. */
  MASTER_KEY: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => !v || /^[0-9a-f]{64}$/i.test(v), 'must be 64 hex characters (32 bytes)'),
  /** Master keys being rotated away from (comma-separated, 64 hex each): read, never used to wrap. */
  MASTER_KEY_PREVIOUS: z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    )
    .refine((keys) => keys.every((k) => /^[0-9a-f]{64}$/i.test(k)), 'must be 64 hex characters per key, separated by commas'),
  /** A Kubo node's HTTP RPC (`http://host:5001`): paid files are pinned there (and still served by the product's gateway); without it they are pinned by the product itself. */
  IPFS_KUBO_RPC_URL: optionalUrl,
  /** An S3-compatible object store for chunks (instead of the local shards). */
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: z.string().trim().min(3).max(63).default('axel'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  /** Hours an unfinished upload (or a finished one not made into a file) is kept. */
  UPLOAD_EXPIRY_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 30)
    .default(24),
  /** Hours between scrubs of the blob store. */
  SCRUB_INTERVAL_HOURS: z.coerce
    .number()
    .min(0.0005)
    .max(24 * 30)
    .default(24),
  /** Hours between collections of chunks and keys no file or upload uses (each is kept at least an hour after it was first found unused). */
  COLLECT_INTERVAL_HOURS: z.coerce
    .number()
    .min(0.0005)
    .max(24 * 30)
    .default(6),
  /** Signs the audit chain's checkpoints: an Ed25519 private key in PEM, or its 32-byte seed as 64 hex; generated into DATA_DIR/audit-signing.key when absent. */
  AUDIT_SIGNING_KEY: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() ? v : undefined))
    .refine(
      (v) => !v || /^\s*[0-9a-f]{64}\s*$/i.test(v) || v.includes('-----BEGIN PRIVATE KEY-----'),
      'must be an Ed25519 private key in PEM or 64 hex characters (its seed)',
    ),
  /** Public keys (PEM) of signing keys AUDIT_SIGNING_KEY replaced: checkpoints they signed still verify. */
  AUDIT_PREVIOUS_KEYS: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() ? v : undefined))
    .refine((v) => !v || v.includes('-----BEGIN PUBLIC KEY-----'), 'must be one or more Ed25519 public keys in PEM'),
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
  /** Stripe takes payments when set; the webhook at /api/webhooks/stripe is verified with the signing secret. */
  STRIPE_SECRET_KEY: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => !v || /^(sk|rk)_(test|live)_\w+$/.test(v), 'must be a Stripe secret key (sk_test_..., sk_live_...)'),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => !v || /^whsec_\w+$/.test(v), 'must be a Stripe webhook signing secret (whsec_...)'),
  /** Another Stripe API base (stripe-mock); Stripe's own when unset. */
  STRIPE_API_URL: optionalUrl,
  /**
   * The test payment provider (no money moves): `auto` when no Stripe key is set and HOST is
   * loopback, `on` on any HOST (warned at start), `off` never.
   */
  TEST_PAYMENTS: z.enum(['auto', 'on', 'off']).default('auto'),
  /** A Bitcoin Core / Dash Core JSON-RPC endpoint (`http://user:pass@host:port/`); without it the development chain runs. */
  AXEL_RPC_URL: optionalUrl,
  /** Seconds between blocks of the development chain. */
  AXEL_DEV_BLOCK_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /**
   * AXEL the development chain's treasury holds from its genesis block (a new chain only), so token
   * purchases are delivered from the first start; 0 begins with an empty treasury.
   */
  AXEL_DEV_TREASURY_GENESIS: z
    .string()
    .default('10000')
    .refine((v) => parseAxel(v) !== null, 'must be an amount of AXEL (at most 8 decimals)')
    .transform((v) => parseAxel(v)!),
  /** An external transaction explorer; `{id}` in it is replaced by the transaction id (else appended). */
  AXEL_EXPLORER_URL: optionalUrl,
  /** A bearer token that lets a scraper on another machine read `/metrics` (loopback clients need none). */
  /**
   * The domain under which teams' custom URLs live (`<subdomain>.<domain>`). Unset: the public URL's
   * host name, or `localhost` when that is an IP address (browsers send `*.localhost` to the loopback).
   */
  CUSTOM_URL_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => !v || /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(v), 'must be a host name'),
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() ? v.trim() : undefined))
    .refine((v) => !v || v.length >= 16, 'must be at least 16 characters'),
  /** Where the operators' Grafana dashboard is; the console's "Grafana dashboard" menu item opens it. */
  GRAFANA_URL: optionalUrl,
  /** The development chain's faucet, with the development mailbox's loopback rule. */
  DEV_CHAIN_FAUCET: z.enum(['auto', 'on', 'off']).default('auto'),
  /**
   * Dropbox (an app registered at dropbox.com/developers with the scopes files.metadata.read,
   * files.content.read and files.content.write): its app key, and its secret (optional: the code
   * flow uses PKCE). Without the key every Dropbox call answers 503 INTEGRATION_NOT_CONFIGURED.
   */
  DROPBOX_CLIENT_ID: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  DROPBOX_CLIENT_SECRET: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** Dropbox's hosts; another (the Dropbox stand-in) only for development and tests. */
  DROPBOX_AUTHORIZE_URL: z.string().url().default('https://www.dropbox.com/oauth2/authorize'),
  DROPBOX_API_URL: z.string().url().default('https://api.dropboxapi.com'),
  DROPBOX_CONTENT_URL: z.string().url().default('https://content.dropboxapi.com'),
  /** Clio (an app registered in Clio's developer portal): its client id and secret; without them every Clio call answers 503. */
  CLIO_CLIENT_ID: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  CLIO_CLIENT_SECRET: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** One host for every Clio region (the Clio stand-in); unset, each region has Clio's own host. */
  CLIO_URL: optionalUrl,
  ...connectionsConfig,
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
  if (c.S3_ENDPOINT && (!c.S3_ACCESS_KEY_ID || !c.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(['S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: required with S3_ENDPOINT']);
  }
  if (c.CLIO_CLIENT_ID && !c.CLIO_CLIENT_SECRET) throw new ConfigError(['CLIO_CLIENT_SECRET: required with CLIO_CLIENT_ID']);
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
  };
};
