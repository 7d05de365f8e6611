import type { EventDefinition } from '@axel/domain';
import type { CommandContext, Migration } from '@axel/platform';
import type { Projection } from '@axel/projections';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context';

export type Role = 'api' | 'projector' | 'worker';
export const ALL_ROLES: readonly Role[] = ['api', 'projector', 'worker'];

/** Who erases an account's data, and when: the purge's process, with its idempotency key. */
export type ErasureActor = CommandContext & { readonly now: Date };

/**
 * A slice of the product: its events, projections, migrations, routes and background work. A
 * module is built in `app.ts` by its factory, which takes what it needs of other modules as
 * arguments, so an unwired dependency does not compile.
 */
export interface Module {
  /** How logs, health and the erasure check name it. */
  readonly name: string;
  readonly events?: readonly EventDefinition[];
  readonly projections?: readonly Projection[];
  readonly migrations?: readonly Migration[];
  /**
   * The columns of this module's projection tables that hold personal data (what a person wrote,
   * or what names or reaches them), by table. A module that declares any declares `forget`.
   */
  readonly personalData?: Readonly<Record<string, readonly string[]>>;
  routes?(ctx: AppContext): (app: FastifyInstance) => Promise<void>;
  /** Background work; `roles` says which parts this process runs. */
  start?(ctx: AppContext, roles: ReadonlySet<Role>): Promise<void>;
  stop?(): Promise<void>;
  /** Shown under its name in /api/health. */
  health?(): Promise<unknown>;
  /**
   * Erases what this module keeps of a purged account (destroys stream keys, drops rows). The
   * account purge calls every module's, in the order of `app.ts`; repeating it does nothing more.
   */
  forget?(ctx: AppContext, userId: string, actor: ErasureActor): Promise<void>;
}

/** The account purge's erasure: every module's `forget`, one after the other. */
export const forgetEverywhere = async (modules: readonly Module[], ctx: AppContext, userId: string, actor: ErasureActor): Promise<void> => {
  for (const m of modules) await m.forget?.(ctx, userId, actor);
};

/** The modules that declare personal data but no `forget`: the account purge would leave their data behind. */
export const modulesWithoutForget = (modules: readonly Module[]): string[] =>
  modules.filter((m) => Object.values(m.personalData ?? {}).some((columns) => columns.length > 0) && !m.forget).map((m) => m.name);
