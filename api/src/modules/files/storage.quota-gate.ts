import { DomainError } from '@axel/domain';
import type { CommandContext } from '@axel/platform';
import type { AppContext } from '../../context';
import type { QuotaGate, UploadPlacements } from './contracts';
import { ensureOnlineStorage, onlineStorageId, runStorageCommand } from './storage.service';
import { readStorageState } from './storage.stream';

const actorOf = (userId: string): CommandContext => ({ actorId: userId, actorKind: 'user' });

/**
 * The storage's side of the quota: an upload's size is reserved in the storage's own stream before
 * a byte is stored (refused with the spec's message when it does not fit), turned into used bytes
 * when the file is made, and released when the upload is abandoned.
 */
export const storageQuotaGate = (ctx: AppContext): QuotaGate => ({
  async reserve({ userId, storageId, uploadId, size }) {
    if (storageId === onlineStorageId(userId)) await ensureOnlineStorage(ctx, userId, actorOf(userId));
    await runStorageCommand(ctx, storageId, { type: 'ReserveQuota', data: { uploadId, size } }, actorOf(userId), { owner: userId });
  },
  async release({ userId, storageId, uploadId }) {
    // nothing to give back on a storage that is not the user's (or no longer exists)
    await runStorageCommand(ctx, storageId, { type: 'ReleaseQuota', data: { uploadId } }, { actorId: null, actorKind: 'system' }, { owner: userId }).catch(
      (error: unknown) => {
        if (!(error instanceof DomainError)) throw error;
      },
    );
  },
});

/** Whether a claimed upload's content is held by a file of its storage (decided on the storage's own stream). */
export const storagePlacements = (ctx: AppContext): UploadPlacements => ({
  async placed({ userId, storageId, keyId }) {
    const { value } = await readStorageState(ctx, storageId, (s) => s.status === 'open' && s.ownerId === userId && s.contentUses.has(keyId));
    return value;
  },
});
