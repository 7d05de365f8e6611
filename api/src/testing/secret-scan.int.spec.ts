import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from './accounts';
import { HttpClient, startTestApp, type TestApp } from './harness';
import { mailedTokens } from './secret-scan';

describe("every test file's event log is scanned for secrets when its product stops", () => {
  it('a stop finds a mailed token, a password or a secret-shaped value hidden in an event, names it, and still drops the database', async () => {
    let t: TestApp | undefined = await startTestApp({ env: { ADMIN_EMAIL: 'root@axel.test', ADMIN_PASSWORD: 'Root-pass-123', RATE_LIMIT_FACTOR: '10' } });
    const app = t;
    const { signUpConfirmed, lastMail } = accountHelpers(() => app);
    try {
      const { email } = await signUpConfirmed();
      expect((await new HttpClient(app.url).post('/api/password-resets/', { email })).status).toBe(202);
      const [token] = mailedTokens([(await lastMail(email, 'Reset your password')).text]);
      expect(token).toBeDefined();
      const hide = (data: unknown) =>
        app.app.ctx.pool.query(
          `select * from es_append($1, 'any', null, array[$2::uuid], array['NoteAdded'], array[1], array[$3::jsonb], array['{}'::jsonb])`,
          [`note-${randomUUID()}`, randomUUID(), JSON.stringify(data)],
        );
      await hide({ note: `see ${token}` });
      await hide({ nested: { admin: 'Root-pass-123' } });
      await hide({ key: 'sk_live_0123456789abcdef' });
      const stopping = t.stop();
      t = undefined;
      const error = (await stopping.then(
        () => null,
        (e: Error) => e,
      ))!;
      expect(error?.message).toContain('the event log holds secrets');
      expect(error.message.match(/NoteAdded at \d+ holds/g)).toHaveLength(3);
      expect(error.message).toContain('something shaped like');
      expect((await fetch(`${app.url}/api/health`).catch(() => null))?.ok ?? false).toBe(false);
      const { rows } = await app.db.pool.query('select 1').then(
        (r) => r,
        () => ({ rows: [] }),
      );
      expect(rows).toEqual([]);
    } finally {
      await t?.stop();
    }
  });
});
