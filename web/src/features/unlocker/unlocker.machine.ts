import { assign, fromCallback, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { StorageTask } from '../files/files.api';
import { SKIP_2FA_CODE, taskFailed, taskFinished } from '../files/storage-task';

/** Spec §9: the storage task behind the unlocker is polled every 2 s. */
export const UNLOCKER_POLL_MS = 2000;

/** Where the encrypted files come from: picked or dropped files, a direct URL, or items of a storage. */
export type UnlockerSource = { kind: 'files'; files: File[] } | { kind: 'url'; url: string } | { kind: 'storage'; storageId: string; itemIds: string[] };

/** One file to decrypt: a dropped `.pgp` file, or a `.pgp` entry of a zip. */
export interface UnlockItem {
  name: string;
  /** Encrypted size (bytes to read). */
  size: number;
  read: number;
  decrypted: number;
  state: 'waiting' | 'working' | 'saved' | 'failed';
  error?: NormalisedError;
}

export type UnlockerStep = 'gettingDownloadURL' | 'downloading' | 'unpacking' | 'decrypting';

export type UnlockerEvent =
  | { type: 'START'; source: UnlockerSource }
  | { type: 'UNLOCK'; passphrase: string }
  | { type: 'PROGRESS'; index: number; read?: number; decrypted?: number; state?: UnlockItem['state']; error?: NormalisedError }
  | { type: 'DOWNLOAD_PROGRESS'; loaded: number; total: number | null }
  | { type: 'DOWNLOADED'; file: File }
  | { type: 'DECRYPTED' }
  | { type: 'FAILED'; error: NormalisedError }
  | { type: 'SKIP_2FA'; code?: string }
  | { type: 'CANCEL_SKIP_2FA' }
  | { type: 'STOP' }
  | { type: 'RESET' };

export interface UnlockerContext {
  source: UnlockerSource | null;
  /** Where the run started from, which decides the steps it goes through. */
  origin: UnlockerSource['kind'] | null;
  /** Set once the user chose to go on without the fresh second factor (and the code they gave, if any). */
  skip2fa: { code?: string } | null;
  task: { id: string; stateURL?: string } | null;
  /** What the download or the user handed over: the files to unpack. */
  files: File[];
  download: { loaded: number; total: number | null };
  items: UnlockItem[];
  /** A wrong passphrase, shown beside the passphrase field. */
  passphraseError: NormalisedError | null;
  error: NormalisedError | null;
}

export interface TaskStart {
  storageId: string;
  itemIds: string[];
  skip2fa: { code?: string } | null;
}

/** What the unpacking step found: each item's name and size, in the order they will be decrypted. */
export type Unpacked = { name: string; size: number }[];

const errorOf = (event: unknown) => toApiError((event as { error?: unknown }).error).toJSON();

const initial = (): UnlockerContext => ({
  source: null,
  origin: null,
  skip2fa: null,
  task: null,
  files: [],
  download: { loaded: 0, total: null },
  items: [],
  passphraseError: null,
  error: null,
});

/**
 * The unlocker (spec §4, Unlocker task). The passphrase is asked once and unlocks the private key in
 * the crypto worker; then a direct download URL goes straight to downloading, items of a storage are
 * first packed by an archive storage task polled every 2 s (code 5102 asks to skip the fresh
 * second factor and retries; any other failure shows the error and stops), and picked files go
 * straight to unpacking. Unpacking lists the `.pgp` messages (a zip's entries, or the files
 * themselves); decrypting streams each one through the worker and saves it, reporting bytes read and
 * bytes decrypted. Stop aborts whatever runs and resets.
 */
export const unlockerMachine = setup({
  types: {
    context: {} as UnlockerContext,
    events: {} as UnlockerEvent,
  },
  actors: {
    unlockKey: fromPromise<void, { passphrase: string }>(async () => {
      throw new Error('unlockKey not provided');
    }),
    startTask: fromPromise<{ id: string; stateURL?: string }, TaskStart>(async () => {
      throw new Error('startTask not provided');
    }),
    pollTask: fromPromise<StorageTask, { id: string; stateURL?: string }>(async () => {
      throw new Error('pollTask not provided');
    }),
    download: fromCallback<UnlockerEvent, { url: string }>(() => {
      throw new Error('download not provided');
    }),
    unpack: fromPromise<Unpacked, { files: File[] }>(async () => {
      throw new Error('unpack not provided');
    }),
    decrypt: fromCallback<UnlockerEvent, { files: File[] }>(() => {
      throw new Error('decrypt not provided');
    }),
  },
  guards: {
    fromFiles: ({ context }) => context.source?.kind === 'files',
    fromUrl: ({ context }) => context.source?.kind === 'url',
  },
  delays: { poll: UNLOCKER_POLL_MS },
}).createMachine({
  id: 'unlocker',
  context: initial,
  initial: 'idle',
  on: {
    STOP: { target: '.idle', actions: assign(initial) },
  },
  states: {
    idle: {
      on: {
        START: { target: 'askingPassphrase', actions: assign(({ event }) => ({ ...initial(), source: event.source, origin: event.source.kind })) },
      },
    },
    askingPassphrase: {
      on: {
        UNLOCK: { target: 'unlockingKey', guard: ({ event }) => event.passphrase.length > 0 },
      },
    },
    unlockingKey: {
      invoke: {
        src: 'unlockKey',
        input: ({ event }) => ({ passphrase: event.type === 'UNLOCK' ? event.passphrase : '' }),
        onDone: [
          {
            target: 'unpacking',
            guard: 'fromFiles',
            actions: assign({ passphraseError: null, files: ({ context }) => (context.source as { files: File[] }).files }),
          },
          { target: 'downloading', guard: 'fromUrl', actions: assign({ passphraseError: null }) },
          { target: 'gettingDownloadURL', actions: assign({ passphraseError: null }) },
        ],
        onError: { target: 'askingPassphrase', actions: assign({ passphraseError: ({ event }) => errorOf(event) }) },
      },
    },
    gettingDownloadURL: {
      initial: 'creating',
      states: {
        creating: {
          invoke: {
            src: 'startTask',
            input: ({ context }) => {
              const source = context.source as Extract<UnlockerSource, { kind: 'storage' }>;
              return { storageId: source.storageId, itemIds: source.itemIds, skip2fa: context.skip2fa };
            },
            onDone: { target: 'polling', actions: assign({ task: ({ event }) => event.output }) },
            onError: { target: '#unlocker.failed', actions: assign({ error: ({ event }) => errorOf(event) }) },
          },
        },
        polling: {
          invoke: {
            src: 'pollTask',
            input: ({ context }) => context.task!,
            onDone: [
              {
                target: '#unlocker.downloading',
                guard: ({ event }) => taskFinished(event.output.status) && !!event.output.downloadURL,
                actions: assign({ source: ({ event }) => ({ kind: 'url' as const, url: event.output.downloadURL as string }) }),
              },
              {
                target: '#unlocker.failed',
                guard: ({ event }) => taskFinished(event.output.status),
                actions: assign({ error: { code: 'TASK_FAILED', message: 'The archive has no download link', data: null } }),
              },
              {
                target: 'confirmingSkip2fa',
                guard: ({ context, event }) => taskFailed(event.output.status) && String(event.output.errorCode) === SKIP_2FA_CODE && !context.skip2fa,
              },
              {
                target: '#unlocker.failed',
                guard: ({ event }) => taskFailed(event.output.status),
                actions: assign({
                  error: ({ event }) => ({
                    code: String(event.output.errorCode ?? 'TASK_FAILED'),
                    message: event.output.errorMessage ?? 'The task failed',
                    data: null,
                  }),
                }),
              },
              { target: 'waiting' },
            ],
            onError: { target: '#unlocker.failed', actions: assign({ error: ({ event }) => errorOf(event) }) },
          },
        },
        waiting: {
          after: { poll: 'polling' },
        },
        confirmingSkip2fa: {
          on: {
            SKIP_2FA: { target: 'creating', actions: assign({ skip2fa: ({ event }) => (event.code ? { code: event.code } : {}) }) },
            CANCEL_SKIP_2FA: {
              target: '#unlocker.failed',
              actions: assign({ error: { code: SKIP_2FA_CODE, message: 'A fresh second factor is needed to download these files', data: null } }),
            },
          },
        },
      },
    },
    downloading: {
      invoke: {
        src: 'download',
        input: ({ context }) => ({ url: (context.source as Extract<UnlockerSource, { kind: 'url' }>).url }),
      },
      on: {
        DOWNLOAD_PROGRESS: { actions: assign({ download: ({ event }) => ({ loaded: event.loaded, total: event.total }) }) },
        DOWNLOADED: { target: 'unpacking', actions: assign({ files: ({ event }) => [event.file] }) },
        FAILED: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    unpacking: {
      invoke: {
        src: 'unpack',
        input: ({ context }) => ({ files: context.files }),
        onDone: {
          target: 'decrypting',
          actions: assign({ items: ({ event }) => event.output.map((i) => ({ ...i, read: 0, decrypted: 0, state: 'waiting' as const })) }),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorOf(event) }) },
      },
    },
    decrypting: {
      invoke: {
        src: 'decrypt',
        input: ({ context }) => ({ files: context.files }),
      },
      on: {
        PROGRESS: {
          actions: assign({
            items: ({ context, event }) =>
              context.items.map((item, i) =>
                i !== event.index
                  ? item
                  : {
                      ...item,
                      read: event.read ?? item.read,
                      decrypted: event.decrypted ?? item.decrypted,
                      state: event.state ?? item.state,
                      ...(event.error ? { error: event.error } : {}),
                    },
              ),
          }),
        },
        DECRYPTED: 'done',
        FAILED: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    done: {
      on: { RESET: { target: 'idle', actions: assign(initial) } },
    },
    failed: {
      on: { RESET: { target: 'idle', actions: assign(initial) } },
    },
  },
});

export type UnlockerSnapshot = SnapshotFrom<typeof unlockerMachine>;

/** Spec §4: the task's status (none, running, done) and its step. */
export const unlockerStatus = (snapshot: UnlockerSnapshot): 'none' | 'running' | 'done' =>
  snapshot.matches('idle') || snapshot.matches('askingPassphrase') ? 'none' : snapshot.matches('done') || snapshot.matches('failed') ? 'done' : 'running';

export const unlockerStep = (snapshot: UnlockerSnapshot): UnlockerStep | null => {
  for (const step of ['gettingDownloadURL', 'downloading', 'unpacking', 'decrypting'] as const) if (snapshot.matches(step)) return step;
  return null;
};

/** The steps a run from this origin goes through, in order (picked files are neither fetched nor downloaded). */
export const stepsOf = (origin: UnlockerSource['kind'] | null): UnlockerStep[] =>
  origin === 'files'
    ? ['unpacking', 'decrypting']
    : origin === 'url'
      ? ['downloading', 'unpacking', 'decrypting']
      : ['gettingDownloadURL', 'downloading', 'unpacking', 'decrypting'];
