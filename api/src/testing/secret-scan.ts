import type { Pool } from '@axel/platform';
import type { Config } from '../config';

/** Shapes of secrets that must never reach the log, whatever field they hide in. */
export const SECRET_SHAPES: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\b(sk|rk)_(live|test)_[0-9A-Za-z]{8,}/,
  /\bwhsec_[0-9A-Za-z]{8,}/,
  /\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\./,
  /\bAKIA[0-9A-Z]{16}\b/,
];

/** The password the shared account helpers sign up with (api/src/testing/accounts.ts). */
const TEST_PASSWORD = 'Secret-pass-1';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The product's links that carry a one-time secret (e-mail confirmations and changes, password and 2FA resets). */
const TOKEN_LINK = /\/(email-confirmation|reset-password|reset2fa|change-email-confirmations)\b/;

/** The one-time tokens of every mailed link to a token route: the last path segment or a `token` query value. */
export const mailedTokens = (bodies: readonly string[]): Set<string> => {
  const tokens = new Set<string>();
  for (const body of bodies) {
    for (const m of body.matchAll(/https?:\/\/[^\s]+/g)) {
      let url: URL;
      try {
        url = new URL(m[0]);
      } catch {
        continue;
      }
      if (!TOKEN_LINK.test(url.pathname + url.search)) continue;
      const candidates = [url.searchParams.get('token') ?? '', decodeURIComponent(url.pathname.split('/').filter(Boolean).at(-1) ?? '')];
      for (const c of candidates) if (c.length >= 16 && !UUID.test(c)) tokens.add(c);
    }
  }
  return tokens;
};

/** Secret configuration values (passwords, keys, tokens) the product was started with. */
export const configSecrets = (config: Partial<Config> | Record<string, unknown>): string[] =>
  Object.entries(config)
    .filter(([name, value]) => /(PASSWORD|SECRET|TOKEN|_KEY)$/.test(name) && typeof value === 'string' && value.trim().length >= 6)
    .map(([, value]) => (value as string).trim());

export interface SecretFinding {
  readonly position: number;
  readonly type: string;
  readonly what: string;
}

/**
 * Every stored event of a database (data and metadata as stored, personal fields sealed) checked
 * for the known secrets (passwords, tokens mailed through the development mailbox) and for
 * anything secret-shaped. A database without an event store or a mailbox is skipped for that part.
 */
export const scanEventsForSecrets = async (pool: Pool, knownSecrets: readonly string[] = []): Promise<SecretFinding[]> => {
  const tables = await pool.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = current_schema() and table_name in ('es_events', 'dev_mailbox')",
  );
  const has = (name: string) => tables.rows.some((r) => r.name === name);
  if (!has('es_events')) return [];
  const mails = has('dev_mailbox')
    ? (await pool.query<{ body: string | null }>('select body_text as body from dev_mailbox')).rows.map((r) => r.body ?? '')
    : [];
  const secrets = [...new Set([TEST_PASSWORD, ...knownSecrets, ...mailedTokens(mails)])].filter((s) => s.length >= 6);
  const findings: SecretFinding[] = [];
  const { rows } = await pool.query<{ position: number; type: string; text: string }>(
    'select position, event_type as type, data::text || metadata::text as text from es_events order by position',
  );
  for (const row of rows) {
    for (const secret of secrets)
      if (row.text.includes(secret))
        findings.push({ position: Number(row.position), type: row.type, what: `a password, key or mailed token (${secret.slice(0, 4)}...)` });
    for (const shape of SECRET_SHAPES)
      if (shape.test(row.text)) findings.push({ position: Number(row.position), type: row.type, what: `something shaped like ${shape}` });
  }
  return findings;
};

export const describeFindings = (findings: readonly SecretFinding[]): string =>
  `the event log holds secrets:\n${findings
    .slice(0, 20)
    .map((f) => `  ${f.type} at ${f.position} holds ${f.what}`)
    .join('\n')}`;
