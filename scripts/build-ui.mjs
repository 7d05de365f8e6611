// Builds the web app and the console when their sources are newer than their build (or with --force).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const force = process.argv.includes('--force');
const newest = (dir) => {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return latest;
};

for (const app of ['web', 'console']) {
  const built = path.join(app, 'dist', 'index.html');
  const sources = Math.max(newest(path.join(app, 'src')), newest(path.join('domain', 'src')), statSync(path.join(app, 'package.json')).mtimeMs);
  if (!force && existsSync(built) && statSync(built).mtimeMs >= sources) continue;
  if (!existsSync(path.join(app, 'index.html'))) continue;
  console.log(`building ${app}...`);
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: app, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
