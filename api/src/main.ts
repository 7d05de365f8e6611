import { DataDirInUseError, EmbeddedPostgresError } from '@axel/platform';
import { ConfigError, loadConfig } from './config';
import { ALL_ROLES, createApp, type Role } from './app';
import { createLogger } from './logger';
import { testClockOffsetMs } from './failpoints';
import { bootstrapAdmin } from './modules/accounts/bootstrap-admin';
import { devMailboxMode } from './modules/dev-mailbox.route';

const parseRoles = (argv: string[]): Role[] => {
  const i = argv.indexOf('--role');
  const value = i >= 0 ? argv[i + 1] : process.env.ROLE;
  if (!value || value === 'all') return [...ALL_ROLES];
  const roles = value.split(',').map((r) => r.trim());
  for (const r of roles) {
    if (!(ALL_ROLES as readonly string[]).includes(r)) {
      throw new ConfigError([`--role: unknown role "${r}" (use api, projector, worker or all)`]);
    }
  }
  return roles as Role[];
};

const main = async () => {
  let config;
  let roles: Role[];
  try {
    config = loadConfig();
    roles = parseRoles(process.argv.slice(2));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const log = createLogger(config.LOG_LEVEL);
  const clockOffsetMs = testClockOffsetMs();
  const app = await createApp({ config, log, roles, ...(clockOffsetMs ? { now: () => new Date(Date.now() + clockOffsetMs) } : {}) });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.error('shutdown took too long, exiting');
      process.exit(1);
    }, 20_000);
    try {
      await app.stop();
      clearTimeout(force);
      log.info('stopped cleanly');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (roles.includes('api')) {
    const admin = await bootstrapAdmin(app.ctx);
    if (admin?.generatedPassword) {
      // Printed once, on the first start only; it is not stored anywhere in clear.
      process.stdout.write(
        `\n  First start: a super_admin account was created.\n    e-mail:   ${admin.email}\n    password: ${admin.generatedPassword}\n  Sign in at ${config.publicUrl}/admin and change the password.\n\n`,
      );
    }
  }
  let url: string | null;
  try {
    ({ url } = await app.start());
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    console.error(
      e.code === 'EADDRINUSE'
        ? `Port ${config.PORT} is already in use on ${config.HOST}: stop what uses it or set PORT to another port.`
        : `Could not start: ${e.message}`,
    );
    await app.stop().catch(() => undefined);
    process.exit(1);
  }
  log.info({ url, roles, adapters: app.ctx.adapters }, 'started');
  if (url) {
    process.stdout.write(
      `\n  AXEL Drive is running:\n    web app   ${config.publicUrl}/\n    console   ${config.publicUrl}/admin\n    API docs  ${config.publicUrl}/api/docs\n${
        devMailboxMode(config) !== 'off' ? `    mailbox   ${config.publicUrl}/dev/mailbox\n` : ''
      }\n`,
    );
  }
};

main().catch((error) => {
  const known = error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof EmbeddedPostgresError;
  console.error(known ? error.message : error);
  process.exit(1);
});
