import { storageEventDefinitions } from '@axel/domain';
import { storageProjection } from '@axel/projections';
import type { Module } from '../../module';
import type { AppContext } from '../../context';
import type { FileManifest } from './contracts';
import type { StorageBytesOf } from './storage.bytes';
import { storageDownloadRoutes } from './storage-downloads.routes';
import { storageKeyPacketMigrations, storageLabelMigrations, storageListingMigrations } from './storage.migrations';
import { storageTaskRoutes } from './storage-tasks.routes';
import { forgetStorageTasks, storageTaskMigrations } from './storage-tasks.store';
import { storageRoutes } from './storage.routes';

/**
 * The storage slice of Files: storages, folders, files, quota, trash, tasks and downloads. The byte
 * pipeline reaches it through contracts.ts: it reserves quota through `storageQuotaGate`, and the
 * storage reads, claims and destroys content through the `bytes` it is built with.
 */
export const createStorageModule = (deps: { readonly bytes: StorageBytesOf }): Module => ({
  name: 'storage',
  events: storageEventDefinitions,
  projections: [storageProjection],
  migrations: [...storageTaskMigrations, ...storageListingMigrations, ...storageLabelMigrations, ...storageKeyPacketMigrations],
  // the names are erased by the storage purge, the process `AccountPurged` starts (storage-purge)
  personalData: { storage_items: ['name'] },
  routes: (ctx) => async (app) => {
    const bytes = deps.bytes(ctx);
    await app.register(storageRoutes(ctx, bytes));
    await app.register(storageDownloadRoutes(ctx, bytes));
    await app.register(storageTaskRoutes(ctx, bytes));
  },
  // a purged account's tasks go with it (an archive's name is the user's own words)
  forget: (ctx, userId) => forgetStorageTasks(ctx, userId),
});

/** Every file version the storages keep, for the pipeline's scrub. */
export async function* storageFileManifests(ctx: AppContext): AsyncIterable<FileManifest> {
  let after = '';
  for (;;) {
    const { rows } = await ctx.pool.query<{ id: string; manifest: FileManifest }>(
      `select distinct on (manifest->>'keyId') manifest->>'keyId' as id, manifest from storage_items
        where manifest is not null and manifest->>'keyId' > $1 order by manifest->>'keyId' limit 200`,
      [after],
    );
    if (!rows.length) return;
    for (const r of rows) yield r.manifest;
    after = rows.at(-1)!.id;
  }
}
