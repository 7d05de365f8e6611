import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { storageTestApp } from '../files/storage.testing';

const { t, bytes } = storageTestApp();
const { signedInUser } = accountHelpers(t);

describe('backup devices', () => {
  it('lists backup devices 100 a page with name, platform, last seen, paths and status; stops and resumes', async () => {
    const u = await signedInUser();
    const made = await u.http.post(`/api/users/${u.id}/backups/`, {
      name: 'Work laptop',
      platform: 'linux',
      paths: ['/home/ann/Documents', '/home/ann/Photos'],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      name: 'Work laptop',
      platform: 'linux',
      paths: ['/home/ann/Documents', '/home/ann/Photos'],
      status: 'active',
      active: true,
    });
    const list = await u.http.get(`/api/users/${u.id}/backups/`);
    expect(list.body).toMatchObject({ totalCount: 1, page: 1, perPage: 100 });
    expect(list.body.data[0]).toMatchObject({ id: made.body.id, name: 'Work laptop', status: 'active', storageId: u.storageId });
    expect(list.body.data[0].lastSeenAt).not.toBeNull();
    expect((await u.http.get(`/api/users/${u.id}/backups/?perPage=101`)).status).toBe(400);
    expect((await u.http.post(`/api/users/${u.id}/backups/`, { name: 'x', platform: 'linux', paths: ['relative'] })).body.code).toBe('BACKUP_PATH_INVALID');

    t().clock.advance(61_000);
    const seen = await u.http.post(`/api/users/${u.id}/backups/${made.body.id}/seen`);
    expect(Date.parse(seen.body.lastSeenAt)).toBeGreaterThan(Date.parse(made.body.lastSeenAt));
    expect((await u.http.post(`/api/users/${u.id}/backups/${made.body.id}/stop`)).body).toMatchObject({ status: 'stopped', active: false });
    expect((await u.http.get(`/api/users/${u.id}/backups/`)).body.data[0].status).toBe('stopped');
    expect((await u.http.post(`/api/users/${u.id}/backups/${made.body.id}/resume`)).body.status).toBe('active');
    const paths = await u.http.put(`/api/users/${u.id}/backups/${made.body.id}/paths`, { paths: ['C:\\Users\\Ann'] });
    expect(paths.body.paths).toEqual(['C:\\Users\\Ann']);

    const other = await signedInUser();
    expect((await other.http.get(`/api/users/${u.id}/backups/`)).status).toBe(403);
    expect((await other.http.post(`/api/users/${other.id}/backups/${made.body.id}/stop`)).status).toBe(404);
  });

  it('backed-up items carry isBackup and type backup; an active backup blocks trashing, deleting and moving them', async () => {
    const u = await signedInUser();
    const backup = (await u.http.post(`/api/users/${u.id}/backups/`, { name: 'Phone', platform: 'android', paths: ['/sdcard/DCIM'] })).body;
    const base = `/api/users/${u.id}/storages/${u.storageId}`;
    const sub = await u.http.post(`${base}/folders/${backup.folderId}/items/`, { label: 'folder', name: 'DCIM' });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const file = await u.http.post(`${base}/folders/${sub.body.id}/items/`, {
      label: 'file',
      name: 'photo.jpg',
      uploadId: bytes.upload(u.id, u.storageId, 'jpeg bytes'),
    });
    expect(file.status, JSON.stringify(file.body)).toBe(201);
    const plain = await u.http.post(`${base}/items/`, { label: 'folder', name: 'Plain' });

    const root = (await u.http.get(`${base}/items/`)).body.data as { id: string; isBackup: boolean; type: string; label: string }[];
    expect(root.find((i) => i.id === backup.folderId)).toMatchObject({ isBackup: true, type: 'backup', label: 'folder' });
    expect(root.find((i) => i.id === plain.body.id)).toMatchObject({ isBackup: false, type: 'folder' });
    const inside = (await u.http.get(`${base}/folders/${sub.body.id}/items/`)).body.data;
    expect(inside).toEqual([expect.objectContaining({ id: file.body.id, isBackup: true, type: 'backup', label: 'file' })]);
    expect((await u.http.get(`${base}/files/${file.body.id}`)).body).toMatchObject({ isBackup: true, type: 'backup' });
    expect((await u.http.get(`${base}/folders/${plain.body.id}`)).body).toMatchObject({ isBackup: false, type: 'folder' });

    const task = async (action: string, itemIds: string[], extra: Record<string, unknown> = {}) => {
      const started = await u.http.post(`/api/users/${u.id}/storage-tasks/`, { action, itemIds, ...extra });
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      return (await u.http.get(started.body.stateURL)).body;
    };
    for (const [action, ids, extra] of [
      ['trash', [backup.folderId], {}],
      ['delete', [file.body.id], {}],
      ['move', [sub.body.id], { destinationId: plain.body.id }],
    ] as const) {
      const state = await task(action, [...ids], extra);
      expect(state, action).toMatchObject({
        status: 'failed',
        errorCode: 'BACKUP_ACTIVE',
        errorMessage: 'Backup is active for this folder: stop the backup first',
      });
    }
    // copying out is not a conflict; trashing an item elsewhere neither
    expect((await task('copy', [file.body.id], { destinationId: plain.body.id })).status).toBe('done');

    await u.http.post(`/api/users/${u.id}/backups/${backup.id}/stop`);
    expect((await task('trash', [backup.folderId])).status).toBe('done');
  });
});
