import { defineErrors } from '../shared/errors';

/** The "Files, sharing, storage" part of the error catalogue (spec §8) that storages and items raise. */
export const StorageErrors = defineErrors({
  quotaExceeded: { code: 'INSUFFICIENT_SPACE', status: 413, message: 'Insufficient space or quota' },
  nameExists: { code: 'NAME_EXISTS', status: 409, message: 'An item with this name already exists' },
  invalidName: { code: 'INVALID_NAME', status: 400, message: 'This name is not allowed' },
  profanity: { code: 'PROFANITY', status: 400, message: 'Names and titles must not contain profanity' },
  itemNotFound: { code: 'ITEM_NOT_FOUND', status: 404, message: 'Item not found or already deleted' },
  folderNotFound: { code: 'FOLDER_NOT_FOUND', status: 404, message: 'Folder not found' },
  storageNotFound: { code: 'STORAGE_NOT_FOUND', status: 404, message: 'Storage not found' },
  fileDeleted: { code: 'FILE_DELETED', status: 404, message: 'This file was deleted' },
  fileNotAccessible: { code: 'FILE_NOT_ACCESSIBLE', status: 403, message: 'This file is not accessible' },
  // not in the spec's catalogue: part of a file's stored content has no intact copy left (staff are told)
  fileDamaged: { code: 'FILE_DAMAGED', status: 500, message: 'This file is damaged: part of its content cannot be read' },
  incompleteUpload: { code: 'INCOMPLETE_UPLOAD', status: 400, message: 'The upload is incomplete' },
  /** A tus termination of an upload already being made into a file (spec §8: cannot cancel while saving). */
  uploadBeingSaved: { code: 'CANNOT_CANCEL_WHILE_SAVING', status: 409, message: 'This upload is being saved as a file and cannot be cancelled' },
  moveIntoOwnChild: { code: 'MOVE_INTO_OWN_CHILD', status: 400, message: 'An item cannot be moved into itself or one of its own folders' },
  restoreToOtherStorage: { code: 'RESTORE_TO_OTHER_STORAGE', status: 400, message: 'Restoring to another storage is not allowed' },
  notInTrash: { code: 'NOT_IN_TRASH', status: 400, message: 'This item is not in the trash' },
  inTrash: { code: 'ITEM_IN_TRASH', status: 400, message: 'This item is in the trash' },
  copyFailed: { code: 'COPY_FAILED', status: 409, message: '{{failed}} of {{total}} items could not be copied' },
  moveFailed: { code: 'MOVE_FAILED', status: 409, message: '{{failed}} of {{total}} items could not be moved' },
  trashFailed: { code: 'TRASH_FAILED', status: 409, message: '{{failed}} of {{total}} items could not be moved to the trash' },
  restoreFailed: { code: 'RESTORE_FAILED', status: 409, message: '{{failed}} of {{total}} items could not be restored' },
  deleteFailed: { code: 'DELETE_FAILED', status: 409, message: '{{failed}} of {{total}} items could not be deleted' },
  downloadSizeExceeded: { code: 'DOWNLOAD_SIZE_EXCEEDED', status: 413, message: 'Download size exceeded: at most 10 GB at once' },
  invalidUrl: { code: 'INVALID_URL', status: 403, message: 'Invalid Url' },
  rangeNotSatisfiable: { code: 'RANGE_NOT_SATISFIABLE', status: 416, message: 'The requested range is outside the file' },
  /** A file made with `e2eeEnabled` carries its key packets (`pgpmessage`), and only such a file does. */
  e2eeKeyPackets: {
    code: 'E2EE_KEY_PACKETS',
    status: 400,
    message: 'An end-to-end encrypted file needs its key packets (pgpmessage), and only such a file has them',
  },
  taskNotFound: { code: 'TASK_NOT_FOUND', status: 404, message: 'Storage task not found' },
  /** A storage task's own failure code (spec §8: it opens the skip-2FA dialog), never an HTTP answer. */
  twoFactorRequired: {
    code: '5102',
    status: 403,
    message: 'This download asks for two-factor verification: sign in again with your code, or continue without it',
  },
});
