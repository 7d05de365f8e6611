import { existsSync } from 'node:fs';
import path from 'node:path';
import { EmbeddedProcessRuntime } from '@axel/workflows';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { useTestApp } from '../../testing/harness';

const t = useTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', ACCOUNT_RETENTION_DAYS: '30' } });
const { signUpConfirmed, signIn, lastMail, PASSWORD } = accountHelpers(t);

/** The app's embedded process runtime, to fire the timers the test clock made due. */
const processRuntime = () => {
  const rt = t().app.ctx.processes();
  if (!(rt instanceof EmbeddedProcessRuntime)) throw new Error('expected the embedded runtime');
  return rt;
};

describe('account deletion process', () => {
  it('leaves a deleted account in Deleted users, then purges its data and files after the retention period, as the process', async () => {
    const { email, id } = await signUpConfirmed();
    const { http } = await signIn(email);
    await http.put(`/api/users/${id}/account`, { locale: 'es_mx' });
    await http.put(`/api/users/${id}/profile`, { firstName: 'Lucía', city: 'Oaxaca' });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    const avatar = await http.request('POST', `/api/users/${id}/avatar`, png, { 'content-type': 'image/png' });
    const avatarId = new URL(avatar.body.avatarUrl, t().url).searchParams.get('v')!;
    const avatarFile = path.join(t().app.ctx.config.dataDir, 'avatars', avatarId);
    expect(existsSync(avatarFile)).toBe(true);

    expect((await http.delete(`/api/users/${id}/`, { confirmation: 'YES', password: PASSWORD })).status).toBe(204);
    expect((await lastMail(email, 'Tu cuenta fue eliminada')).text).toContain('30 días');

    // the staff session would time out while the clock jumps days: sign in again when needed
    const staff = async () => (await signIn('root@axel.test', 'Root-pass-123')).http;
    let admin = await staff();
    const deleted = await admin.get('/api/admin/deleted-users/');
    expect(deleted.body.find((u: { id: string }) => u.id === id)).toMatchObject({ email, purgedAt: null });

    // the process is waiting for its timer
    let processes = await admin.get('/api/admin/processes');
    for (let i = 0; i < 100 && !processes.body.some((p: { processId: string; type: string }) => p.processId === id && p.type === 'account-deletion'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      processes = await admin.get('/api/admin/processes');
    }
    const waiting = processes.body.find((p: { processId: string; type: string }) => p.processId === id && p.type === 'account-deletion');
    expect(waiting).toMatchObject({ type: 'account-deletion', status: 'running' });
    expect(Date.parse(waiting.nextTimerAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);

    // 29 days later nothing has happened; past 30 days the purge runs
    t().clock.advance(29 * 86_400_000);
    await processRuntime().fireDueTimers();
    admin = await staff();
    expect((await admin.get(`/api/admin/deleted-users/${id}`)).body.purgedAt).toBeNull();
    t().clock.advance(2 * 86_400_000);
    await processRuntime().fireDueTimers();
    await processRuntime().whenIdle();

    admin = await staff();
    const purgedMail = await lastMail(email, 'Tus datos fueron borrados');
    expect(purgedMail.text).toContain('borrados');
    const after = await admin.get(`/api/admin/deleted-users/${id}`);
    expect(after.body.purgedAt).not.toBeNull();
    expect(after.body).toMatchObject({ email: null, firstName: null });
    expect(existsSync(avatarFile)).toBe(false);
    const leftovers = await t().app.ctx.pool.query(
      "select (select count(*)::int from notifications where user_id = $1) as notes, (select count(*)::int from mail_outbox where user_id = $1 and template <> 'account-purged' and recipient <> '') as mails",
      [id],
    );
    expect(leftovers.rows[0]).toEqual({ notes: 0, mails: 0 });

    const { events } = await t().app.ctx.store.readStream(`user-${id}`);
    const purge = events.find((e) => e.type === 'AccountPurged')!;
    expect(purge.metadata).toMatchObject({ actorKind: 'process', actorId: `account-deletion:${id}` });
    const deletion = events.find((e) => e.type === 'AccountDeleted')!;
    expect(purge.metadata.causationId).toBe(deletion.id);

    const done = (await admin.get('/api/admin/processes')).body.find(
      (p: { processId: string; type: string }) => p.processId === id && p.type === 'account-deletion',
    );
    expect(done.status).toBe('completed');
    const detail = await admin.get(`/api/admin/processes/${encodeURIComponent(done.id)}`);
    expect(detail.body.history.map((h: { kind: string }) => h.kind)).toEqual(['event', 'timer']);
    const health = await admin.get('/api/health');
    expect(health.body.processes).toMatchObject({ runtime: 'embedded', active: true, deadLetter: 0 });
  });
});
