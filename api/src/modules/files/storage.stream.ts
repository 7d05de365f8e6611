import { DomainError, storageDecider, storageStreamName, StorageErrors, type StorageCommand, type StorageEvent, type StorageState } from '@axel/domain';
import type { CommandContext, CommandResult } from '@axel/platform';
import { cachedStreamCommands } from '../../cached-stream';
import type { AppContext } from '../../context';

/*
 * The command path of storages, with the folded state kept between commands. A storage's stream
 * grows with every file, and the generic path folds a whole stream per command: a folder upload of
 * thousands of files would fold quadratically (see cached-stream.ts). Commands on one storage run
 * one at a time in this process, since the cached state is updated in place (see StorageState).
 */
const runCommand = cachedStreamCommands(storageDecider);

export interface StorageCommandOptions {
  /** Refuse (404) unless the storage is open and belongs to this user. */
  readonly owner?: string;
  /** Decides instead of the storage decider (to learn more of a decision than its events). */
  readonly decide?: (command: StorageCommand, state: StorageState) => StorageEvent[];
}

export const runStorageCommand = (
  ctx: AppContext,
  storageId: string,
  command: Omit<StorageCommand, 'metadata'>,
  actor: CommandContext,
  options: StorageCommandOptions = {},
): Promise<CommandResult<StorageEvent, StorageState>> => {
  const decide = options.decide ?? storageDecider.decide;
  return runCommand(
    ctx,
    storageStreamName(storageId),
    command,
    actor,
    (full, state) => {
      if (options.owner !== undefined && (state.status !== 'open' || state.ownerId !== options.owner)) {
        throw new DomainError(StorageErrors.storageNotFound);
      }
      return decide(full as StorageCommand, state);
    },
    { idempotent: true },
  );
};

/**
 * Reads the storage's state at its head through the command path (nothing is written): `read`
 * runs on the state inside the stream's turn, so it must take what it needs there. Answers what it
 * read and the position of the head event (for `caughtUp`).
 */
export const readStorageState = async <T>(ctx: AppContext, storageId: string, read: (state: StorageState) => T): Promise<{ value: T; position: number }> => {
  let value: T | undefined;
  const result = await runStorageCommand(
    ctx,
    storageId,
    { type: 'ReleaseQuota', data: { uploadId: '' } },
    { actorId: null, actorKind: 'system' },
    {
      decide: (_command, state) => {
        value = read(state);
        return [];
      },
    },
  );
  const head = result.revision >= 0 ? (await ctx.store.readStream(storageStreamName(storageId), result.revision)).events[0] : undefined;
  return { value: value as T, position: head?.position ?? 0 };
};
