import fs from 'node:fs';
import readline from 'node:readline';
import { verifyExportLines } from '@axel/platform/audit/export-format';
import { loadSigningKey, parsePublicKey } from '@axel/platform/audit/keys';

const usage = `usage: npm run audit -- <command>
  verify                                  re-read the log and its signed checkpoints (a stopped product's
                                          DATA_DIR, or DATABASE_URL) and name the first altered position
  verify-offline <file> [--key <pem>]     check an export (GET /api/admin/audit/export) with no server and
                                          no database; --key is the public key from /.well-known/audit-key`;

const verifyOffline = async (args: string[]): Promise<number> => {
  const keyAt = args.indexOf('--key');
  const keyFile = keyAt >= 0 ? args[keyAt + 1] : undefined;
  const file = args.find((a, i) => !a.startsWith('--') && (keyAt < 0 || i !== keyAt + 1));
  if (!file || (keyAt >= 0 && !keyFile)) {
    console.error(usage);
    return 64;
  }
  let key;
  if (keyFile) {
    try {
      key = parsePublicKey(fs.readFileSync(keyFile, 'utf8'));
    } catch (error) {
      console.error(`${keyFile}: not an Ed25519 public key (${(error as Error).message})`);
      return 66;
    }
  }
  if (!fs.existsSync(file)) {
    console.error(`${file}: no such file`);
    return 66;
  }
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  const result = await verifyExportLines(lines, key);
  if (!result.ok) {
    console.error(`${file}:${result.firstBadLine!.line}: ${result.firstBadLine!.reason}`);
    console.error(`NOT INTACT: the first bad line is ${result.firstBadLine!.line}`);
    return 1;
  }
  console.log(`intact: ${result.events} events, ${result.checkpoints} signed checkpoints, up to position ${result.checkedUpTo}, key ${result.keyId}`);
  if (result.selfDeclaredKey) console.log('note: checked against the key the export declares; pass --key <the published public key> to prove who signed it');
  return 0;
};

const verifyStored = async (): Promise<number> => {
  const [{ loadConfig }, { createApp }, { createLogger }, { verifyChain }] = await Promise.all([
    import('../config'),
    import('../app'),
    import('../logger'),
    import('../modules/audit/audit.chain-store'),
  ]);
  const config = loadConfig();
  const app = await createApp({ config, log: createLogger('warn'), roles: [], serveUi: false });
  try {
    const key = loadSigningKey(config.AUDIT_SIGNING_KEY, config.dataDir);
    const result = await verifyChain(app.ctx.pool, key);
    console.log(JSON.stringify(result));
    if (!result.ok) console.error(`NOT INTACT: the first mismatch is at position ${result.firstMismatch} (${result.reason})`);
    return result.ok ? 0 : 1;
  } finally {
    await app.stop();
  }
};

const main = async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'verify-offline') return verifyOffline(rest);
  if (command === 'verify') return verifyStored();
  console.error(usage);
  return 64;
};

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error((error as Error).name === 'ConfigError' ? (error as Error).message : error);
    process.exit(2);
  },
);
