import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import type { InviteeAccount, TeamActor, TeamCommand } from './teams.commands';
import { teamDecider } from './teams.decide';
import type { TeamEvent } from './teams.events';
import { seatsTaken, type ExistingTeam, type TeamState } from './teams.state';

/*
 * Whatever the admin, co-admins, members and strangers ask, in any order, with any seat limits:
 * - an accepted invite or join never leaves more members (pending included) than the seat limit it was decided with;
 * - the plan owner is the only admin, always a member, never removed, suspended or demoted;
 * - a person is a member at most once, an address is invited at most once;
 * - only the admin ever makes or unmakes a co-admin, and only a joined co-admin or the admin manage;
 * - grants name only current members and groups: removing either takes its grants away;
 * - the state folded from the decided events is the state the decider decided on (evolve agrees with decide).
 */

const metadata = { now: new Date('2026-11-01T00:00:00Z') };
const OWNER = 'u0';
const people = ['u0', 'u1', 'u2', 'u3', 'u4', 'u5'];
const emails = ['e1', 'e2', 'e3', 'e4', 'e5', 'e0'];
/** Mostly the owner, so that sequences get far; the others test who may manage. */
const actor: fc.Arbitrary<TeamActor> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ userId: OWNER }) },
  { weight: 2, arbitrary: fc.constantFrom(...people).map((userId) => ({ userId })) },
);
const account = (userId: string): fc.Arbitrary<InviteeAccount | null> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.constant({ userId, active: true, planKind: 'basic' as const, onTrial: false, ownsTeam: false, teamId: null }) },
    fc.record({
      userId: fc.constant(userId),
      active: fc.boolean(),
      planKind: fc.constantFrom('basic' as const, 'basic' as const, 'starter' as const, 'team' as const),
      onTrial: fc.boolean(),
      ownsTeam: fc.boolean(),
      teamId: fc.constantFrom(null, null, 't1', 't2'),
    }),
  );
const emailOf = (userId: string) => emails[people.indexOf(userId) - 1] ?? 'e0';
const personIndex = fc.integer({ min: 1, max: people.length - 1 });
const memberId = fc.oneof(
  fc.constantFrom(OWNER),
  personIndex.map((i) => `m${i}`),
);
const seatLimit = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 2, max: 5 }) }, fc.integer({ min: 0, max: 1 }));

const command: fc.Arbitrary<TeamCommand> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('InviteMembers' as const),
      data: fc.record({
        actor,
        invitees: fc
          .uniqueArray(personIndex, { maxLength: 3 })
          .chain((is) =>
            fc.tuple(...is.map((i) => account(people[i]!).map((acc) => ({ memberId: `m${i}`, inviteId: `i${i}`, emailKey: emails[i - 1]!, account: acc })))),
          ),
        quotaBytes: fc.constantFrom(0, 1_000_000_000),
        seatLimit,
      }),
      metadata: fc.constant(metadata),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constant('JoinTeam' as const),
      data: personIndex.chain((i) =>
        fc.record({
          account: fc.record({
            userId: fc.constant(people[i]!),
            active: fc.constantFrom(true, true, true, false),
            planKind: fc.constantFrom('basic' as const, 'basic' as const, 'starter' as const),
            onTrial: fc.boolean(),
            ownsTeam: fc.constant(false),
            teamId: fc.constantFrom(null, null, null, 't2'),
          }),
          emailKey: fc.constant(emailOf(people[i]!)),
          via: fc.oneof(
            { weight: 3, arbitrary: fc.constant({ kind: 'invite' as const, inviteId: `i${i}` }) },
            personIndex.map((j) => ({ kind: 'invite' as const, inviteId: `i${j}` })),
            fc.constantFrom('l1', 'l2').map((linkId) => ({ kind: 'link' as const, linkId, memberId: `m${i}` })),
          ),
          seatLimit,
        }),
      ),
      metadata: fc.constant(metadata),
    }),
  },
  fc.record({
    type: fc.constant('CreateInviteLink' as const),
    data: fc.record({ actor, linkId: fc.constantFrom('l1', 'l2'), tokenHash: fc.constant('h'), quotaBytes: fc.constant(0) }),
    metadata: fc.constant(metadata),
  }),
  fc.record({
    type: fc.constant('RevokeInviteLink' as const),
    data: fc.record({ actor, linkId: fc.constantFrom('l1', 'l2') }),
    metadata: fc.constant(metadata),
  }),
  ...(['RemoveMember', 'SuspendMember', 'UnsuspendMember'] as const).map((type) =>
    fc.record({ type: fc.constant(type), data: fc.record({ actor, memberId }), metadata: fc.constant(metadata) }),
  ),
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('SetMemberRole' as const),
      data: fc.record({ actor, memberId, role: fc.constantFrom('co_admin_member' as const, 'member' as const) }),
      metadata: fc.constant(metadata),
    }),
  },
  fc.record({
    type: fc.constant('SetMemberQuota' as const),
    data: fc.record({ actor, memberId, quotaBytes: fc.constantFrom(0, 5, 1_000_000_000) }),
    metadata: fc.constant(metadata),
  }),
  fc.record({
    type: fc.constant('CreateGroup' as const),
    data: fc.record({ actor, groupId: fc.constantFrom('g1', 'g2'), name: fc.constantFrom('Design', 'design', 'Sales', '  ') }),
    metadata: fc.constant(metadata),
  }),
  fc.record({ type: fc.constant('DeleteGroup' as const), data: fc.record({ actor, groupId: fc.constantFrom('g1', 'g2') }), metadata: fc.constant(metadata) }),
  fc.record({
    type: fc.constant('SetGroupMembers' as const),
    data: fc.record({
      actor,
      groupId: fc.constantFrom('g1', 'g2'),
      memberIds: fc.oneof({ weight: 4, arbitrary: fc.subarray(['m1', 'm2', 'm3']) }, fc.subarray(['m1', OWNER])),
    }),
    metadata: fc.constant(metadata),
  }),
  fc.record({
    type: fc.constant('SetItemPermissions' as const),
    data: fc.record({
      actor,
      storageId: fc.constant('s1'),
      path: fc.constantFrom(['f0'], ['f0', 'f1']),
      grants: fc.array(
        fc.record({
          principal: fc.oneof(
            fc.constantFrom(...people).map((id) => ({ kind: 'user' as const, id })),
            fc.constantFrom('g1', 'g2').map((id) => ({ kind: 'group' as const, id })),
          ),
          level: fc.constantFrom('none' as const, 'view' as const, 'download' as const, 'full' as const),
        }),
        { maxLength: 3 },
      ),
    }),
    metadata: fc.constant(metadata),
  }),
);

const commands = fc.array(command, { minLength: 20, maxLength: 80 });
/** Sequences long enough that members join, become co-admins and leave in most runs. */
const check = (property: fc.IProperty<[TeamCommand[]]>) => fc.assert(property, { numRuns: 120 });
const created: TeamEvent = { type: 'TeamCreated', data: { teamId: 't1', ownerId: OWNER, planKind: 'team' } };

const run = (commands: readonly TeamCommand[], check: (before: ExistingTeam, cmd: TeamCommand, events: TeamEvent[], after: ExistingTeam) => void) => {
  let state: TeamState = teamDecider.evolve(teamDecider.initialState(), created);
  for (const cmd of commands) {
    let events: TeamEvent[] = [];
    try {
      events = teamDecider.decide(cmd, state);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      continue;
    }
    const before = state as ExistingTeam;
    state = events.reduce(teamDecider.evolve, state);
    check(before, cmd, events, state as ExistingTeam);
  }
  return state as ExistingTeam;
};

describe('teams', () => {
  it('an accepted invite or join never takes more seats than the limit it was decided with', () => {
    check(
      fc.property(commands, (commands) => {
        run(commands, (before, cmd, events, after) => {
          const joinedNew = events.some((e) => e.type === 'TeamMemberInvited' || (e.type === 'TeamMemberJoined' && !before.members[e.data.memberId]));
          if (joinedNew && (cmd.type === 'InviteMembers' || cmd.type === 'JoinTeam')) expect(seatsTaken(after)).toBeLessThanOrEqual(cmd.data.seatLimit);
        });
      }),
    );
  });

  it('the owner is the only admin and stays a joined member', () => {
    check(
      fc.property(commands, (commands) => {
        run(commands, (_b, _c, _e, after) => {
          const admins = Object.values(after.members).filter((m) => m.role === 'admin');
          expect(admins).toHaveLength(1);
          expect(admins[0]).toMatchObject({ userId: OWNER, status: 'joined' });
        });
      }),
    );
  });

  it('a person is a member once, an address is invited once, and grants name only current members and groups', () => {
    check(
      fc.property(commands, (commands) => {
        run(commands, (_b, _c, _e, after) => {
          const members = Object.values(after.members);
          const userIds = members.flatMap((m) => (m.userId ? [m.userId] : []));
          expect(new Set(userIds).size).toBe(userIds.length);
          const keys = members.flatMap((m) => (m.emailKey ? [m.emailKey] : []));
          expect(new Set(keys).size).toBe(keys.length);
          for (const g of after.grants) {
            if (g.principal.kind === 'group') expect(after.groups[g.principal.id]).toBeDefined();
            else expect(userIds).toContain(g.principal.id);
          }
          for (const group of Object.values(after.groups)) for (const id of group.memberIds) expect(after.members[id]).toBeDefined();
        });
      }),
    );
  });

  it('only the admin makes or unmakes a co-admin; only the admin or a joined co-admin changes anything', () => {
    check(
      fc.property(commands, (commands) => {
        run(commands, (before, cmd, events) => {
          if (events.length === 0 || cmd.type === 'JoinTeam') return;
          const by = (cmd.data as { actor?: TeamActor }).actor?.userId;
          const standing = Object.values(before.members).find((m) => m.userId === by);
          const isManager = by === OWNER || (standing?.role === 'co_admin_member' && standing.status === 'joined');
          expect(isManager).toBe(true);
          if (events.some((e) => e.type === 'TeamMemberRoleChanged')) expect(by).toBe(OWNER);
        });
      }),
    );
  });
});

describe('teams, by example', () => {
  const team = teamDecider.evolve(teamDecider.initialState(), created);
  const invite = (emailKey: string, acc: InviteeAccount | null, seat = 5): TeamCommand => ({
    type: 'InviteMembers',
    data: { actor: { userId: OWNER }, invitees: [{ memberId: 'm1', inviteId: 'i1', emailKey, account: acc }], quotaBytes: 0, seatLimit: seat },
    metadata,
  });
  const acc = (over: Partial<InviteeAccount>): InviteeAccount => ({
    userId: 'u1',
    active: true,
    planKind: 'basic',
    onTrial: false,
    ownsTeam: false,
    teamId: null,
    ...over,
  });
  it.each([
    ['yourself', acc({ userId: OWNER }), 'MEMBER_OWN_EMAIL'],
    ['a member of another team', acc({ teamId: 't2' }), 'MEMBER_OF_ANOTHER_TEAM'],
    ['an owner of a plan with members', acc({ ownsTeam: true }), 'INVITEE_PLAN_OWNER'],
    ['an inactive user', acc({ active: false }), 'MEMBER_INACTIVE_USER'],
    ['someone on a higher plan', acc({ planKind: 'starter' }), 'INVITEE_HIGHER_PLAN'],
  ])('refuses %s', (_what, who, code) => {
    expect(() => teamDecider.decide(invite('e1', who), team)).toThrowError(expect.objectContaining({ code }));
  });
  it('accepts someone with no account, on Basic, or on a trial of a higher plan', () => {
    expect(teamDecider.decide(invite('e1', null), team)).toHaveLength(1);
    expect(teamDecider.decide(invite('e1', acc({})), team)).toHaveLength(1);
    expect(teamDecider.decide(invite('e1', acc({ planKind: 'professional', onTrial: true })), team)).toHaveLength(1);
  });
  it('refuses an invite past the seats', () => {
    expect(() => teamDecider.decide(invite('e1', null, 0), team)).toThrowError(expect.objectContaining({ code: 'MEMBER_LIMIT' }));
  });
  it('a revoked invite link says so', () => {
    const withLink = [
      { type: 'TeamInviteLinkCreated', data: { linkId: 'l1', tokenHash: 'h', quotaBytes: 0 } },
      { type: 'TeamInviteLinkRevoked', data: { linkId: 'l1' } },
    ].reduce((s, e) => teamDecider.evolve(s, e as TeamEvent), team);
    const join: TeamCommand = {
      type: 'JoinTeam',
      data: { account: acc({}), emailKey: 'e1', via: { kind: 'link', linkId: 'l1', memberId: 'm1' }, seatLimit: 5 },
      metadata,
    };
    expect(() => teamDecider.decide(join, withLink)).toThrowError(expect.objectContaining({ code: 'INVITE_REVOKED' }));
  });
});

describe('teams, who may do what', () => {
  const base: TeamEvent[] = [
    created,
    { type: 'TeamMemberInvited', data: { memberId: 'm1', inviteId: 'i1', emailKey: 'e1', quotaBytes: 0, invitedBy: OWNER } },
    { type: 'TeamMemberJoined', data: { memberId: 'm1', userId: 'u1', via: 'invite', quotaBytes: 0 } },
    { type: 'TeamMemberInvited', data: { memberId: 'm2', inviteId: 'i2', emailKey: 'e2', quotaBytes: 0, invitedBy: OWNER } },
    { type: 'TeamMemberJoined', data: { memberId: 'm2', userId: 'u2', via: 'invite', quotaBytes: 0 } },
    { type: 'TeamMemberRoleChanged', data: { memberId: 'm1', role: 'co_admin_member' } },
    { type: 'TeamGroupCreated', data: { groupId: 'g1', name: 'Design' } },
    {
      type: 'TeamItemPermissionsSet',
      data: {
        storageId: 's1',
        itemId: 'f0',
        grants: [
          { principal: { kind: 'user', id: 'u2' }, level: 'view' },
          { principal: { kind: 'group', id: 'g1' }, level: 'download' },
        ],
      },
    },
  ];
  const state = () => base.reduce(teamDecider.evolve, teamDecider.initialState()) as ExistingTeam;
  it('a co-admin manages members but cannot make another co-admin', () => {
    const role: TeamCommand = { type: 'SetMemberRole', data: { actor: { userId: 'u1' }, memberId: 'm2', role: 'co_admin_member' }, metadata };
    expect(() => teamDecider.decide(role, state())).toThrowError(expect.objectContaining({ code: 'TEAM_OWNER_REQUIRED' }));
    const suspend: TeamCommand = { type: 'SuspendMember', data: { actor: { userId: 'u1' }, memberId: 'm2' }, metadata };
    expect(teamDecider.decide(suspend, state())).toEqual([{ type: 'TeamMemberSuspended', data: { memberId: 'm2' } }]);
  });
  it('a member cannot manage, and nobody changes the admin', () => {
    const byMember: TeamCommand = { type: 'SuspendMember', data: { actor: { userId: 'u2' }, memberId: 'm1' }, metadata };
    expect(() => teamDecider.decide(byMember, state())).toThrowError(expect.objectContaining({ code: 'TEAM_ADMIN_REQUIRED' }));
    const admin: TeamCommand = { type: 'RemoveMember', data: { actor: { userId: 'u1' }, memberId: OWNER }, metadata };
    expect(() => teamDecider.decide(admin, state())).toThrowError(expect.objectContaining({ code: 'MEMBER_IS_ADMIN' }));
  });
  it('removing a member or a group takes away its grants', () => {
    const remove: TeamCommand = { type: 'RemoveMember', data: { actor: { userId: OWNER }, memberId: 'm2' }, metadata };
    const afterRemove = teamDecider.decide(remove, state()).reduce(teamDecider.evolve, state() as TeamState) as ExistingTeam;
    expect(afterRemove.grants.map((g) => g.principal)).toEqual([{ kind: 'group', id: 'g1' }]);
    const del: TeamCommand = { type: 'DeleteGroup', data: { actor: { userId: OWNER }, groupId: 'g1' }, metadata };
    const afterDelete = teamDecider.decide(del, state()).reduce(teamDecider.evolve, state() as TeamState) as ExistingTeam;
    expect(afterDelete.grants.map((g) => g.principal)).toEqual([{ kind: 'user', id: 'u2' }]);
  });
});
