import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, useTestApp } from '../../testing/harness';

const t = useTestApp({ env: { RATE_LIMIT_FACTOR: '20' } });
const helpers = accountHelpers(t);
const { uniqueEmail, signedInUser, lastMail, linkIn, buyPlan } = helpers;

/** A Group plan owner (five free seats), signed in. */
const groupOwner = async () => {
  const owner = await signedInUser(uniqueEmail('owner'));
  await buyPlan(owner.http, owner.id, 300);
  return owner;
};

const inviteTokenOf = async (email: string) =>
  linkIn((await lastMail(email, 'You are invited to join a team on AXEL Drive')).text, '[?&]invite=').split('&')[0]!;

describe('teams, members and invites', () => {
  it('a Group owner has a team of their own; a Basic user has none; strangers cannot read its members', async () => {
    const owner = await groupOwner();
    const teams = await owner.http.get(`/api/users/${owner.id}/teams/`);
    expect(teams.status, JSON.stringify(teams.body)).toBe(200);
    expect(teams.body).toEqual([expect.objectContaining({ id: owner.id, ownerId: owner.id, plan: 'group', role: 'admin', status: 'open' })]);
    const members = await owner.http.get(`/api/teams/${owner.id}/members/`);
    expect(members.status).toBe(200);
    expect(members.body.data).toEqual([expect.objectContaining({ userId: owner.id, email: owner.email, role: 'admin', status: 'joined' })]);

    const basic = await signedInUser();
    expect((await basic.http.get(`/api/users/${basic.id}/teams/`)).body).toEqual([]);
    expect((await basic.http.get(`/api/users/${owner.id}/teams/`)).status).toBe(403);
    const stranger = await basic.http.get(`/api/teams/${owner.id}/members/`);
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe('TEAM_NOT_FOUND');
    expect((await basic.http.post(`/api/teams/${basic.id}/invites/`, { emails: 'a@example.org' })).body.code).toBe('TEAM_NOT_FOUND');
  });

  it('invites by e-mail: each person gets a mail with an invite link; accepting joins the team; the list shows them in the spec order', async () => {
    const owner = await groupOwner();
    const newcomer = uniqueEmail('newcomer');
    const existing = await signedInUser(uniqueEmail('existing'));
    const res = await owner.http.post(`/api/teams/${owner.id}/invites/`, { emails: `${newcomer}; ${existing.email.toUpperCase()}`, quota: 5 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.map((m: { email: string }) => m.email).sort()).toEqual([newcomer, existing.email].sort());

    const pending = await owner.http.get(`/api/teams/${owner.id}/members/`);
    expect(pending.body.data.map((m: { role: string; status: string }) => `${m.role}/${m.status}`)).toEqual([
      'admin/joined',
      'member/pending',
      'member/pending',
    ]);
    expect(pending.body.data[1].quota).toBe(5);

    // the existing account is sent to sign in, the new person to sign up, each link carrying `invite`
    const existingMail = await lastMail(existing.email, 'You are invited to join a team on AXEL Drive');
    expect(existingMail.text).toMatch(/\/signin\?invite=/);
    expect((await lastMail(newcomer, 'You are invited to join a team on AXEL Drive')).text).toMatch(/\/signup\?invite=/);

    // someone else cannot use the link
    const other = await signedInUser();
    const token = await inviteTokenOf(existing.email);
    const wrong = await other.http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`);
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('INVITE_FOR_OTHER_EMAIL');
    // and the refusal left the other person free to join a team later
    expect((await other.http.get(`/api/users/${other.id}/teams/`)).body).toEqual([]);

    const joined = await existing.http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body).toMatchObject({ teamId: owner.id, role: 'member', status: 'joined' });
    expect((await existing.http.get(`/api/users/${existing.id}/teams/`)).body).toEqual([expect.objectContaining({ id: owner.id, role: 'member' })]);
    // the link is spent
    expect((await existing.http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`)).body.code).toBe('INVITE_INVALID');

    const after = await owner.http.get(`/api/teams/${owner.id}/members/`);
    expect(after.body.data.map((m: { email: string; status: string }) => `${m.email}/${m.status}`)).toEqual([
      `${owner.email}/joined`,
      `${existing.email}/joined`,
      `${newcomer}/pending`,
    ]);
    // a member is not a manager
    expect((await existing.http.get(`/api/teams/${owner.id}/members/`)).body.code).toBe('TEAM_ADMIN_REQUIRED');
  });

  it("answers the spec's errors: invalid or too many addresses, yourself, already added, another team, a higher plan, over the seats", async () => {
    const owner = await groupOwner();
    const invite = (emails: string) => owner.http.post(`/api/teams/${owner.id}/invites/`, { emails });
    expect((await invite('good@example.org, not-an-address')).body).toMatchObject({ code: 'INVALID_EMAILS', data: { invalid: ['not-an-address'] } });
    expect((await invite(Array.from({ length: 11 }, (_, i) => `p${i}@example.org`).join(' '))).body.code).toBe('TOO_MANY_EMAILS');
    expect((await invite(owner.email)).body.code).toBe('MEMBER_OWN_EMAIL');

    const someone = uniqueEmail('someone');
    expect((await invite(someone)).status).toBe(201);
    const again = await invite(someone);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'MEMBER_ALREADY_ADDED', data: { email: someone } });

    const pro = await signedInUser(uniqueEmail('pro'));
    await buyPlan(pro.http, pro.id, 200);
    expect((await invite(pro.email)).body.code).toBe('INVITEE_HIGHER_PLAN');

    const otherOwner = await groupOwner();
    expect((await invite(otherOwner.email)).body.code).toBe('INVITEE_PLAN_OWNER');

    // a member of another team
    const taken = await signedInUser(uniqueEmail('taken'));
    expect((await otherOwner.http.post(`/api/teams/${otherOwner.id}/invites/`, { emails: taken.email })).status).toBe(201);
    expect((await taken.http.post(`/api/team-invites/${encodeURIComponent(await inviteTokenOf(taken.email))}/accept`)).status).toBe(200);
    expect((await invite(taken.email)).body.code).toBe('MEMBER_OF_ANOTHER_TEAM');

    // five free seats: one is taken, four more fit, the fifth is over
    const four = Array.from({ length: 4 }, () => uniqueEmail('seat')).join(',');
    expect((await invite(four)).status).toBe(201);
    const over = await invite(uniqueEmail('over'));
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('MEMBER_LIMIT');
    // nothing of a refused invite stays behind
    expect((await owner.http.get(`/api/teams/${owner.id}/members/`)).body.total).toBe(6);
  });

  it('a garbage invite token is invalid, and accepting needs a session', async () => {
    const someone = await signedInUser();
    expect((await someone.http.post('/api/team-invites/nope/accept')).body.code).toBe('INVITE_INVALID');
    expect((await new HttpClient(t().url).post('/api/team-invites/nope/accept')).status).toBe(401);
  });
});

describe('folder permissions', () => {
  it('grants on a folder are inherited below, cannot be lowered there, and each member is told where their level comes from', async () => {
    const owner = await groupOwner();
    const member = await signedInUser(uniqueEmail('member'));
    expect((await owner.http.post(`/api/teams/${owner.id}/invites/`, { emails: member.email })).status).toBe(201);
    expect((await member.http.post(`/api/team-invites/${encodeURIComponent(await inviteTokenOf(member.email))}/accept`)).status).toBe(200);

    const folder = await owner.http.post(`/api/users/${owner.id}/storages/${owner.storageId}/items/`, { label: 'folder', name: 'Reports' });
    expect(folder.status, JSON.stringify(folder.body)).toBe(201);
    const sub = await owner.http.post(`/api/users/${owner.id}/storages/${owner.storageId}/folders/${folder.body.id}/items/`, { label: 'folder', name: '2026' });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const perms = (itemId: string) => `/api/users/${owner.id}/storages/${owner.storageId}/items/${itemId}/permissions/`;

    const set = await owner.http.put(perms(folder.body.id), { grants: [{ userId: member.id, level: 'view' }] });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.grants).toEqual([{ userId: member.id, level: 'view' }]);

    const below = await owner.http.get(perms(sub.body.id));
    expect(below.body.inherited).toEqual([{ userId: member.id, level: 'view', from: folder.body.id }]);
    expect(below.body.effective).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ userId: owner.id, level: 'full', source: 'role' }),
        expect.objectContaining({ userId: member.id, level: 'view', from: folder.body.id, source: 'grant' }),
      ]),
    );
    // raising below is allowed, lowering an inherited grant is not
    const raised = await owner.http.put(perms(sub.body.id), { grants: [{ userId: member.id, level: 'full' }] });
    expect(raised.body.effective).toEqual(expect.arrayContaining([expect.objectContaining({ userId: member.id, level: 'full', from: sub.body.id })]));
    const lowered = await owner.http.put(perms(sub.body.id), { grants: [{ userId: member.id, level: 'none' }] });
    expect(lowered.status).toBe(409);
    expect(lowered.body.code).toBe('PERMISSION_INHERITED');

    // members cannot change permissions; people outside the team cannot see them
    expect((await member.http.put(`/api/users/${member.id}/storages/${owner.storageId}/items/${folder.body.id}/permissions/`, { grants: [] })).body.code).toBe(
      'TEAM_ADMIN_REQUIRED',
    );
    const stranger = await signedInUser();
    expect((await stranger.http.get(`/api/users/${stranger.id}/storages/${owner.storageId}/items/${folder.body.id}/permissions/`)).status).toBe(404);
    expect((await owner.http.put(perms(folder.body.id), { grants: [{ userId: stranger.id, level: 'view' }] })).body.code).toBe('MEMBER_NOT_FOUND');
  });
});
