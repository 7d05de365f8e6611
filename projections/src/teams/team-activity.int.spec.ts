import {
  EventRegistry,
  shareEventDefinitions,
  storageEventDefinitions,
  storageStreamName,
  teamEventDefinitions,
  teamStreamName,
  userEventDefinitions,
} from '@axel/domain';
import { eventStoreMigrations, expected, newId, PostgresEventStore } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testMetadata } from '../../../platform/src/eventstore/eventstore.contract';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { projectionMigrations } from '../runner/checkpoints';
import { rebuildProjection } from '../runner/rebuild';
import { ProjectionRunner } from '../runner/runner';
import { usersProjection } from '../users/users.projection';
import { teamActivityProjection } from './team-activity.projection';
import { teamActivityPage } from './team-activity.queries';

const registry = new EventRegistry().register(...storageEventDefinitions, ...teamEventDefinitions, ...shareEventDefinitions, ...userEventDefinitions);
const OWNER = 'owner-a';
const MEMBER = 'member-a';
const STORAGE = 'st-a';
const now = '2026-11-01T00:00:00.000Z';

describe('the team activity read model', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let runner: ProjectionRunner;

  const append = async (stream: string, actorId: string | null, events: readonly { type: string; data: unknown }[], correlationId = newId()) => {
    const r = await store.append(
      stream,
      events.map((e) => ({ id: newId(), type: e.type, data: e.data, schemaVersion: 1, metadata: testMetadata({ actorId, actorKind: 'user', correlationId }) })),
      expected.any,
    );
    await runner.waitFor(r.position, { timeoutMs: 5000 });
  };
  const storage = (actorId: string, ...events: { type: string; data: unknown }[]) => append(storageStreamName(STORAGE), actorId, events);
  const folder = (itemId: string, parentId: string | null, name: string, copiedFrom: string | null = null) => ({
    type: 'FolderCreated',
    data: { itemId, parentId, name, copiedFrom, createdAt: now },
  });
  const log = async () =>
    (await teamActivityPage(db.pool, OWNER, { limit: 50, offset: 0 })).rows.map((r) => [r.type, r.source_path, r.destination_path, r.actor_id]);

  beforeAll(async () => {
    db = await createTestDatabase([...eventStoreMigrations, ...projectionMigrations]);
    store = new PostgresEventStore({ pool: db.pool, connectionString: db.url });
    runner = new ProjectionRunner({ pool: db.pool, store, registry, projections: [teamActivityProjection, usersProjection] });
    await runner.start();
    // the storage and a folder in it come before the team: its paths are known all the same
    await storage(OWNER, { type: 'StorageOpened', data: { storageId: STORAGE, ownerId: OWNER, type: 'online', sizeTotal: 1000, openedAt: now } });
    await storage(OWNER, folder('docs', null, 'Docs'));
    await append(teamStreamName(OWNER), OWNER, [{ type: 'TeamCreated', data: { teamId: OWNER, ownerId: OWNER, planKind: 'team' } }]);
  });
  afterAll(async () => {
    await runner.stop();
    await db.drop();
  });

  it('logs creations, moves, copies, the trash and shares with the paths of the time; nothing from before the team', async () => {
    await storage(MEMBER, folder('plans', 'docs', 'Plans'), folder('old', null, 'Old'));
    await storage(MEMBER, { type: 'ItemMoved', data: { itemId: 'plans', parentId: 'old', modifiedAt: now } });
    // copying a folder copies its contents: one entry for the copy
    await append(
      storageStreamName(STORAGE),
      OWNER,
      [folder('old-copy', null, 'Old copy', 'old'), folder('plans-copy', 'old-copy', 'Plans', 'plans')],
      'copy-1',
    );
    await storage(OWNER, { type: 'ItemTrashed', data: { itemId: 'plans', descendantIds: [], size: 0, trashedAt: now } });
    await storage(OWNER, { type: 'ItemRestored', data: { itemId: 'plans', descendantIds: [], parentId: null, name: 'Plans (1)', size: 0, restoredAt: now } });
    await storage(OWNER, { type: 'ItemDeleted', data: { itemId: 'old', descendantIds: [], size: 0, trashedSize: 0, destroyed: [], deletedAt: now } });

    await append('share-sh-1', OWNER, [
      {
        type: 'ShareCreated',
        data: {
          shareId: 'sh-1',
          linkId: 'link-1',
          ownerId: OWNER,
          storageId: STORAGE,
          kind: 'public',
          title: 'Docs',
          description: null,
          message: null,
          expiresAt: null,
          downloadable: true,
          requireLogin: false,
          esign: false,
          passwordHash: null,
          recipients: [],
          items: [{ id: 'docs', kind: 'folder', name: 'Docs', size: 0 }],
          totalSize: 0,
          createdAt: now,
        },
      },
    ]);

    expect(await log()).toEqual([
      ['shared', '/Docs', null, OWNER],
      ['deleted', '/Old', null, OWNER],
      ['restored', null, '/Plans (1)', OWNER],
      ['trashed', '/Old/Plans', null, OWNER],
      ['copied', '/Old', '/Old copy', OWNER],
      ['moved', '/Docs/Plans', '/Old/Plans', MEMBER],
      ['created', null, '/Old', MEMBER],
      ['created', null, '/Docs/Plans', MEMBER],
    ]);
    const page = await teamActivityPage(db.pool, OWNER, { type: 'created', actorId: MEMBER, limit: 1, offset: 1 });
    expect(page.total).toBe(2);
    expect(page.rows.map((r) => r.destination_path)).toEqual(['/Docs/Plans']);
  });

  it("forgets a purged member's entries, and rebuilds to the same rows", async () => {
    await storage(MEMBER, folder('mine', null, 'Mine'));
    expect((await log()).some(([, , , actor]) => actor === MEMBER)).toBe(true);
    const before = await log();
    await append('user-member-a', MEMBER, [{ type: 'AccountPurged', data: { at: now } }]);
    const after = await log();
    expect(after.some(([, , , actor]) => actor === MEMBER)).toBe(false);
    expect(after).toEqual(before.filter(([, , , actor]) => actor !== MEMBER));

    const rows = async () => (await db.pool.query(`select * from team_activity order by position`)).rows;
    const live = await rows();
    await rebuildProjection({ pool: db.pool, store, registry, projection: teamActivityProjection });
    expect(await rows()).toEqual(live);
  });
});
