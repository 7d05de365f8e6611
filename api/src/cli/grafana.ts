import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { grafanaDashboardJson } from '../ops/grafana.dashboard';

/**
 * `npm run grafana:dashboard` writes the Grafana dashboard docker-compose.yml provisions;
 * `-- --check` only says whether the file in the repository is the one the code generates.
 */
export const DASHBOARD_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../ops/grafana/dashboards/axel-drive.json');

const main = () => {
  const json = grafanaDashboardJson();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(DASHBOARD_FILE, 'utf8');
    } catch {
      /* missing: stale */
    }
    if (current !== json) {
      console.error(`${path.relative(process.cwd(), DASHBOARD_FILE)} is stale: run npm run grafana:dashboard`);
      process.exit(1);
    }
    console.log('the Grafana dashboard is up to date');
    return;
  }
  mkdirSync(path.dirname(DASHBOARD_FILE), { recursive: true });
  writeFileSync(DASHBOARD_FILE, json);
  console.log(`wrote ${path.relative(process.cwd(), DASHBOARD_FILE)}`);
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
