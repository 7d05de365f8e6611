import type { ActivityRow } from './activity.schema';

/** The CSV columns, in order: what an auditor needs to answer who did what, when, from where. */
const COLUMNS: readonly [string, (row: ActivityRow) => unknown][] = [
  ['position', (r) => r.position],
  ['time', (r) => r.time],
  ['type', (r) => r.type],
  ['stream', (r) => r.stream],
  ['revision', (r) => r.revision],
  ['actor_kind', (r) => r.actor.kind],
  ['actor_id', (r) => r.actor.id],
  ['actor', (r) => r.actor.label],
  ['ip', (r) => r.ip],
  ['user_agent', (r) => r.userAgent],
  ['client', (r) => r.client],
  ['correlation_id', (r) => r.correlationId],
  ['causation_id', (r) => r.causationId],
  ['sentence', (r) => r.sentence],
  ['data', (r) => JSON.stringify(r.data ?? null)],
];

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote, or line break, quotes doubled.
 * Text that a spreadsheet would run as a formula (= + - @ first) is prefixed with a quote mark.
 */
export const csvField = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export const csvHeader = (): string => `${COLUMNS.map(([name]) => name).join(',')}\r\n`;
export const csvLine = (row: ActivityRow): string => `${COLUMNS.map(([, get]) => csvField(get(row))).join(',')}\r\n`;
export const jsonLine = (row: ActivityRow): string => `${JSON.stringify(row)}\n`;
