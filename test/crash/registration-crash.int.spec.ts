import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ABANDONED_RESERVATION_AFTER_MS } from '@axel/domain';
import { freePort } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../api/src/testing/accounts';
import type { TestApp } from '../../api/src/testing/harness';
import { createTestDatabase, type TestDatabase } from '../db';
import { dropAfterSecretScan } from '../scanned-drop';
import { exited, ProductProcess } from './product-process';

let db: TestDatabase;
let product: ProductProcess;
let port = 0;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'axel-crash-signup-'));
const startProduct = (env: Record<string, string> = {}) => product.start(env);
const stop = (proc: ChildProcess) => product.stop(proc);

const signUp = async (email: string) => {
  const res = await fetch(`http://127.0.0.1:${port}/api/users/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email, password: 'Secret-pass-1', passwordConfirmation: 'Secret-pass-1', termsAccepted: true }),
  });
  return { status: res.status, body: (await res.json()) as { code?: string; id?: string } };
};

beforeAll(async () => {
  db = await createTestDatabase();
  port = await freePort();
  product = new ProductProcess({
    databaseUrl: db.url,
    port,
    dataDir,
    env: { NODE_ENV: 'test', AXEL_FAILPOINT: '', AXEL_TEST_CLOCK_OFFSET_MS: '0' },
  });
});
afterAll(async () => {
  await product?.kill();
  await dropAfterSecretScan(db, product?.environment);
});

describe('crash: the product killed between the e-mail reservation and the account', () => {
  it('keeps the address for the in-flight window, then lets the next sign-up or e-mail change take it', async () => {
    const email = 'crashed.signup@example.com';
    const otherEmail = 'crashed.again@example.com';
    // a first start creates the staff account (itself a sign-up) before any failpoint is armed, and
    // an account that will later move to an abandoned address
    const first = await startProduct();
    const mover = accountHelpers(() => ({ url: `http://127.0.0.1:${port}` }) as TestApp);
    const { email: moverEmail, id: moverId } = await mover.signUpConfirmed();
    await stop(first);

    const abandonedHolders = async () =>
      (
        await db.pool.query<{ user_id: string }>(
          `select r.data->>'userId' as user_id from es_events r
           where r.event_type = 'EmailReserved'
             and not exists (select 1 from es_events u where u.stream_name = 'user-' || (r.data->>'userId') and u.event_type = 'UserRegistered')
           order by r.position`,
        )
      ).rows.map((r) => r.user_id);
    const crashSigningUp = async (address: string) => {
      const crashing = await startProduct({ AXEL_FAILPOINT: 'register:after-reserve' });
      await expect(signUp(address)).rejects.toThrow();
      await exited(crashing);
      expect(crashing.signalCode).toBe('SIGKILL');
    };
    await crashSigningUp(email);
    const [abandonedUserId] = await abandonedHolders();
    expect(abandonedUserId).toBeDefined();
    await crashSigningUp(otherEmail);
    expect(await abandonedHolders()).toHaveLength(2);

    // restarted at once: the reservation is younger than the window, as a sign-up in flight would be
    const restarted = await startProduct();
    const early = await signUp(email);
    expect(early).toMatchObject({ status: 409, body: { code: 'EMAIL_EXISTS', message: 'An account with this e-mail already exists' } });
    await stop(restarted);

    // the same data, its clock past the window
    await startProduct({ AXEL_TEST_CLOCK_OFFSET_MS: String(ABANDONED_RESERVATION_AFTER_MS + 5_000) });
    const late = await signUp(email);
    expect(late.status).toBe(201);
    expect(late.body.id).not.toBe(abandonedUserId);
    expect((await signUp(email)).body.code).toBe('EMAIL_EXISTS');

    const { rows: streams } = await db.pool.query<{ event_type: string; user_id: string }>(
      "select event_type, data->>'userId' as user_id from es_events where stream_name = (select stream_name from es_events where event_type = 'EmailReserved' and data->>'userId' = $1) order by position",
      [abandonedUserId],
    );
    expect(streams).toEqual([
      { event_type: 'EmailReserved', user_id: abandonedUserId },
      { event_type: 'EmailReleased', user_id: abandonedUserId },
      { event_type: 'EmailReserved', user_id: late.body.id },
    ]);

    // an existing account may move to the other abandoned address
    const { http } = await mover.signIn(moverEmail);
    expect((await http.put(`/api/users/${moverId}/email`, { newEmail: otherEmail, newEmailConfirmation: otherEmail, password: mover.PASSWORD })).status).toBe(
      202,
    );
    const token = mover.linkIn((await mover.lastMail(otherEmail)).text, '/change-email-confirmations/');
    expect((await http.post(`/api/change-email-confirmations/${token}`)).body).toEqual({ email: otherEmail });
    expect((await signUp(otherEmail)).body.code).toBe('EMAIL_EXISTS');
  }, 240_000);
});
