import { FileKeys, forgetRetiredMasterKeys, loadMasterKeys, replaceGeneratedMasterKey } from '@axel/platform/blobs/index';
import { createApp } from '../app';
import { ConfigError, loadConfig } from '../config';
import { createLogger } from '../logger';

const usage = `usage: npm run keys -- <command>
  status    the master key in use and how many file keys each master key wraps
  rotate    re-wrap every file key under a new master key (chunks are not touched)

With MASTER_KEY set, rotation re-wraps under MASTER_KEY and reads the old keys from
MASTER_KEY_PREVIOUS (comma-separated). Without it, a new DATA_DIR/master.key is generated and the
old one is kept under DATA_DIR/master-keys.retired/ until no file key needs it any more.`;

const main = async () => {
  const [command] = process.argv.slice(2);
  if (!command || !['status', 'rotate'].includes(command)) {
    console.error(usage);
    process.exit(64);
  }
  const config = loadConfig();
  const app = await createApp({ config, log: createLogger('warn'), roles: [], serveUi: false });
  try {
    const load = () => loadMasterKeys({ masterKeyHex: config.MASTER_KEY, previousHex: config.MASTER_KEY_PREVIOUS, dataDir: config.dataDir });
    const counts = async () =>
      (
        await app.ctx.pool.query<{ master_key_id: string; keys: number }>(
          'select master_key_id, count(*)::int as keys from file_keys where wrapped_key is not null group by 1 order by 1',
        )
      ).rows;
    if (command === 'status') {
      console.log(`current master key: ${load().currentId}`);
      console.table(await counts());
      return;
    }
    if (!config.MASTER_KEY) replaceGeneratedMasterKey(config.dataDir);
    const keys = new FileKeys(app.ctx.pool, load(), load);
    const { rewrapped } = await keys.rotate((done) => process.stdout.write(`  ${done} file keys re-wrapped\r`));
    const inUse = await keys.masterKeysInUse();
    console.log(`re-wrapped ${rewrapped} file keys under master key ${keys.ring.currentId}`);
    if (inUse.every((id) => id === keys.ring.currentId)) {
      if (!config.MASTER_KEY) forgetRetiredMasterKeys(config.dataDir);
      console.log(config.MASTER_KEY ? 'no file key needs MASTER_KEY_PREVIOUS any more: remove it' : 'the old master key is no longer needed and was removed');
    } else {
      console.log(
        `file keys are still wrapped by ${inUse.filter((id) => id !== keys.ring.currentId).join(', ')} (written while rotating): run the rotation again`,
      );
    }
  } finally {
    await app.stop();
  }
};

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
