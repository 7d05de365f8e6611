import { api } from '../../api/client';
import { storagePath } from '../files/files.api';

const enc = encodeURIComponent;
export type LockMethod = 'email' | 'totp';

/** The two-factor lock of files and folders (spec §4 File 2FA lock, §7 `two-factor-files`). */
export const fileLockApi = {
  /** Mails a code, unless the account's second factor is an authenticator app; says which to type. */
  askCode: (userId: string, storageId: string) => api.post<{ method: LockMethod }>(`${storagePath(userId, storageId)}/two-factor-code/`, {}),
  lock: (userId: string, storageId: string, itemId: string, code: string) =>
    api.post<{ itemId: string; twoFactorLock: boolean }>(`${storagePath(userId, storageId)}/items/${enc(itemId)}/two-factor-lock/`, { code }),
  unlock: (userId: string, storageId: string, itemId: string, code: string) =>
    api.request<{ itemId: string; twoFactorLock: boolean }>('DELETE', `${storagePath(userId, storageId)}/items/${enc(itemId)}/two-factor-lock/`, {
      body: { code },
    }),
  /** Opens a locked item (or one in a locked folder) for this session. */
  open: (userId: string, storageId: string, itemId: string, code: string) =>
    api.post<{ itemId: string; lockedItemIds: string[] }>(`${storagePath(userId, storageId)}/items/${enc(itemId)}/two-factor-access/`, { code }),
  /** Answers 5102 when the file is locked and this session has not opened it lately (a signed URL is made and dropped). */
  probe: (userId: string, storageId: string, fileId: string) => api.get<{ url: string }>('/urls/storage-download/', { userId, storageId, fileId }),
};

/** A locked item's answer until the session has opened it with a code (spec §8). */
export const LOCKED_CODE = '5102';
