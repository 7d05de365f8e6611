import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventRegistry, accountEventDefinitions, userDecider, userStreamName, type UserCommand } from '@axel/domain';
import { mailEvents, mailStream } from '@axel/domain/mail/mail.events';
import { PostgresEventStore, deterministicId, eventStoreMigrations, expected, handleCommand, loadState, metadataFor, newId } from '@axel/platform';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { EmbeddedProcessRuntime } from '../embedded/runtime';
import { workflowMigrations } from '../embedded/migrations';
import { ControlledClock } from '../runtime/clock';
import { routeCommands } from '../runtime/port';
import { waitFor } from '../runtime/runtime.contract';
import { silentLogger } from '../testing/embedded-harness';
import { ACCOUNT_DELETION_PROCESS, createAccountDeletionProcess, type RequestMailData } from './account-deletion.process';

const DAY = 24 * 60 * 60 * 1000;

describe('account deletion on the embedded runtime', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let runtime: EmbeddedProcessRuntime;
  const registry = new EventRegistry().register(...accountEventDefinitions, ...mailEvents);
  const clock = new ControlledClock(new Date('2026-04-01T10:00:00.000Z'));
  const deps = () => ({ store, registry });

  beforeAll(async () => {
    db = await createTestDatabase([...eventStoreMigrations, ...workflowMigrations]);
    store = new PostgresEventStore({ pool: db.pool, connectionString: db.url });
    // as the API's composition root does it: the same decider as the HTTP routes, ids from the key
    const dispatcher = routeCommands({
      user: async (command, ctx) => {
        const cmd = { type: command.type, data: command.data, metadata: { now: ctx.now } } as UserCommand;
        const result = await handleCommand(deps(), userDecider, userStreamName(command.aggregateId), cmd, ctx);
        return { position: result.position };
      },
      mail: async (command, ctx) => {
        const mail = command.data as RequestMailData;
        const mailId = deterministicId(ctx.idempotencyKey, 'mail');
        // the process names no address: the account's own is read when the mail is queued
        const to = mail.to ?? ((await loadState(deps(), userDecider, userStreamName(mail.userId))).state as { email: string }).email;
        const encoded = registry.encode({
          type: 'MailRequested',
          data: { mailId, to, template: mail.template, locale: mail.locale ?? 'en_us', sealedParams: JSON.stringify(mail.params), userId: mail.userId },
        });
        const result = await store.append(
          mailStream(mailId),
          [{ id: deterministicId(ctx.idempotencyKey, 'event'), ...encoded, metadata: metadataFor(ctx, ctx.now) }],
          expected.any,
        );
        return { position: result.position };
      },
    });
    runtime = new EmbeddedProcessRuntime({
      pool: db.pool,
      connectionString: db.url,
      store,
      registry,
      definitions: [createAccountDeletionProcess({ retentionDays: 30 })],
      dispatcher,
      clock,
      logger: silentLogger,
    });
    await runtime.start();
  });

  afterAll(async () => {
    await runtime?.stop();
    await store?.close();
    await db?.drop();
  });

  const run = (userId: string, type: UserCommand['type'], data: unknown, actor: { id: string; kind: 'user' | 'staff' }) =>
    handleCommand(deps(), userDecider, userStreamName(userId), { type, data, metadata: { now: clock.now() } } as UserCommand, {
      actorId: actor.id,
      actorKind: actor.kind,
      correlationId: newId(),
    });

  it('purges the account after the retention period, with the process as actor, and mails a confirmation', async () => {
    const userId = newId();
    await run(
      userId,
      'RegisterUser',
      {
        userId,
        email: 'grace@example.com',
        passwordHash: 'argon2-hash',
        locale: 'en_us',
        termsAccepted: false,
        registrationApp: null,
        userAgent: null,
        ip: null,
        createdByStaffId: 'staff-1',
      },
      { id: 'staff-1', kind: 'staff' },
    );
    const deletion = await run(userId, 'DeleteAccount', { by: 'staff', staffId: 'staff-1' }, { id: 'staff-1', kind: 'staff' });
    const deletedEvent = (await store.readStream(userStreamName(userId))).events.find((e) => e.type === 'AccountDeleted')!;
    expect(deletion.events.map((e) => e.type)).toEqual(['AccountDeleted']);

    const waiting = await waitFor(
      'the process to wait for the purge',
      () => runtime.getProcess(ACCOUNT_DELETION_PROCESS, userId),
      (p) => p?.nextTimer != null,
    );
    expect(waiting!.nextTimer).toEqual({ name: 'purge', at: new Date(clock.now().getTime() + 30 * DAY).toISOString() });

    await runtime.advanceTo(new Date(clock.now().getTime() + 29 * DAY));
    await runtime.whenIdle();
    expect((await store.readStream(userStreamName(userId))).events.map((e) => e.type)).not.toContain('AccountPurged');

    await runtime.advanceTo(new Date(clock.now().getTime() + 1 * DAY + 60_000));
    await waitFor(
      'completion',
      () => runtime.getProcess(ACCOUNT_DELETION_PROCESS, userId),
      (p) => p?.status === 'completed',
    );

    const purged = (await store.readStream(userStreamName(userId))).events.filter((e) => e.type === 'AccountPurged');
    expect(purged).toHaveLength(1);
    expect(purged[0]!.metadata).toMatchObject({
      actorKind: 'process',
      actorId: `${ACCOUNT_DELETION_PROCESS}:${userId}`,
      causationId: deletedEvent.id,
    });
    expect(purged[0]!.data).toEqual({ at: clock.now().toISOString() });

    const { rows: mails } = await db.pool.query<{ data: { to: string; template: string }; metadata: { actorId: string } }>(
      `select data, metadata from es_events where event_type = 'MailRequested' and data->>'userId' = $1`,
      [userId],
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.data).toMatchObject({ to: 'grace@example.com', template: 'account-purged' });
    expect(mails[0]!.metadata.actorId).toBe(`${ACCOUNT_DELETION_PROCESS}:${userId}`);
  });
});
