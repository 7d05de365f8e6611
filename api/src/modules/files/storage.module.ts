import { storageEventDefinitions } from '@axel/domain';
import { storageProjection } from '@axel/projections';
import type { Module } from '../../app';
import type { AppContext } from '../../context';
import type { FileManifest } from './contracts';
import { storageDownloadRoutes } from './storage-downloads.routes';
import { storageLabelMigrations, storageListingMigrations } from './storage.migrations';
import { storageTaskMigrations, storageTaskRoutes } from './storage-tasks.routes';
import { storageRoutes } from './storage.routes';

/**
 * The storage slice of Files: storages, folders, files, quota, trash, tasks and downloads. The byte
 * pipeline reaches it through contracts.ts: it reserves quota through `storageQuotaGate`, and binds
 * itself for downloads and deletions with `bindStorageBytes`.
 */
export const storageModule: Module = {
  events: storageEventDefinitions,
  projections: [storageProjection],
  migrations: [...storageTaskMigrations, ...storageListingMigrations, ...storageLabelMigrations],
  routes: (ctx) => async (app) => {
    await app.register(storageRoutes(ctx));
    await app.register(storageDownloadRoutes(ctx));
    await app.register(storageTaskRoutes(ctx));
  },
};

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
