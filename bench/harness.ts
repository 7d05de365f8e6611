import type pg from 'pg';

/** What every bench section gets: one database on one server, shared by the whole run. */
export interface BenchContext {
  /** Server URL (maintenance database), for sections that need their own database. */
  readonly serverUrl: string;
  /** The run's fresh database, event store migrations applied. */
  readonly databaseUrl: string;
  /** Shared pool on `databaseUrl`. */
  readonly pool: pg.Pool;
  /** Seconds each measured cell runs (warm-up excluded). */
  readonly seconds: number;
  log(line: string): void;
  /** Prints a table now and keeps it for the final summary. */
  table(title: string, rows: Record<string, string | number>[], note?: string): void;
}

export interface BenchSection {
  readonly name: string;
  readonly description: string;
  run(ctx: BenchContext): Promise<void>;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export const renderTable = (rows: Record<string, string | number>[]): string => {
  if (!rows.length) return '(no rows)';
  const cols = Object.keys(rows[0]!);
  const cells = rows.map((r) => cols.map((c) => String(r[c] ?? '')));
  const width = cols.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const numeric = cols.map((_, i) => cells.every((r) => /^[-+]?[\d,.]+(%|x| ms| s)?$/.test(r[i]!) || r[i] === ''));
  const line = (vals: string[]) => `| ${vals.map((v, i) => (numeric[i] ? v.padStart(width[i]!) : v.padEnd(width[i]!))).join(' | ')} |`;
  return [line(cols), `|${width.map((w, i) => (numeric[i] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`, ...cells.map(line)].join('\n');
};

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
