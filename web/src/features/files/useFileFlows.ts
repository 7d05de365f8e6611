import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { noticeStore } from '../../session/notices';
import { filesApi } from './files.api';
import { type MoveCopyTask, moveCopyMachine } from './move-copy.machine';
import { type NameRequest, namingMachine } from './naming.machine';
import { runStorageTask } from './storage-task';
import { type TrashRequest, trashMachine } from './trash.machine';

export interface FileFlowsDeps {
  /** Opens the skip-2FA dialog when a storage task asks for it. */
  confirmSkip2fa: () => Promise<boolean>;
  clearSelection: () => void;
  reload: () => void;
  reloadStorages: () => void;
  /** An Undo pressed on a notice: the page's other error gives way to it. */
  onUndo: () => void;
}

const trashTask = (action: 'trash' | 'restore', confirmSkip2fa: () => Promise<boolean>) =>
  fromPromise<unknown, TrashRequest>(({ input }) =>
    runStorageTask({
      start: ({ skip2fa }) => filesApi.startTask(input.userId, { action, itemIds: input.items.map((i) => i.id), ...(skip2fa ? { skip2fa } : {}) }),
      poll: (task) => filesApi.taskState(input.userId, task),
      confirmSkip2fa,
    }),
  );

/**
 * The file browser's multi-step flows, each its own machine: the trash (with the notice's Undo),
 * copy and move, and naming (a new folder, a rename). The page renders their state and sends
 * them what the user does. What the machines are given is read once, at the first render: the
 * page passes functions that stay the same from render to render.
 */
export const useFileFlows = ({ confirmSkip2fa, clearSelection, reload, reloadStorages, onUndo }: FileFlowsDeps) => {
  const refresh = () => {
    reload();
    reloadStorages();
  };
  const [trash, sendTrash] = useMachine(
    trashMachine.provide({
      actors: { trash: trashTask('trash', confirmSkip2fa), restore: trashTask('restore', confirmSkip2fa) },
      actions: {
        moved: ({ self }, request) =>
          noticeStore.push({
            severity: 'success',
            key: 'files.trash.moved',
            values: { count: request.items.length },
            action: {
              key: 'files.trash.undo',
              run: () => {
                onUndo();
                self.send({ type: 'UNDO', ...request });
              },
            },
          }),
        restored: (_, request) => noticeStore.push({ severity: 'success', key: 'files.trash.restored', values: { count: request.items.length } }),
        restoreFailed: (_, error) => noticeStore.push({ severity: 'error', key: `errors.${error.code}`, values: { defaultValue: error.message } }),
        clearSelection,
        refresh,
      },
    }),
  );
  const [moveCopy, sendMoveCopy] = useMachine(
    moveCopyMachine.provide({
      actors: {
        run: fromPromise<unknown, MoveCopyTask>(({ input: { userId, action, itemIds, destinationId, storageId } }) =>
          runStorageTask({
            start: ({ skip2fa }) => filesApi.startTask(userId, { action, itemIds, destinationId, storageId, ...(skip2fa ? { skip2fa } : {}) }),
            poll: (task) => filesApi.taskState(userId, task),
            confirmSkip2fa,
          }),
        ),
      },
      actions: { clearSelection, refresh },
    }),
  );
  const [naming, sendNaming] = useMachine(
    namingMachine.provide({
      actors: {
        save: fromPromise<unknown, NameRequest>(({ input: r }) =>
          r.naming.mode === 'create'
            ? filesApi.createFolder(r.userId, r.storageId, r.folderId, r.name)
            : filesApi.rename(r.userId, r.storageId, r.naming.item.id, r.name),
        ),
      },
      actions: { clearSelection, refresh: reload },
    }),
  );
  return { trash, sendTrash, moveCopy, sendMoveCopy, naming, sendNaming };
};
