import { rebuildProjection } from '@axel/projections';
import { createApp } from '../app';
import { ConfigError, loadConfig } from '../config';
import { createLogger } from '../logger';
import { rebuildAllProjections } from './rebuild-all';

const usage = `usage: npm run projections -- <command>
  list               each projection with its position and lag
  rebuild <name>     rebuild one projection from position 0, then swap it in
  rebuild --all      rebuild every projection, one after the other`;

const main = async () => {
  const [command, name] = process.argv.slice(2);
  if (!command || !['list', 'rebuild'].includes(command)) {
    console.error(usage);
    process.exit(64);
  }
  const config = loadConfig();
  const app = await createApp({ config, log: createLogger('warn'), roles: [], serveUi: false });
  try {
    const { runner, pool, store, registry } = app.ctx;
    await runner.prepare();
    if (command === 'list') {
      console.table(await runner.status());
      return;
    }
    if (name === '--all') {
      const results = await rebuildAllProjections({
        pool,
        store,
        registry,
        projections: runner.projections,
        onRebuilt: (rebuilt, result) => console.log(`rebuilt ${rebuilt}: ${result.events} events in ${result.ms} ms, now at position ${result.position}`),
      });
      console.log(`rebuilt all ${results.size} projections`);
      return;
    }
    const projection = runner.projections.find((p) => p.name === name);
    if (!projection) {
      console.error(`unknown projection "${name ?? ''}"; known: ${runner.projections.map((p) => p.name).join(', ')}`);
      process.exitCode = 64;
      return;
    }
    let last = 0;
    const result = await rebuildProjection({
      pool,
      store,
      registry,
      projection,
      onProgress: (_position, events) => {
        if (events - last >= 10_000) {
          last = events;
          process.stdout.write(`  ${events} events replayed\r`);
        }
      },
    });
    console.log(`rebuilt ${projection.name}: ${result.events} events in ${result.ms} ms, now at position ${result.position}`);
  } finally {
    await app.stop();
  }
};

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
