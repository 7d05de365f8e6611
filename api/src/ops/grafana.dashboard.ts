import { GRAFANA_SQL } from '@axel/projections/dashboards/grafana.queries';

/**
 * The operators' Grafana dashboard, as code: `npm run grafana:dashboard` writes it to
 * `ops/grafana/dashboards/axel-drive.json`, which docker-compose.yml provisions. Prometheus panels
 * read `/metrics`; PostgreSQL panels read the read models.
 */

export const PROMETHEUS = { type: 'prometheus', uid: 'prometheus' } as const;
export const POSTGRES = { type: 'grafana-postgresql-datasource', uid: 'postgres' } as const;

type PanelType = 'timeseries' | 'stat' | 'table' | 'bargauge' | 'piechart';

interface PromPanel {
  readonly source: 'prometheus';
  readonly title: string;
  readonly type: PanelType;
  readonly unit?: string;
  readonly queries: readonly { readonly expr: string; readonly legend?: string }[];
}

interface SqlPanel {
  readonly source: 'postgres';
  readonly title: string;
  readonly type: PanelType;
  readonly unit?: string;
  readonly sql: string;
  readonly format: 'table' | 'time_series';
}

export type PanelSpec = PromPanel | SqlPanel;

const prom = (title: string, type: PanelType, queries: PromPanel['queries'], unit?: string): PromPanel => ({
  source: 'prometheus',
  title,
  type,
  queries,
  unit,
});
const sql = (title: string, type: PanelType, query: string, format: SqlPanel['format'] = 'table', unit?: string): SqlPanel => ({
  source: 'postgres',
  title,
  type,
  sql: query,
  format,
  unit,
});

/** Rows of panels, each row a section of the dashboard. */
export const SECTIONS: readonly { readonly title: string; readonly panels: readonly PanelSpec[] }[] = [
  {
    title: 'HTTP',
    panels: [
      prom('Requests per second by route', 'timeseries', [{ expr: 'sum by (route) (rate(http_requests_total[5m]))', legend: '{{route}}' }], 'reqps'),
      prom(
        'Latency p95 by route',
        'timeseries',
        [{ expr: 'histogram_quantile(0.95, sum by (le, route) (rate(http_request_duration_seconds_bucket[5m])))', legend: '{{route}}' }],
        's',
      ),
      prom('Errors per second', 'timeseries', [{ expr: 'sum by (kind, route) (rate(http_request_errors_total[5m]))', legend: '{{kind}} {{route}}' }], 'reqps'),
      prom('Upload and download rate', 'timeseries', [{ expr: 'sum by (direction) (rate(axel_transfer_bytes_total[5m]))', legend: '{{direction}}' }], 'Bps'),
    ],
  },
  {
    title: 'Event store and read models',
    panels: [
      prom('Appends per second', 'timeseries', [
        { expr: 'sum by (outcome) (rate(axel_eventstore_appends_total[5m]))', legend: '{{outcome}}' },
        { expr: 'rate(axel_eventstore_appended_events_total[5m])', legend: 'events' },
      ]),
      prom(
        'Append latency p95',
        'timeseries',
        [{ expr: 'histogram_quantile(0.95, sum by (le) (rate(axel_eventstore_append_duration_seconds_bucket[5m])))', legend: 'p95' }],
        's',
      ),
      prom('Projection lag', 'timeseries', [{ expr: 'max by (projection) (axel_projection_lag_seconds)', legend: '{{projection}}' }], 's'),
      prom('Events behind per projection', 'bargauge', [{ expr: 'max by (projection) (axel_projection_behind_events)', legend: '{{projection}}' }]),
      prom('Failing projections', 'stat', [{ expr: 'sum(axel_projection_failing)' }]),
      prom('Event store head', 'stat', [{ expr: 'max(axel_eventstore_head_position)' }]),
      sql('Projection checkpoints', 'table', GRAFANA_SQL.projectionCheckpoints),
    ],
  },
  {
    title: 'Processes, mail and audit',
    panels: [
      prom('Process runtime', 'timeseries', [
        { expr: 'max(axel_process_runtime_queue_depth)', legend: 'commands queued' },
        { expr: 'max(axel_process_runtime_running)', legend: 'running' },
        { expr: 'max(axel_process_runtime_timers_due)', legend: 'timers due' },
      ]),
      prom('Dead letters', 'stat', [{ expr: 'max(axel_process_runtime_dead_letters)' }]),
      prom('Mail outbox', 'timeseries', [{ expr: 'max by (status) (axel_mail_outbox)', legend: '{{status}}' }]),
      prom('Audit sealing lag', 'timeseries', [{ expr: 'max(axel_audit_sealing_lag_events)', legend: 'events not sealed' }]),
      prom('Since the audit chain was signed', 'stat', [{ expr: 'max(axel_audit_last_checkpoint_age_seconds)' }], 's'),
      prom('Wallet ledger calls', 'timeseries', [{ expr: 'sum by (outcome) (rate(axel_wallet_ledger_calls_total[5m]))', legend: '{{outcome}}' }]),
      sql('Mail by status', 'table', GRAFANA_SQL.mailOutbox),
    ],
  },
  {
    title: 'Blob store',
    panels: [
      prom('Replicas missing', 'stat', [{ expr: 'max(axel_blob_replicas_missing)' }]),
      prom('Chunks lost', 'stat', [{ expr: 'max(axel_blob_chunks_lost)' }]),
      prom('Open faults', 'stat', [{ expr: 'max(axel_blob_faults_open)' }]),
      prom('Last scrub', 'timeseries', [
        { expr: 'max(axel_blob_scrub_checked_chunks)', legend: 'checked' },
        { expr: 'max(axel_blob_scrub_repaired_chunks)', legend: 'repaired' },
      ]),
      prom('Since the last scrub finished', 'stat', [{ expr: 'time() - max(axel_blob_scrub_last_finished_timestamp_seconds)' }], 's'),
      prom('Uploads receiving', 'timeseries', [
        { expr: 'max(axel_uploads_receiving)', legend: 'uploads' },
        { expr: 'max(axel_uploads_received_bytes)', legend: 'bytes so far' },
      ]),
    ],
  },
  {
    title: 'Product (read models)',
    panels: [
      sql('Accounts by status', 'piechart', GRAFANA_SQL.accountsByStatus),
      sql('Sign-ups per day', 'timeseries', GRAFANA_SQL.signUpsPerDay, 'time_series'),
      sql('Accounts signed in', 'stat', GRAFANA_SQL.recentSignIns),
      sql('Storage by type', 'table', GRAFANA_SQL.storageByType),
      sql('Shares by status', 'table', GRAFANA_SQL.sharesByStatus),
      sql('Share opens and downloads', 'stat', GRAFANA_SQL.shareAccess),
      sql('Secure Fetch links', 'table', GRAFANA_SQL.secureFetchByStatus),
      sql('Accounts with database access', 'stat', GRAFANA_SQL.dbsAccess),
    ],
  },
];

/** Every panel of the dashboard. */
export const PANELS: readonly PanelSpec[] = SECTIONS.flatMap((s) => s.panels);

const PROMQL_WORDS = new Set(['sum', 'max', 'min', 'avg', 'count', 'by', 'without', 'rate', 'irate', 'increase', 'time', 'histogram_quantile', 'le']);

/**
 * The series a PromQL expression reads: its identifiers that are not a function, a keyword, a
 * label inside `by (...)` or `{...}`, or a range inside `[...]`.
 */
export const metricNamesIn = (expr: string): string[] => {
  const bare = expr
    .replace(/by\s*\([^)]*\)/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ');
  const names = new Set<string>();
  for (const m of bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) {
    if (m[2] || PROMQL_WORDS.has(m[1]!)) continue;
    names.add(m[1]!);
  }
  return [...names];
};

const WIDTH = 24;

/** The dashboard JSON Grafana provisions. */
export const grafanaDashboard = () => {
  const panels: Record<string, unknown>[] = [];
  let id = 1;
  let y = 0;
  for (const section of SECTIONS) {
    panels.push({ id: id++, type: 'row', title: section.title, collapsed: false, gridPos: { h: 1, w: WIDTH, x: 0, y: y++ }, panels: [] });
    let x = 0;
    for (const panel of section.panels) {
      const w = panel.type === 'stat' ? 6 : 12;
      if (x + w > WIDTH) {
        x = 0;
        y += 8;
      }
      const common = {
        id: id++,
        type: panel.type,
        title: panel.title,
        gridPos: { h: 8, w, x, y },
        fieldConfig: { defaults: panel.unit ? { unit: panel.unit } : {}, overrides: [] },
        options: {},
      };
      x += w;
      if (panel.source === 'prometheus') {
        panels.push({
          ...common,
          datasource: PROMETHEUS,
          targets: panel.queries.map((q, n) => ({
            refId: String.fromCharCode(65 + n),
            datasource: PROMETHEUS,
            expr: q.expr,
            legendFormat: q.legend ?? '__auto',
            range: true,
          })),
        });
      } else {
        panels.push({
          ...common,
          datasource: POSTGRES,
          targets: [{ refId: 'A', datasource: POSTGRES, rawQuery: true, editorMode: 'code', format: panel.format, rawSql: panel.sql }],
        });
      }
    }
    y += 8;
  }
  return {
    uid: 'axel-drive',
    title: 'AXEL Drive',
    description: 'Generated by npm run grafana:dashboard from api/src/ops/grafana.dashboard.ts: edit the code, not this file.',
    tags: ['axel'],
    timezone: 'utc',
    editable: false,
    schemaVersion: 39,
    version: 1,
    refresh: '30s',
    time: { from: 'now-6h', to: 'now' },
    templating: { list: [] },
    annotations: { list: [] },
    panels,
  };
};

/** The file as written: stable key order, two-space indent, a final newline. */
export const grafanaDashboardJson = (): string => `${JSON.stringify(grafanaDashboard(), null, 2)}\n`;
