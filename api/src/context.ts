import type { EventRegistry } from '@axel/domain';
import type { CommandHandlerDeps, EventStore, Pool } from '@axel/platform';
import type { ProjectionRunner } from '@axel/projections';
import type { ProcessRuntime } from '@axel/workflows';
import type { Config } from './config';
import type { PushHub } from './http/push';
import type { SessionStore } from './http/sessions';
import type { Logger } from './logger';
import type { Mailer } from './mail/mailer';
import type { Secrets } from './secrets';

export interface Adapters {
  readonly database: 'embedded' | 'external';
  readonly eventStore: 'postgres' | 'eventstoredb';
  readonly processes: 'embedded' | 'temporal' | 'none';
  readonly mail: 'smtp' | 'dev';
  readonly blobs: 'local' | 's3';
}

/** Everything a route module may use; built once by the composition root. */
export interface AppContext {
  readonly config: Config;
  readonly log: Logger;
  readonly now: () => Date;
  readonly pool: Pool;
  readonly databaseUrl: string;
  readonly store: EventStore;
  readonly registry: EventRegistry;
  readonly runner: ProjectionRunner;
  readonly commands: CommandHandlerDeps;
  readonly mailer: Mailer;
  readonly secrets: Secrets;
  readonly sessions: SessionStore;
  readonly push: PushHub;
  readonly adapters: Adapters;
  /** The long-lived process runtime (embedded or Temporal), once built. */
  readonly processes: () => ProcessRuntime | undefined;
  /** Read-your-writes: wait (bounded) until the read models have reached a command's position. */
  readonly caughtUp: (position: number) => Promise<boolean>;
}
