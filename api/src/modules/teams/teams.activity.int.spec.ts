import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { useTestApp } from '../../testing/harness';
import { MemoryBytes } from '../files/storage.testing';

const bytes = new MemoryBytes();
const t = useTestApp({ env: { RATE_LIMIT_FACTOR: '20' }, bytes: { uploads: bytes, content: bytes } });
const { uniqueEmail, signedInUser, lastMail, linkIn, buyPlan } = accountHelpers(t);

interface Entry {
  type: string;
  sourcePath: string | null;
  destinationPath: string | null;
  actorId: string | null;
  actorEmail: string | null;
  memberId: string | null;
  at: string;
}

/** A Group owner with a Reports folder the joined member may edit. */
const team = async () => {
  const owner = await signedInUser(uniqueEmail('owner'));
  await buyPlan(owner.http, owner.id, 300);
  const member = await signedInUser(uniqueEmail('member'));
  expect((await owner.http.post(`/api/teams/${owner.id}/invites/`, { emails: member.email })).status).toBe(201);
  const token = linkIn((await lastMail(member.email, 'You are invited to join a team on AXEL Drive')).text, '[?&]invite=').split('&')[0]!;
  expect((await member.http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`)).status).toBe(200);
  const ownerBase = `/api/users/${owner.id}/storages/${owner.storageId}`;
  const reports = (await owner.http.post(`${ownerBase}/items/`, { label: 'folder', name: 'Reports' })).body.id as string;
  expect((await owner.http.put(`${ownerBase}/items/${reports}/permissions/`, { grants: [{ userId: member.id, level: 'edit' }] })).status).toBe(200);
  const members = (await owner.http.get(`/api/teams/${owner.id}/members/`)).body.data as { memberId: string; userId: string }[];
  const memberId = members.find((m) => m.userId === member.id)!.memberId;
  const activity = async (query = '') => {
    const res = await owner.http.get(`/api/teams/${owner.id}/activity/${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { data: Entry[]; total: number; page: number; pageSize: number };
  };
  return { owner, member, memberId, ownerBase, memberBase: `/api/users/${member.id}/storages/${owner.storageId}`, reports, activity };
};

describe('team activity log', () => {
  it('lists what the owner and a member did in the team storage, newest first, with the paths of the time and who', async () => {
    const s = await team();
    const draft = await s.member.http.post(`${s.memberBase}/folders/${s.reports}/items/`, { label: 'folder', name: 'Draft' });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    expect((await s.member.http.patch(`${s.memberBase}/items/${draft.body.id}/`, { name: 'Final' })).status).toBe(200);
    expect((await s.owner.http.patch(`${s.ownerBase}/items/${s.reports}/`, { name: 'Reports 2026' })).status).toBe(200);

    const log = await s.activity();
    expect(log.pageSize).toBe(50);
    expect(log.data.map((e) => [e.type, e.sourcePath, e.destinationPath, e.actorEmail])).toEqual([
      ['renamed', '/Reports', '/Reports 2026', s.owner.email],
      ['renamed', '/Reports/Draft', '/Reports/Final', s.member.email],
      ['created', null, '/Reports/Draft', s.member.email],
      ['created', null, '/Reports', s.owner.email],
      ['member_joined', null, null, s.member.email],
    ]);
    expect(log.data.find((e) => e.type === 'member_joined')?.memberId).toBe(s.memberId);
    expect(Number.isNaN(Date.parse(log.data[0]!.at))).toBe(false);
  });

  it('filters by type, member and time, and pages by 50', async () => {
    const s = await team();
    expect((await s.owner.http.patch(`${s.ownerBase}/items/${s.reports}/`, { name: 'Renamed' })).status).toBe(200);
    const mine = await s.member.http.post(`${s.memberBase}/folders/${s.reports}/items/`, { label: 'folder', name: 'Mine' });
    expect(mine.status).toBe(201);

    expect((await s.activity('?type=renamed')).data.map((e) => e.destinationPath)).toEqual(['/Renamed']);
    expect((await s.activity(`?memberId=${s.memberId}`)).data.map((e) => [e.type, e.destinationPath])).toEqual([
      ['created', '/Renamed/Mine'],
      ['member_joined', null],
    ]);
    expect((await s.activity(`?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).total).toBe(0);
    expect((await s.activity(`?to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).total).toBe(4);

    for (let i = 0; i < 50; i++) expect((await s.owner.http.post(`${s.ownerBase}/items/`, { label: 'folder', name: `F${i}` })).status).toBe(201);
    const first = await s.activity();
    expect(first.total).toBe(54);
    expect(first.data).toHaveLength(50);
    expect(first.data[0]!.destinationPath).toBe('/F49');
    const second = await s.activity('?page=2');
    expect(second.data.map((e) => e.type)).toEqual(['created', 'renamed', 'created', 'member_joined']);
    expect((await s.owner.http.get(`/api/teams/${s.owner.id}/activity/?type=exploded`)).status).toBe(400);
  });

  it('is for the admin and co-admins: a member is refused, a stranger finds no team', async () => {
    const s = await team();
    const refused = await s.member.http.get(`/api/teams/${s.owner.id}/activity/`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('TEAM_ADMIN_REQUIRED');
    const stranger = await signedInUser();
    const missing = await stranger.http.get(`/api/teams/${s.owner.id}/activity/`);
    expect(missing.status).toBe(404);

    expect((await s.owner.http.patch(`/api/teams/${s.owner.id}/members/${s.memberId}/`, { role: 'co_admin_member' })).status).toBe(200);
    const asCoAdmin = await s.member.http.get(`/api/teams/${s.owner.id}/activity/`);
    expect(asCoAdmin.status).toBe(200);
    expect(asCoAdmin.body.data[0].type).toBe('member_role_changed');
  });
});
