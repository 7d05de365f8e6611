import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { useTestApp } from '../../testing/harness';

const t = useTestApp({ env: { RATE_LIMIT_FACTOR: '20' } });
const { uniqueEmail, signedInUser, lastMail, linkIn, buyPlan } = accountHelpers(t);

/** A Group owner and two people who joined their team. */
const teamOfThree = async () => {
  const owner = await signedInUser(uniqueEmail('owner'));
  await buyPlan(owner.http, owner.id, 300);
  const people = [await signedInUser(uniqueEmail('ann')), await signedInUser(uniqueEmail('bob'))];
  expect((await owner.http.post(`/api/teams/${owner.id}/invites/`, { emails: people.map((p) => p.email).join(' ') })).status).toBe(201);
  for (const p of people) {
    const token = linkIn((await lastMail(p.email, 'You are invited to join a team on AXEL Drive')).text, '[?&]invite=').split('&')[0]!;
    expect((await p.http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`)).status).toBe(200);
  }
  const members = (await owner.http.get(`/api/teams/${owner.id}/members/`)).body.data as { memberId: string; userId: string }[];
  const memberId = (userId: string) => members.find((m) => m.userId === userId)!.memberId;
  return { owner, ann: { ...people[0]!, memberId: memberId(people[0]!.id) }, bob: { ...people[1]!, memberId: memberId(people[1]!.id) } };
};

describe('managing members', () => {
  it('only the admin grants co-admin; a co-admin then manages members but not other co-admins or the admin', async () => {
    const { owner, ann, bob } = await teamOfThree();
    const member = (memberId: string) => `/api/teams/${owner.id}/members/${memberId}/`;

    expect((await ann.http.patch(member(bob.memberId), { quota: 3 })).body.code).toBe('TEAM_ADMIN_REQUIRED');
    const promoted = await owner.http.patch(member(ann.memberId), { role: 'co_admin_member' });
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(promoted.body).toMatchObject({ role: 'co_admin_member', status: 'joined' });
    expect((await ann.http.get(`/api/users/${ann.id}/member-role/`)).body).toMatchObject({
      teamId: owner.id,
      ownerId: owner.id,
      role: 'co_admin_member',
      isCoAdmin: true,
      freeSeats: 5,
    });

    const quota = await ann.http.patch(member(bob.memberId), { quota: 3, forbiddenActions: ['dropbox'] });
    expect(quota.body).toMatchObject({ quota: 3, quotaBytes: 3_000_000_000, forbiddenActions: ['dropbox'] });
    expect((await ann.http.patch(member(bob.memberId), { role: 'co_admin_member' })).body.code).toBe('TEAM_OWNER_REQUIRED');
    expect((await ann.http.patch(member(owner.id), { quota: 1 })).body.code).toBe('MEMBER_IS_ADMIN');
    // the member order puts the co-admin right after the admin
    const order = (await owner.http.get(`/api/teams/${owner.id}/members/`)).body.data.map((m: { role: string }) => m.role);
    expect(order).toEqual(['admin', 'co_admin_member', 'member']);
  });

  it('a suspended member has no quota to set; unsuspending gives access back; removing frees their team and seat', async () => {
    const { owner, bob } = await teamOfThree();
    const path = `/api/teams/${owner.id}/members/${bob.memberId}/`;
    expect((await owner.http.patch(path, { status: 'suspended' })).body.status).toBe('suspended');
    expect((await owner.http.patch(path, { quota: 2 })).body.code).toBe('QUOTA_WITHOUT_ACCESS');
    expect((await owner.http.patch(path, { status: 'joined' })).body.status).toBe('joined');
    expect((await owner.http.delete(path)).status).toBe(204);
    expect((await owner.http.get(`/api/teams/${owner.id}/members/`)).body.total).toBe(2);
    expect((await bob.http.get(`/api/users/${bob.id}/teams/`)).body).toEqual([]);
    expect((await bob.http.get(`/api/users/${bob.id}/member-role/`)).body).toMatchObject({ teamId: null, role: null, status: null });
    // free again: another team can take them
    const other = await signedInUser(uniqueEmail('other-owner'));
    await buyPlan(other.http, other.id, 300);
    expect((await other.http.post(`/api/teams/${other.id}/invites/`, { emails: bob.email })).status).toBe(201);
    expect((await owner.http.delete(path)).body.code).toBe('MEMBER_NOT_FOUND');
  });

  it('withdrawing a pending invite makes its link invalid', async () => {
    const owner = await signedInUser(uniqueEmail('owner'));
    await buyPlan(owner.http, owner.id, 300);
    const person = await signedInUser(uniqueEmail('pending'));
    const invited = await owner.http.post(`/api/teams/${owner.id}/invites/`, { emails: person.email });
    expect((await owner.http.delete(`/api/teams/${owner.id}/members/${invited.body.data[0].memberId}/`)).status).toBe(204);
    const token = linkIn((await lastMail(person.email, 'You are invited to join a team on AXEL Drive')).text, '[?&]invite=').split('&')[0]!;
    expect((await person.http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`)).body.code).toBe('INVITE_INVALID');
  });
});

describe('groups', () => {
  it('a name is required and unique; members are set; deleting a group takes its grants with it', async () => {
    const { owner, ann, bob } = await teamOfThree();
    const groups = `/api/teams/${owner.id}/groups/`;
    expect((await owner.http.post(groups, { name: '  ' })).body.code).toBe('GROUP_NAME_REQUIRED');
    const sales = await owner.http.post(groups, { name: 'Sales' });
    expect(sales.status).toBe(201);
    expect((await owner.http.post(groups, { name: 'sales' })).body.code).toBe('GROUP_NAME_IN_USE');
    const set = await owner.http.put(`${groups}${sales.body.id}/members/`, { memberIds: [ann.memberId, bob.memberId] });
    expect(set.body.memberIds.sort()).toEqual([ann.memberId, bob.memberId].sort());
    expect((await owner.http.patch(`${groups}${sales.body.id}/`, { name: 'Sales EU' })).body.name).toBe('Sales EU');
    expect((await owner.http.get(groups)).body).toEqual([expect.objectContaining({ id: sales.body.id, name: 'Sales EU' })]);
    expect((await ann.http.get(groups)).body.code).toBe('TEAM_ADMIN_REQUIRED');

    const folder = await owner.http.post(`/api/users/${owner.id}/storages/${owner.storageId}/items/`, { label: 'folder', name: 'Deals' });
    const perms = `/api/users/${owner.id}/storages/${owner.storageId}/items/${folder.body.id}/permissions/`;
    const granted = await owner.http.put(perms, { grants: [{ groupId: sales.body.id, level: 'download' }] });
    expect(granted.body.effective).toEqual(
      expect.arrayContaining([expect.objectContaining({ userId: bob.id, level: 'download', via: { kind: 'group', id: sales.body.id } })]),
    );
    expect((await owner.http.delete(`${groups}${sales.body.id}/`)).status).toBe(204);
    const after = await owner.http.get(perms);
    expect(after.body.grants).toEqual([]);
    expect(after.body.effective).toEqual(expect.arrayContaining([expect.objectContaining({ userId: bob.id, level: 'none' })]));
  });
});

describe('invite links', () => {
  it('anyone signed in joins through the link until it is revoked; a forged secret does not work', async () => {
    const owner = await signedInUser(uniqueEmail('owner'));
    await buyPlan(owner.http, owner.id, 300);
    const made = await owner.http.post(`/api/teams/${owner.id}/invite-links/`, { quota: 2 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const token = new URL(made.body.url as string).searchParams.get('invite')!;
    const forged = `${token.slice(0, token.lastIndexOf('.'))}.not-the-secret`;

    const first = await signedInUser(uniqueEmail('first'));
    expect((await first.http.post(`/api/team-invites/${encodeURIComponent(forged)}/accept`)).body.code).toBe('INVITE_INVALID');
    const joined = await first.http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body).toMatchObject({ teamId: owner.id, role: 'member', status: 'joined' });

    expect((await owner.http.delete(`/api/teams/${owner.id}/invite-links/${made.body.linkId}/`)).status).toBe(204);
    const second = await signedInUser(uniqueEmail('second'));
    expect((await second.http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`)).body.code).toBe('INVITE_REVOKED');
    const members = (await owner.http.get(`/api/teams/${owner.id}/members/`)).body.data as { email: string; quota: number }[];
    expect(members.map((m) => m.email)).toEqual([owner.email, first.email]);
    expect(members[1]!.quota).toBe(2);
  });
});

describe('the last seat', () => {
  /** A Group owner (five free seats) with four already taken by pending invites. */
  const ownerWithOneSeat = async () => {
    const owner = await signedInUser(uniqueEmail('owner'));
    await buyPlan(owner.http, owner.id, 300);
    const four = Array.from({ length: 4 }, () => uniqueEmail('seat')).join(',');
    expect((await owner.http.post(`/api/teams/${owner.id}/invites/`, { emails: four })).status).toBe(201);
    return owner;
  };
  const total = async (owner: Awaited<ReturnType<typeof ownerWithOneSeat>>) => (await owner.http.get(`/api/teams/${owner.id}/members/`)).body.total;

  it('goes to exactly one of two invites sent at once; the other is told the team is full and leaves nothing behind', async () => {
    const owner = await ownerWithOneSeat();
    const answers = await Promise.all([uniqueEmail('a'), uniqueEmail('b')].map((emails) => owner.http.post(`/api/teams/${owner.id}/invites/`, { emails })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)!.body.code).toBe('MEMBER_LIMIT');
    expect(await total(owner)).toBe(6);
  });

  // the link's join and the owner's invite, each started first once
  for (const first of ['join', 'invite'] as const) {
    it(`goes to exactly one of a link's join and an e-mail invite racing for it (${first} started first)`, async () => {
      const owner = await ownerWithOneSeat();
      const made = await owner.http.post(`/api/teams/${owner.id}/invite-links/`, {});
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const token = new URL(made.body.url as string).searchParams.get('invite')!;
      const joiner = await signedInUser(uniqueEmail('joiner'));
      const join = () => joiner.http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`);
      const invite = () => owner.http.post(`/api/teams/${owner.id}/invites/`, { emails: uniqueEmail('invitee') });
      const [j, i] = first === 'join' ? await Promise.all([join(), invite()]) : await Promise.all([invite(), join()]).then(([a, b]) => [b, a] as const);
      expect([j.status === 200, i.status === 201].filter(Boolean)).toHaveLength(1);
      expect((j.status === 200 ? i : j).body.code).toBe('MEMBER_LIMIT');
      expect(await total(owner)).toBe(6);
      // the loser's seat is not held: the joiner belongs to this team only if the join won
      const role = await joiner.http.get(`/api/users/${joiner.id}/member-role/`);
      expect(role.body.teamId ?? null).toBe(j.status === 200 ? owner.id : null);
    });
  }
});
