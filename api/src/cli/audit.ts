import fs from 'node:fs';
import os from 'node:os';
import readline from 'node:readline';
import { verifyExportLines } from '@axel/platform/audit/export-format';
import { loadKeyring, parsePublicKeys, rotateSigningKey } from '@axel/platform/audit/keys';
import type { AcceptedRestore } from '../modules/audit/audit.chain-store';

const usage = `usage: npm run audit -- <command>
  verify                                  re-read the log and its signed checkpoints (a stopped product's
                                          DATA_DIR, or DATABASE_URL) against the checkpoint record in
                                          DATA_DIR and the anchors on the AXEL chain, and name the first
                                          altered or rewritten position; says how many events are unsealed
  verify-offline <file> [--key <pem>]     check an export (GET /api/admin/audit/export) with no server and
                                          no database; --key is the public keys file from
                                          /.well-known/audit-key?keys=all (any key listed in it may sign)
  accept-restore --position <n> --reason "<why>"
                                          after the database was restored from a backup (the record in
                                          DATA_DIR is then ahead of it and the sealer refuses to seal):
                                          accept the restored log from its last checkpoint <n>; appends
                                          the acceptance, with the reason and who ran it, to the record
                                          (nothing in it is rewritten), and sealing goes on from there
  rotate-key                              a new signing key in DATA_DIR (embedded default); the old key's
                                          public half is kept in DATA_DIR/audit-previous-keys.pem, so the
                                          checkpoints it signed still verify; restart the product after it`;

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
      key = parsePublicKeys(fs.readFileSync(keyFile, 'utf8'));
    } catch (error) {
      console.error(`${keyFile}: no Ed25519 public key (${(error as Error).message})`);
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
  console.log(
    `intact: ${result.events} events, ${result.checkpoints} signed checkpoints, up to position ${result.checkedUpTo}, signed by key ${result.signedBy.join(' and ') || result.keyId}`,
  );
  if (result.selfDeclaredKey) console.log('note: checked against the key the export declares; pass --key <the published public key> to prove who signed it');
  return 0;
};

const verifyStored = async (): Promise<number> => {
  const [{ loadConfig }, { createApp }, { createLogger }, { verifyAudit }, { createPortChain }, { anchoredCheckpoints }, { CheckpointRecord }] =
    await Promise.all([
      import('../config'),
      import('../app'),
      import('../logger'),
      import('../modules/audit/audit.chain-store'),
      import('../modules/audit/audit.chain-port'),
      import('../modules/audit/audit.anchor'),
      import('@axel/platform/audit/record'),
    ]);
  const config = loadConfig();
  const app = await createApp({ config, log: createLogger('warn'), roles: [], serveUi: false });
  try {
    const { keys } = loadKeyring(config.AUDIT_SIGNING_KEY, config.AUDIT_PREVIOUS_KEYS, config.dataDir);
    // with EVENTSTORE_URL the events are read through the event store's port
    const portChain = app.ctx.adapters.eventStore === 'postgres' ? undefined : createPortChain();
    const record = new CheckpointRecord(config.dataDir);
    const result = portChain
      ? await portChain.verify(app.ctx, keys).finally(() => portChain.stop())
      : await verifyAudit(app.ctx.pool, keys, { record, anchored: await anchoredCheckpoints(app.ctx, app.wallet.walletOf, record) });
    console.log(JSON.stringify(result));
    if (!result.ok && result.reason === 'rewritten') {
      console.error(
        `NOT INTACT: the log was rewritten and re-sealed from position ${result.firstMismatch}: it no longer matches the checkpoints recorded in ${record.file} or anchored on the chain`,
      );
    } else if (!result.ok) console.error(`NOT INTACT: the first mismatch is at position ${result.firstMismatch} (${result.reason})`);
    if ('acceptedRestores' in result) {
      const { describeRestore } = await import('../modules/audit/audit.restore');
      for (const restore of result.acceptedRestores as readonly AcceptedRestore[]) console.error(`note: ${describeRestore(restore)}`);
    }
    const unsealed = 'unsealedEvents' in result ? Number(result.unsealedEvents) : 0;
    if (unsealed > 0) console.error(`note: ${unsealed} events after position ${result.checkedUpTo} are not sealed yet, so not checked`);
    return result.ok ? 0 : 1;
  } finally {
    await app.stop();
  }
};

const acceptRestoreCommand = async (args: string[]): Promise<number> => {
  const flagValue = (flag: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const position = Number(flagValue('--position'));
  const reason = flagValue('--reason');
  if (!Number.isSafeInteger(position) || position < 0 || !reason?.trim()) {
    console.error(usage);
    return 64;
  }
  const [{ loadConfig }, { createApp }, { createLogger }, { acceptRestore, describeRestore, RestoreNotAcceptedError }, { CheckpointRecord }] =
    await Promise.all([
      import('../config'),
      import('../app'),
      import('../logger'),
      import('../modules/audit/audit.restore'),
      import('@axel/platform/audit/record'),
    ]);
  const config = loadConfig();
  const app = await createApp({ config, log: createLogger('warn'), roles: [], serveUi: false });
  try {
    if (app.ctx.adapters.eventStore !== 'postgres') {
      console.error('the checkpoint record is kept for the PostgreSQL event store only: there is no restore to accept with EVENTSTORE_URL');
      return 64;
    }
    const { keys } = loadKeyring(config.AUDIT_SIGNING_KEY, config.AUDIT_PREVIOUS_KEYS, config.dataDir);
    const record = new CheckpointRecord(config.dataDir);
    const operator = (() => {
      try {
        return os.userInfo().username;
      } catch {
        return 'unknown';
      }
    })();
    const restore = await acceptRestore(app.ctx.pool, keys, record, { position, reason, operator, now: new Date() }).catch((error: unknown) => {
      if (error instanceof RestoreNotAcceptedError) return error;
      throw error;
    });
    if (restore instanceof Error) {
      console.error(`NOT ACCEPTED: ${restore.message}`);
      return 1;
    }
    console.log(`accepted, in ${record.file}: ${describeRestore(restore)}`);
    console.log('the sealer goes on from there (a running product picks it up at its next try)');
    return 0;
  } finally {
    await app.stop();
  }
};

const rotateKey = async (): Promise<number> => {
  const { loadConfig } = await import('../config');
  const config = loadConfig();
  if (config.AUDIT_SIGNING_KEY) {
    console.error(
      "AUDIT_SIGNING_KEY is set, so the key is yours to rotate: put a new Ed25519 key in AUDIT_SIGNING_KEY and the old one's public key (PEM) in AUDIT_PREVIOUS_KEYS, then restart",
    );
    return 64;
  }
  const { retired, current } = rotateSigningKey(config.dataDir);
  console.log(
    `new audit signing key ${current.keyId} in ${config.dataDir}; ${retired.keyId} retired (its public key stays in the list, so what it signed still verifies)`,
  );
  console.log('restart the product to sign with the new key; /.well-known/audit-key?keys=all lists both');
  return 0;
};

const main = async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'verify-offline') return verifyOffline(rest);
  if (command === 'verify') return verifyStored();
  if (command === 'rotate-key') return rotateKey();
  if (command === 'accept-restore') return acceptRestoreCommand(rest);
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
