import {
  effectiveLevel,
  EventRegistry,
  indexGrants,
  teamDecider,
  teamEventDefinitions,
  teamInviteStreamName,
  teamStreamName,
  userEventDefinitions,
  type TeamCommand,
  type TeamEvent,
  type TeamInviteEvent,
  type TeamState,
} from '@axel/domain';
import { eventStoreMigrations, expected, newId, PostgresEventStore } from '@axel/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testMetadata } from '../../../platform/src/eventstore/eventstore.contract';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { projectionMigrations } from '../runner/checkpoints';
import { liveTables } from '../runner/projection';
import { rebuildProjection } from '../runner/rebuild';
import { ProjectionRunner } from '../runner/runner';
import { usersProjection } from '../users/users.projection';
import { teamsProjection } from './teams.projection';
import { grantsOn, personInTeam, teamMember, teamMembersPage, teamsOf } from './teams.queries';

const registry = new EventRegistry().register(...teamEventDefinitions, ...userEventDefinitions);
const metadata = { now: new Date('2026-11-01T00:00:00Z') };
const OWNER = 'owner-1';
const TEAM = 'team-1';

describe('the teams read model', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let runner: ProjectionRunner;
  let state: TeamState = teamDecider.initialState();

  const append = async (stream: string, events: readonly (TeamEvent | TeamInviteEvent)[]) =>
    store.append(
      stream,
      events.map((e) => ({ id: newId(), type: e.type, data: e.data, schemaVersion: 1, metadata: testMetadata() })),
      expected.any,
    );
  /** Decides a command on the team as the command path would, and stores what it decided. */
  const run = async (command: Omit<TeamCommand, 'metadata'>) => {
    const events = teamDecider.decide({ ...command, metadata } as TeamCommand, state);
    state = events.reduce(teamDecider.evolve, state);
    const r = await append(teamStreamName(TEAM), events);
    await runner.waitFor(r.position, { timeoutMs: 5000 });
  };
  const owner = { userId: OWNER };

  beforeAll(async () => {
    db = await createTestDatabase([...eventStoreMigrations, ...projectionMigrations]);
    store = new PostgresEventStore({ pool: db.pool, connectionString: db.url });
    runner = new ProjectionRunner({ pool: db.pool, store, registry, projections: [teamsProjection, usersProjection] });
    await runner.start();

    await run({ type: 'CreateTeam', data: { teamId: TEAM, ownerId: OWNER, planKind: 'team' } });
    await append(teamInviteStreamName('inv-1'), [{ type: 'TeamInviteIssued', data: { teamId: TEAM, email: 'zoe@example.org', tokenHash: 'h1' } }]);
    await append(teamInviteStreamName('inv-2'), [{ type: 'TeamInviteIssued', data: { teamId: TEAM, email: 'adam@example.org', tokenHash: 'h2' } }]);
    await run({
      type: 'InviteMembers',
      data: {
        actor: owner,
        invitees: [
          { memberId: 'm1', inviteId: 'inv-1', emailKey: 'k1', account: null },
          { memberId: 'm2', inviteId: 'inv-2', emailKey: 'k2', account: null },
        ],
        quotaBytes: 5_000_000_000,
        seatLimit: 5,
      },
    });
    const account = { active: true, planKind: 'basic' as const, onTrial: false, ownsTeam: false, teamId: null };
    await run({
      type: 'JoinTeam',
      data: { account: { ...account, userId: 'user-2' }, emailKey: 'k2', via: { kind: 'invite', inviteId: 'inv-2' }, seatLimit: 5 },
    });
    await append(teamInviteStreamName('inv-2'), [{ type: 'TeamInviteClosed', data: { outcome: 'accepted' } }]);
    await run({ type: 'CreateInviteLink', data: { actor: owner, linkId: 'l1', tokenHash: 'lh', quotaBytes: 0 } });
    await run({
      type: 'JoinTeam',
      data: { account: { ...account, userId: 'user-3' }, emailKey: 'k3', via: { kind: 'link', linkId: 'l1', memberId: 'm3' }, seatLimit: 5 },
    });
    await run({ type: 'SetMemberRole', data: { actor: owner, memberId: 'm3', role: 'co_admin_member' } });
    await run({ type: 'CreateGroup', data: { actor: owner, groupId: 'g1', name: 'Design' } });
    await run({ type: 'SetGroupMembers', data: { actor: owner, groupId: 'g1', memberIds: ['m2'] } });
    await run({
      type: 'SetItemPermissions',
      data: { actor: owner, storageId: 's1', path: ['top'], grants: [{ principal: { kind: 'group', id: 'g1' }, level: 'view' }] },
    });
    await run({
      type: 'SetItemPermissions',
      data: { actor: owner, storageId: 's1', path: ['top', 'sub'], grants: [{ principal: { kind: 'user', id: 'user-2' }, level: 'full' }] },
    });
    const head = await store.headPosition();
    await runner.waitFor(head, { timeoutMs: 5000 });
  });
  afterAll(async () => {
    await runner?.stop();
    await store?.close();
    await db?.drop();
  });

  it('lists members in the spec order: admin, co-admin, joined, then pending, with a pending invite’s address', async () => {
    const { rows, total } = await teamMembersPage(db.pool, TEAM, { limit: 50, offset: 0 });
    expect(total).toBe(4);
    expect(rows.map((r) => [r.member_id, r.role, r.status])).toEqual([
      [OWNER, 'admin', 'joined'],
      ['m3', 'co_admin_member', 'joined'],
      ['m2', 'member', 'joined'],
      ['m1', 'member', 'pending'],
    ]);
    expect(rows.find((r) => r.member_id === 'm1')?.email).toBe('zoe@example.org');
    // the accepted invite's address is gone with its stream's answer (a joined member's comes from `users`)
    expect(rows.find((r) => r.member_id === 'm2')?.email).toBeNull();
    expect(rows.find((r) => r.member_id === 'm2')?.group_ids).toEqual(['g1']);
    expect((await teamMembersPage(db.pool, TEAM, { limit: 2, offset: 2 })).rows.map((r) => r.member_id)).toEqual(['m2', 'm1']);
  });

  it('reads one member by member id or by account id, the same row the page shows, and nothing for another team or a stranger', async () => {
    const page = (await teamMembersPage(db.pool, TEAM, { limit: 50, offset: 0 })).rows;
    expect(await teamMember(db.pool, TEAM, { memberId: 'm2' })).toEqual(page.find((r) => r.member_id === 'm2'));
    expect(await teamMember(db.pool, TEAM, { userId: 'user-3' })).toEqual(page.find((r) => r.member_id === 'm3'));
    expect((await teamMember(db.pool, TEAM, { memberId: 'm1' }))?.email).toBe('zoe@example.org');
    expect(await teamMember(db.pool, TEAM, { userId: 'stranger' })).toBeUndefined();
    expect(await teamMember(db.pool, 'team-other', { memberId: 'm2' })).toBeUndefined();
  });

  it('answers the teams a person is in, and their standing, for the permission function', async () => {
    expect((await teamsOf(db.pool, 'user-2')).map((t) => [t.id, t.role])).toEqual([[TEAM, 'member']]);
    expect((await teamsOf(db.pool, OWNER)).map((t) => [t.id, t.role, t.plan_kind])).toEqual([[TEAM, 'admin', 'team']]);
    expect(await teamsOf(db.pool, 'stranger')).toEqual([]);
    const member = await personInTeam(db.pool, TEAM, 'user-2');
    expect(member).toMatchObject({ role: 'member', status: 'joined', groupIds: ['g1'] });
    const grants = indexGrants(await grantsOn(db.pool, ['top', 'sub']));
    expect(effectiveLevel(['top'], member!, grants)).toMatchObject({ level: 'view', from: { kind: 'grant', itemId: 'top' } });
    expect(effectiveLevel(['top', 'sub'], member!, grants)).toMatchObject({ level: 'full', from: { kind: 'grant', itemId: 'sub' } });
    // the read model agrees with the decider's own state
    expect(indexGrants(await grantsOn(db.pool, ['top', 'sub']))).toEqual(indexGrants(state.status === 'none' ? [] : state.grants));
  });

  it('takes a removed member’s grants and groups away, and rebuilds to the very same rows', async () => {
    await run({ type: 'RemoveMember', data: { actor: owner, memberId: 'm2' } });
    expect(await grantsOn(db.pool, ['sub'])).toEqual([]);
    expect(await personInTeam(db.pool, TEAM, 'user-2')).toBeUndefined();

    const rows = async () => {
      const out: Record<string, unknown[]> = {};
      for (const table of Object.values(liveTables(teamsProjection))) out[table] = (await db.pool.query(`select * from "${table}" order by 1, 2`)).rows;
      return out;
    };
    const before = await rows();
    expect(before.team_members!.length).toBe(3);
    await rebuildProjection({ pool: db.pool, store, registry, projection: teamsProjection });
    expect(await rows()).toEqual(before);
  });
});
