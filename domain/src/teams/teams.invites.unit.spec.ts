import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import { CommonErrors, DomainError } from '../shared/errors';
import type { TeamCommand } from './teams.commands';
import { teamDecider } from './teams.decide';
import type { TeamEvent, TeamInviteEvent } from './teams.events';
import { MAX_INVITE_EMAILS, parseInviteEmails, teamInviteDecider, type TeamInviteCommand } from './teams.invites';

describe('invite addresses', () => {
  it('splits by spaces, commas and semicolons, once each, lower-cased', () => {
    expect(parseInviteEmails(' Ann@Example.org, bob@example.org;carl@example.org  dora@example.org,ann@example.org ')).toEqual([
      'ann@example.org',
      'bob@example.org',
      'carl@example.org',
      'dora@example.org',
    ]);
  });
  it('refuses them all when one is invalid, naming it', () => {
    expect(() => parseInviteEmails('ann@example.org, not-an-address')).toThrowError(
      expect.objectContaining({ code: 'INVALID_EMAILS', data: { invalid: ['not-an-address'] } }),
    );
    expect(() => parseInviteEmails(' ,; ')).toThrowError(expect.objectContaining({ code: 'INVALID_EMAILS' }));
  });
  it('takes at most ten different addresses', () => {
    const ten = Array.from({ length: MAX_INVITE_EMAILS }, (_, i) => `p${i}@example.org`);
    expect(parseInviteEmails(ten.join(' '))).toHaveLength(10);
    expect(() => parseInviteEmails([...ten, 'p10@example.org'].join(';'))).toThrowError(expect.objectContaining({ code: 'TOO_MANY_EMAILS' }));
  });
  it('whatever separators join valid addresses, the same addresses come back', () => {
    const address = fc.tuple(fc.stringMatching(/^[a-z0-9]{1,8}$/), fc.stringMatching(/^[a-z]{1,8}$/)).map(([u, d]) => `${u}@${d}.org`);
    fc.assert(
      fc.property(
        fc.uniqueArray(address, { minLength: 1, maxLength: MAX_INVITE_EMAILS }),
        fc.array(fc.constantFrom(' ', ',', ';', ', ', ' ; ', '\n')),
        (emails, seps) => {
          const text = emails.map((e, i) => `${i ? (seps[i % Math.max(seps.length, 1)] ?? ' ') : ''}${e.toUpperCase()}`).join('');
          let parsed: string[] = [];
          try {
            parsed = parseInviteEmails(text);
          } catch (e) {
            if (e instanceof DomainError) throw new Error(`refused ${JSON.stringify(text)}: ${e.code}`);
            throw e;
          }
          expect(parsed).toEqual(emails);
        },
      ),
    );
  });
});

describe('an e-mail invite stream', () => {
  const now = new Date('2026-11-28T10:00:00Z');
  const run = (events: TeamInviteEvent[], command: Omit<TeamInviteCommand, 'metadata'>) =>
    teamInviteDecider.decide({ ...command, metadata: { now } } as TeamInviteCommand, fold(teamInviteDecider, events));
  const issued: TeamInviteEvent = { type: 'TeamInviteIssued', data: { teamId: 't1', email: 'ann@example.org', tokenHash: 'h1' } };

  it('is issued once: the same token again changes nothing, another token conflicts', () => {
    expect(run([], { type: 'IssueTeamInvite', data: { teamId: 't1', email: 'ann@example.org', tokenHash: 'h1' } })).toEqual([issued]);
    expect(run([issued], { type: 'IssueTeamInvite', data: { teamId: 't1', email: 'ann@example.org', tokenHash: 'h1' } })).toEqual([]);
    expect(() => run([issued], { type: 'IssueTeamInvite', data: { teamId: 't1', email: 'ann@example.org', tokenHash: 'h2' } })).toThrowError(
      expect.objectContaining({ code: CommonErrors.conflict.code }),
    );
  });
  it('closes once (the address is forgotten with it); closing an invite never issued is refused', () => {
    const closed: TeamInviteEvent = { type: 'TeamInviteClosed', data: { outcome: 'accepted' } };
    expect(run([issued], { type: 'CloseTeamInvite', data: { outcome: 'accepted' } })).toEqual([closed]);
    expect(run([issued, closed], { type: 'CloseTeamInvite', data: { outcome: 'withdrawn' } })).toEqual([]);
    expect(() => run([], { type: 'CloseTeamInvite', data: { outcome: 'withdrawn' } })).toThrowError(expect.objectContaining({ code: 'INVITE_INVALID' }));
  });
});

describe('a purged account and its team', () => {
  const now = new Date('2026-11-28T10:00:00Z');
  const run = (events: TeamEvent[], command: Omit<TeamCommand, 'metadata'>) =>
    teamDecider.decide({ ...command, metadata: { now } } as TeamCommand, fold(teamDecider, events));
  const created: TeamEvent = { type: 'TeamCreated', data: { teamId: 'o1', ownerId: 'o1', planKind: 'group' } };
  const joined: TeamEvent = { type: 'TeamMemberJoined', data: { memberId: 'm1', userId: 'u1', via: 'link', quotaBytes: 0 } };

  it('a purged member leaves whoever manages the team; the admin never does this way; twice is once', () => {
    const removed: TeamEvent = { type: 'TeamMemberRemoved', data: { memberId: 'm1', userId: 'u1' } };
    expect(run([created, joined], { type: 'DropPurgedMember', data: { userId: 'u1' } })).toEqual([removed]);
    expect(run([created, joined, removed], { type: 'DropPurgedMember', data: { userId: 'u1' } })).toEqual([]);
    expect(run([created], { type: 'DropPurgedMember', data: { userId: 'o1' } })).toEqual([]);
  });
  it("the owner's team forgets once", () => {
    const forgotten: TeamEvent = { type: 'TeamForgotten', data: { at: now.toISOString() } };
    expect(run([created], { type: 'ForgetTeam', data: {} })).toEqual([forgotten]);
    expect(run([created, forgotten], { type: 'ForgetTeam', data: {} })).toEqual([]);
    expect(run([], { type: 'ForgetTeam', data: {} })).toEqual([]);
  });
});
