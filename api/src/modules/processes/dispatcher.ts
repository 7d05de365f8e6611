import { rm } from 'node:fs/promises';
import path from 'node:path';
import {
  ERASED,
  storageDecider,
  storageStreamName,
  userDecider,
  userStreamName,
  type StorageCommand,
  type UserCommand,
  type UserWithAccount,
} from '@axel/domain';
import { billingDecider, billingStreamName, type BillingCommand } from '@axel/domain';
import { handleCommand, loadState } from '@axel/platform';
import { routeCommands, type CommandDispatcher, type DispatchContext, type ProcessCommand, type RequestMailData } from '@axel/workflows';
import type { AppContext } from '../../context';
import type { ErasureActor } from '../../module';
import type { StorageBytesOf } from '../files/storage.bytes';
import { onlineStorageId } from '../files/storage.service';
import { shareProcessCommand } from '../sharing/sharing.reminders';

type ProcessCommandHandler = (ctx: AppContext, command: ProcessCommand, dctx: DispatchContext) => Promise<{ position: number }>;

/** What the dispatcher is given by `app.ts`: the other modules' parts its commands run. */
export interface DispatcherDeps {
  readonly bytes: StorageBytesOf;
  /** `ScrubBlobs` and `CollectBlobs` (files). */
  readonly blobMaintenance: ProcessCommandHandler;
  /** The `autopay` aggregate (wallet). */
  readonly autopay: ProcessCommandHandler;
  /** `CollectUnpaidFiles` of a Secure Fetch link. */
  readonly collectUnpaid: (ctx: AppContext, fetchId: string, dctx: DispatchContext) => Promise<{ position: number }>;
  /** After `PurgeAccount`: every module's `forget`. */
  readonly forget: (ctx: AppContext, userId: string, actor: ErasureActor) => Promise<void>;
}

/** The account's address and the locale it last chose, read from its events when a process mails it. */
const recipient = async (ctx: AppContext, userId: string): Promise<{ email: string | null; locale: string | null }> => {
  const { events } = await ctx.store.readStream(userStreamName(userId));
  let locale: string | null = null;
  for (const e of events) {
    const data = e.data as { locale?: unknown };
    if ((e.type === 'UserRegistered' || e.type === 'AccountSettingsChanged') && typeof data.locale === 'string') locale = data.locale;
  }
  const { state } = await loadState(ctx.commands, userDecider, userStreamName(userId));
  const email = (state as Partial<UserWithAccount>).email;
  return { email: email && email !== ERASED ? email : null, locale };
};

/**
 * Process commands go through the same handlers as the HTTP routes; the context names the process
 * as actor and carries the idempotency key, so a redelivered command appends nothing new.
 */
export const createDispatcher = (ctx: AppContext, deps: DispatcherDeps): CommandDispatcher =>
  routeCommands({
    user: async (command, dctx) => {
      const stream = userStreamName(command.aggregateId);
      const before = command.type === 'PurgeAccount' ? (await loadState(ctx.commands, userDecider, stream)).state : undefined;
      const result = await handleCommand(
        ctx.commands,
        userDecider,
        stream,
        { type: command.type, data: command.data, metadata: { now: dctx.now } } as UserCommand,
        dctx,
      );
      if (command.type === 'PurgeAccount') {
        const avatar = (before as UserWithAccount | undefined)?.avatar;
        if (avatar) await rm(path.join(ctx.config.dataDir, 'avatars', avatar.avatarId), { force: true });
        await deps.forget(ctx, command.aggregateId, dctx);
      }
      return { position: result.position };
    },
    storage: async (command, dctx) => {
      const result = await handleCommand(
        ctx.commands,
        storageDecider,
        storageStreamName(command.aggregateId),
        { type: command.type, data: command.data, metadata: { now: dctx.now } } as StorageCommand,
        dctx,
      );
      return { position: result.position };
    },
    billing: async (command, dctx) => {
      const result = await handleCommand(
        ctx.commands,
        billingDecider,
        billingStreamName(command.aggregateId),
        { type: command.type, data: command.data, metadata: { now: dctx.now } } as BillingCommand,
        dctx,
      );
      return { position: result.position };
    },
    'storage-owner': async (command, dctx) => {
      // every storage of the owner: today their online storage
      const storageId = onlineStorageId(command.aggregateId);
      const result = await handleCommand(
        ctx.commands,
        storageDecider,
        storageStreamName(storageId),
        { type: 'PurgeStorage', data: {}, metadata: { now: dctx.now } } as StorageCommand,
        dctx,
      );
      for (const event of result.events) {
        if (event.type !== 'StoragePurged') continue;
        for (const manifest of event.data.destroyed) {
          await deps
            .bytes(ctx)
            .content.destroy(manifest)
            .catch((err: unknown) => ctx.log.error({ err, keyId: manifest.keyId }, 'could not destroy the content of a purged storage'));
        }
      }
      return { position: result.position };
    },
    autopay: (command, dctx) => deps.autopay(ctx, command, dctx),
    share: (command, dctx) => shareProcessCommand(ctx, command, dctx),
    'secure-fetch': (command, dctx) => deps.collectUnpaid(ctx, command.aggregateId, dctx),
    blobs: (command, dctx) => deps.blobMaintenance(ctx, command, dctx),
    mail: async (command, dctx) => {
      const mail = command.data as RequestMailData;
      const account = mail.to && mail.locale ? null : await recipient(ctx, mail.userId);
      const to = mail.to ?? account?.email;
      // an account already forgotten has no address left to write to
      if (!to) return { position: 0 };
      const locale = mail.locale ?? account?.locale ?? 'en_us';
      const result = await ctx.mailer.request({ to, template: mail.template, locale, params: mail.params, userId: mail.userId }, dctx);
      return { position: result.position };
    },
  });
