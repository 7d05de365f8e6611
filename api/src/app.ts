import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERASED, EventRegistry } from '@axel/domain';
import { mailEvents, type MailTemplate } from '@axel/domain/mail/mail.events';
import {
  closePool,
  createPool,
  databaseUrlWithName,
  ensureDatabase,
  eventStoreMigrations,
  migrate,
  PersonalDataEventStore,
  personalDataMigrations,
  PostgresEventStore,
  SubjectKeys,
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
  type EventStore,
} from '@axel/platform';
import { mailOutboxProjection, projectionMigrations, ProjectionRunner } from '@axel/projections';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { Adapters, AppContext } from './context';
import { ALL_ROLES, forgetEverywhere, type Module, type Role } from './module';
import { PushHub } from './http/push';
import { hasLiveSession, positionTrackingStore, registerReadYourWrites } from './http/read-your-writes';
import { createServer } from './http/server';
import { instrumentedStore, registerHttpMetrics } from './metrics';
import { createMetricsModule } from './modules/metrics/metrics.module';
import { dashboardsModule } from './modules/dashboards/dashboards.module';
import { sessionMigrations, SessionStore } from './http/sessions';
import { createLogger, type Logger } from './logger';
import { devMailboxTransport, MailDeliverer, mailDeliveryMigrations, smtpTransport } from './mail/deliverer';
import { createMailer } from './mail/mailer';
import { mailAttachmentStore } from './mail/attachments.store';
import { mailSubject, renderMail, type MailParams } from './mail/templates';
import { healthRoutes } from './modules/health.route';
import { devMailboxMode, devMailboxRoutes } from './modules/dev-mailbox.route';
import { createSecrets, loadSecretKey } from './secrets';
import { registerStaffGate } from './http/auth';
import { createAccountsModule } from './modules/accounts/accounts.module';
import { notificationsModule } from './modules/notifications/notifications.module';
import { createProcessesModule } from './modules/processes/processes.module';
import { createBillingModule } from './modules/billing/billing.module';
import { createFilesModule, type FilesModule } from './modules/files/files.module';
import type { StorageBytes, StorageBytesOf } from './modules/files/storage.bytes';
import { createStorageModule } from './modules/files/storage.module';
import { createBrandingModule } from './modules/branding/branding.module';
import { createTeamsModule } from './modules/teams/teams.module';
import { createWalletModule, type WalletModule } from './modules/wallet/wallet.module';
import { createAuditModule } from './modules/audit/audit.module';
import { bookmarksModule } from './modules/bookmarks/bookmarks.module';
import { fileLockModule } from './modules/file-lock/file-lock.module';
import { e2eeModule } from './modules/e2ee/e2ee.module';
import { cartModule } from './modules/sharing/cart.module';
import { createShareAccessModule } from './modules/sharing/share-access.module';
import { sharingModule } from './modules/sharing/sharing.module';
import { activityModule } from './modules/audit/activity.module';
import { createSecureFetchModule, secureFetchGate } from './modules/secure-fetch/secure-fetch.module';
import { createIpfsModule } from './modules/ipfs/ipfs.module';
import { certificatePdf } from './modules/secure-fetch/secure-fetch.certificate-pdf';
import { certificateOf } from './modules/secure-fetch/secure-fetch.pay.routes';
import { ownLink } from './modules/secure-fetch/secure-fetch.service';
import type { CertificateOf } from './modules/integrations/clio/clio.filing';
import { createIntegrationsModule } from './modules/integrations/integrations.module';
import { devicesModule } from './modules/devices/devices.module';
import { backupsModule } from './modules/backups/backups.module';
import { residencyModule } from './modules/residency/residency.module';
import { supportModule } from './modules/support/support.module';
import { createSsoModule } from './modules/sso/sso.module';
import { createPushModule } from './modules/push/push.module';
import { createEsignModule } from './modules/esign/esign.module';

/** A Secure Fetch certificate and its PDF, as its owner downloads them: what the integrations file to Clio. */
const secureFetchCertificate: CertificateOf = async (ctx, userId, fetchId) => {
  const certificate = certificateOf(await ownLink(ctx, userId, fetchId));
  return { certificate, pdf: await certificatePdf(certificate) };
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export { ALL_ROLES, type Role } from './module';

export interface AppOptions {
  readonly config: Config;
  readonly log?: Logger;
  readonly now?: () => Date;
  readonly roles?: readonly Role[];
  /** Serve the built web app and console (off in API tests). */
  readonly serveUi?: boolean;
  /**
   * The content the storage, shares and Secure Fetch read, claim and destroy: the files module's
   * byte pipeline unless given (tests of the storage routes alone keep it in memory).
   */
  readonly bytes?: StorageBytes;
}

export interface AppHandle {
  readonly ctx: AppContext;
  readonly server: FastifyInstance;
  readonly embedded: EmbeddedPostgresHandle | undefined;
  /** Every module, in the order `createApp` wires them (and the account purge forgets). */
  readonly modules: readonly Module[];
  /** The byte pipeline's module and the wallet's, which tests reach directly. */
  readonly files: FilesModule;
  readonly wallet: WalletModule;
  /** Starts the background parts of the selected roles and, for `api`, listens. */
  start(): Promise<{ url: string | null }>;
  stop(): Promise<void>;
}

const connectDatabase = async (config: Config, log: Logger) => {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: undefined, kind: 'external' as const };
  const embedded = await startEmbeddedPostgres({
    dir: path.join(config.dataDir, 'postgres'),
    persistent: true,
    durable: true,
    log: (line) => log.debug({ component: 'postgres' }, line),
  });
  await ensureDatabase(embedded.url, 'axel');
  return { url: databaseUrlWithName(embedded.url, 'axel'), embedded, kind: 'embedded' as const };
};

const openEventStore = async (config: Config, pool: ReturnType<typeof createPool>, url: string): Promise<EventStore> => {
  if (!config.EVENTSTORE_URL) return new PostgresEventStore({ pool, connectionString: url });
  const { KurrentEventStore } = await import('@axel/platform/eventstore/eventstoredb');
  return new KurrentEventStore({ connectionString: config.EVENTSTORE_URL });
};

export const createApp = async (options: AppOptions): Promise<AppHandle> => {
  const { config } = options;
  const roles = new Set(options.roles ?? ALL_ROLES);
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const now = options.now ?? (() => new Date());
  const secrets = createSecrets(loadSecretKey(config.SECRET_KEY, config.dataDir));

  // each module is given what it needs of the others here: an unwired dependency does not compile
  const wallet = createWalletModule();
  const billing = createBillingModule({ tokenCheckouts: wallet.tokenCheckouts });
  const audit = createAuditModule({ walletOf: wallet.walletOf });
  const files = createFilesModule({ secureFetchGate });
  const given = options.bytes;
  const bytes: StorageBytesOf = given ? () => given : files.bytes;
  const ipfs = createIpfsModule({ bytes });
  const secureFetch = createSecureFetchModule({ bytes, walletOf: wallet.walletOf, receiptKey: audit.signingKey, pinning: ipfs });
  const processes = createProcessesModule({
    bytes,
    blobMaintenance: files.maintenance,
    autopay: wallet.autopayCommand,
    collectUnpaid: secureFetch.collectUnpaid,
    // the account purge: every module forgets what it keeps of the account, in this order
    forget: (ctx, userId, actor) => forgetEverywhere(modules, ctx, userId, actor),
  });
  const modules: Module[] = [
    createAccountsModule({ planOf: billing.planOf }),
    notificationsModule,
    processes,
    files,
    createStorageModule({ bytes }),
    wallet,
    billing,
    audit,
    activityModule,
    sharingModule,
    createShareAccessModule({ bytes }),
    bookmarksModule,
    cartModule,
    secureFetch,
    createTeamsModule({ planOf: billing.planOf }),
    createBrandingModule({ planOf: billing.planOf }),
    fileLockModule,
    e2eeModule,
    ipfs,
    createIntegrationsModule({ planOf: billing.planOf, bytes: files.bytes, certificateOf: secureFetchCertificate }),
    devicesModule,
    backupsModule,
    residencyModule,
    supportModule,
    createSsoModule({ planOf: billing.planOf }),
    createPushModule(),
    createEsignModule({ bytes, planOf: billing.planOf }),
    dashboardsModule,
    createMetricsModule(),
  ];

  const db = await connectDatabase(config, log);
  const pool = createPool(db.url, { max: 20, applicationName: `axel-${[...roles].join('+')}` });
  try {
    await migrate(pool, [
      ...eventStoreMigrations,
      ...personalDataMigrations,
      ...projectionMigrations,
      ...mailDeliveryMigrations,
      ...sessionMigrations,
      ...modules.flatMap((m) => m.migrations ?? []),
    ]);
  } catch (error) {
    await pool.end();
    await db.embedded?.stop();
    throw error;
  }

  const registry = new EventRegistry().register(...mailEvents, ...modules.flatMap((m) => m.events ?? []));
  // personal fields of events are sealed under per-subject keys, wrapped by the server key
  const subjectKeys = new SubjectKeys(pool, {
    wrap: (key) => secrets.encrypt(key.toString('base64')),
    unwrap: (wrapped) => Buffer.from(secrets.decrypt(wrapped), 'base64'),
  });
  const store = positionTrackingStore(instrumentedStore(new PersonalDataEventStore(await openEventStore(config, pool, db.url), registry, subjectKeys)));
  // a delivered mail's links are forgotten with it: replaying its request renders nothing
  const renderSealed = (template: MailTemplate, locale: string, sealed: string) =>
    sealed === ERASED
      ? { subject: mailSubject(template, locale), text: '', html: '' }
      : renderMail(template, locale, JSON.parse(secrets.decrypt(sealed)) as MailParams);
  const transport = config.SMTP_URL ? smtpTransport(config.SMTP_URL, config.MAIL_FROM) : devMailboxTransport(pool);
  const attachments = mailAttachmentStore(pool, secrets);
  const deliverer = new MailDeliverer({ pool, store, registry, transport, attachments, log, now });
  const runner = new ProjectionRunner({
    pool,
    store,
    registry,
    projections: [mailOutboxProjection(renderSealed), ...modules.flatMap((m) => m.projections ?? [])],
    onError: (name, error) => log.error({ projection: name, err: error }, 'projection failed'),
    onApplied: (name) => {
      if (name === 'mail_outbox' && roles.has('worker')) deliverer.kick();
    },
  });
  const push = new PushHub(pool, db.url);
  const adapters: Adapters = {
    database: db.kind,
    eventStore: store.kind,
    processes: config.TEMPORAL_ADDRESS ? 'temporal' : 'embedded',
    mail: transport.kind,
    blobs: config.S3_ENDPOINT ? 's3' : 'local',
  };
  const ctx: AppContext = {
    config,
    log,
    now,
    pool,
    databaseUrl: db.url,
    store,
    registry,
    runner,
    commands: { store, registry, now },
    mailer: createMailer({ store, registry, secrets, now, attachments }),
    secrets,
    sessions: new SessionStore(pool, now),
    push,
    adapters,
    processes: () => processes.runtime(),
    caughtUp: (position) => runner.waitFor(position, { timeoutMs: config.READ_YOUR_WRITES_TIMEOUT_MS }),
  };

  const serveUi = options.serveUi ?? true;
  const server = await createServer({
    logger: log,
    trustProxy: config.TRUST_PROXY,
    publicUrl: config.publicUrl,
    webDist: serveUi ? path.join(root, 'web/dist') : undefined,
    consoleDist: serveUi ? path.join(root, 'console/dist') : undefined,
  });
  registerHttpMetrics(server);
  registerReadYourWrites(server, ctx.caughtUp, hasLiveSession(pool));
  registerStaffGate(server, ctx);
  await server.register(healthRoutes(ctx, { processes: () => processes.health(), blobs: () => files.blobStatus() }));
  const mailbox = devMailboxMode(config);
  if (mailbox === 'exposed') {
    log.warn({ host: config.HOST }, 'DEV_MAILBOX=on with a HOST other machines can reach: the development mailbox answers loopback clients only');
  }
  if (mailbox !== 'off') await server.register(devMailboxRoutes(ctx));
  for (const m of modules) if (m.routes) await server.register(m.routes(ctx));
  await server.ready();

  let started = false;
  return {
    ctx,
    server,
    embedded: db.embedded,
    modules,
    files,
    wallet,
    async start() {
      started = true;
      // Tables exist before any route reads them, whichever process runs the projector.
      await runner.prepare();
      if (roles.has('projector')) await runner.start();
      if (roles.has('worker')) deliverer.start();
      for (const m of modules) await m.start?.(ctx, roles);
      if (!roles.has('api')) return { url: null };
      await push.start();
      const url = await server.listen({ port: config.PORT, host: config.HOST });
      return { url };
    },
    async stop() {
      if (started) {
        await server.close();
        await push.stop();
        for (const m of [...modules].reverse()) await m.stop?.();
        await deliverer.stop();
        await runner.stop();
      }
      await store.close();
      // every connection closed before the embedded PostgreSQL stops (it would terminate them)
      await closePool(pool);
      await db.embedded?.stop();
    },
  };
};
