// Builds the web app and the console when their sources are newer than their build (or with --force).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { precompress } from './precompress.mjs';

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
  if (!existsSync(path.join(app, 'index.html'))) continue;
  const sources = Math.max(
    newest(path.join(app, 'src')),
    newest(path.join(app, 'public')),
    newest(path.join('domain', 'src')),
    ...[path.join(app, 'package.json'), path.join(app, 'index.html'), 'scripts/build-ui.mjs', 'scripts/precompress.mjs'].map((f) => statSync(f).mtimeMs),
  );
  if (!force && existsSync(built) && statSync(built).mtimeMs >= sources) continue;
  console.log(`building ${app}...`);
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: app, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  precompress(path.join(app, 'dist'));
  // written last: the build counts as done only once its compressed copies exist
  utimesSync(built, new Date(), new Date());
}
