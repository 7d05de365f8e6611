import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { useTestApp } from '../../testing/harness';
import { MemoryBytes } from '../files/storage.testing';

const bytes = new MemoryBytes();
const t = useTestApp({ env: { RATE_LIMIT_FACTOR: '20' }, bytes: { uploads: bytes, content: bytes } });
const { uniqueEmail, signedInUser, lastMail, linkIn, buyPlan } = accountHelpers(t);

/**
 * A Group owner's storage with Reports/2026/figures.txt and Private/secret.txt, and a member of the
 * team who reaches it through their own `/users/{id}/...` paths.
 */
const teamStorage = async () => {
  const owner = await signedInUser(uniqueEmail('owner'));
  await buyPlan(owner.http, owner.id, 300);
  const member = await signedInUser(uniqueEmail('member'));
  expect((await owner.http.post(`/api/teams/${owner.id}/invites/`, { emails: member.email })).status).toBe(201);
  const token = linkIn((await lastMail(member.email, 'You are invited to join a team on AXEL Drive')).text, '[?&]invite=').split('&')[0]!;
  expect((await member.http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`)).status).toBe(200);
  const ownerBase = `/api/users/${owner.id}/storages/${owner.storageId}`;
  const folder = async (name: string, parent?: string) =>
    (await owner.http.post(parent ? `${ownerBase}/folders/${parent}/items/` : `${ownerBase}/items/`, { label: 'folder', name })).body.id as string;
  const file = async (name: string, content: string, parent: string) => {
    const res = await owner.http.post(`${ownerBase}/folders/${parent}/items/`, {
      label: 'file',
      name,
      uploadId: bytes.upload(owner.id, owner.storageId, content),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  const reports = await folder('Reports');
  const y2026 = await folder('2026', reports);
  const figures = await file('figures.txt', 'the figures', y2026);
  const secret = await file('secret.txt', 'nobody else', await folder('Private'));
  const grant = (itemId: string, level: string) => owner.http.put(`${ownerBase}/items/${itemId}/permissions/`, { grants: [{ userId: member.id, level }] });
  const base = `/api/users/${member.id}/storages/${owner.storageId}`;
  const names = async (path: string) => {
    const res = await member.http.get(path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data as { name: string }[]).map((e) => e.name);
  };
  return { owner, member, base, reports, y2026, figures, secret, grant, names };
};

describe('team storage under folder permissions', () => {
  it('a member sees nothing without a grant, walks down to what a grant reaches, and sees all below a view grant', async () => {
    const s = await teamStorage();
    expect(await s.names(`${s.base}/items/`)).toEqual([]);
    expect((await s.member.http.get(`${s.base}/folders/${s.reports}/items/`)).body.code).toBe('FILE_NOT_ACCESSIBLE');

    // a grant deep down: the folders above it show, to walk down; nothing beside it does
    expect((await s.grant(s.y2026, 'view')).status).toBe(200);
    expect(await s.names(`${s.base}/items/`)).toEqual(['Reports']);
    expect(await s.names(`${s.base}/folders/${s.reports}/items/`)).toEqual(['2026']);
    expect(await s.names(`${s.base}/folders/${s.y2026}/items/`)).toEqual(['figures.txt']);
    expect((await s.member.http.get(`${s.base}/folders/${s.y2026}/parent/`)).status).toBe(200);
    expect((await s.member.http.get(`${s.base}/files/${s.figures}`)).body.name).toBe('figures.txt');
    expect((await s.member.http.get(`${s.base}/files/${s.secret}`)).body.code).toBe('FILE_NOT_ACCESSIBLE');
  });

  it('view lets a member look but not download; download lets them download but not rename; edit lets them rename and add', async () => {
    const s = await teamStorage();
    const source = `${s.base}/files/${s.figures}/sources/`;
    await s.grant(s.reports, 'view');
    const refused = await s.member.http.get(source);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FILE_NOT_ACCESSIBLE');

    await s.grant(s.reports, 'download');
    const got = await s.member.http.get(source);
    expect(got.status).toBe(200);
    expect(got.body).toBe('the figures');
    expect((await s.member.http.patch(`${s.base}/items/${s.figures}/`, { name: 'renamed.txt' })).body.code).toBe('FILE_NOT_ACCESSIBLE');
    expect((await s.member.http.post(`${s.base}/folders/${s.y2026}/items/`, { label: 'folder', name: 'Mine' })).body.code).toBe('FILE_NOT_ACCESSIBLE');

    await s.grant(s.reports, 'edit');
    expect((await s.member.http.patch(`${s.base}/items/${s.figures}/`, { name: 'renamed.txt' })).body.name).toBe('renamed.txt');
    expect((await s.member.http.post(`${s.base}/folders/${s.y2026}/items/`, { label: 'folder', name: 'Mine' })).status).toBe(201);
    expect(await s.names(`${s.base}/folders/${s.y2026}/items/`)).toEqual(['Mine', 'renamed.txt']);
    // the owner sees what the member made
    expect((await s.owner.http.get(`/api/users/${s.owner.id}/storages/${s.owner.storageId}/folders/${s.y2026}/items/`)).body.totalCount).toBe(2);
  });

  it("lists the team's storage for a joined member (marked the team's, no rights at its root), and nothing for the owner, a suspended member or a stranger", async () => {
    const s = await teamStorage();
    const teamStorages = async (who: { id: string; http: typeof s.owner.http }) => {
      const res = await who.http.get(`/api/users/${who.id}/team-storages/`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data as { id: string; ownerId: string; isOwner: boolean; isTeamFolder: boolean; permissions: { setPermission: boolean } }[];
    };
    expect(await teamStorages(s.member)).toEqual([
      expect.objectContaining({
        id: s.owner.storageId,
        ownerId: s.owner.id,
        isOwner: false,
        isTeamFolder: true,
        permissions: expect.objectContaining({ view: false, setPermission: false }),
      }),
    ]);
    expect(await teamStorages(s.owner)).toEqual([]);
    const members = (await s.owner.http.get(`/api/teams/${s.owner.id}/members/`)).body.data as { memberId: string; userId: string }[];
    const memberId = members.find((m) => m.userId === s.member.id)!.memberId;
    const change = (body: object) => s.owner.http.patch(`/api/teams/${s.owner.id}/members/${memberId}/`, body);
    expect((await change({ status: 'suspended' })).status).toBe(200);
    expect(await teamStorages(s.member)).toEqual([]);
    expect((await change({ status: 'joined' })).status).toBe(200);
    expect((await change({ role: 'co_admin_member' })).status).toBe(200);
    expect((await teamStorages(s.member))[0]?.permissions.setPermission).toBe(true);
    const stranger = await signedInUser();
    expect(await teamStorages(stranger)).toEqual([]);
    expect((await s.member.http.get(`/api/users/${stranger.id}/team-storages/`)).status).toBe(403);
  });

  it('a suspended member and a stranger reach nothing; a member forbidden to create root folders is told so', async () => {
    const s = await teamStorage();
    await s.grant(s.reports, 'full');
    const members = (await s.owner.http.get(`/api/teams/${s.owner.id}/members/`)).body.data as { memberId: string; userId: string }[];
    const memberId = members.find((m) => m.userId === s.member.id)!.memberId;

    expect((await s.owner.http.patch(`/api/teams/${s.owner.id}/members/${memberId}/`, { forbiddenActions: ['createRootFolder'] })).status).toBe(200);
    const root = await s.member.http.post(`${s.base}/items/`, { label: 'folder', name: 'At the top' });
    expect(root.status).toBe(403);
    expect(root.body.code).toBe('ROOT_FOLDER_FORBIDDEN');
    expect((await s.owner.http.patch(`/api/teams/${s.owner.id}/members/${memberId}/`, { forbiddenActions: [] })).status).toBe(200);
    expect((await s.member.http.post(`${s.base}/items/`, { label: 'folder', name: 'At the top' })).status).toBe(201);

    expect((await s.owner.http.patch(`/api/teams/${s.owner.id}/members/${memberId}/`, { status: 'suspended' })).status).toBe(200);
    expect((await s.member.http.get(`${s.base}/items/`)).body.code).toBe('STORAGE_NOT_FOUND');
    const stranger = await signedInUser();
    expect((await stranger.http.get(`/api/users/${stranger.id}/storages/${s.owner.storageId}/items/`)).status).toBe(404);
  });
});
