import { ENTERPRISE_MONTHLY_ID } from '@axel/domain';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { useTestApp } from '../../testing/harness';
import { solidImage } from '../../testing/images';
import { shareAccessHelpers } from './share-access.testing';

/* The team's branding on the public page of a share, as a visitor's first call answers it. */

const t = useTestApp({ env: { RATE_LIMIT_FACTOR: '20' } });
const { caughtUp, owner, visitor } = shareAccessHelpers(t);
const { buyPlan, lastMail, linkIn } = accountHelpers(t);

const publicShareOf = async (o: Awaited<ReturnType<typeof owner>>) => {
  const file = await o.file(`contract-${Date.now()}.txt`, Buffer.from('signed'));
  const s = await o.share({ itemIds: [file] });
  await caughtUp();
  return `/api/share-links/${s.shareLinkId}`;
};

describe("a share page's branding", () => {
  it("carries the Enterprise team's name and logo for the owner's and a member's shares, and null for anyone else", async () => {
    const admin = await owner();
    const plain = await owner();
    expect((await visitor().call(await publicShareOf(admin))).body.branding).toBeNull();

    await buyPlan(admin.http, admin.id, ENTERPRISE_MONTHLY_ID);
    // an Enterprise team that has not set any branding yet shows none
    expect((await visitor().call(await publicShareOf(admin))).body.branding).toBeNull();

    expect((await admin.http.put(`/api/teams/${admin.id}/branding`, { companyName: 'Acme Legal' })).status).toBe(200);
    const logo = await admin.http.request('POST', `/api/teams/${admin.id}/branding/logo`, await solidImage(96, 48, 'png'), { 'content-type': 'image/png' });
    expect(logo.status, JSON.stringify(logo.body)).toBe(200);
    await caughtUp();

    const opened = await visitor().call(await publicShareOf(admin));
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.branding).toEqual({ companyName: 'Acme Legal', logoUrl: logo.body.logoUrl });
    // the logo it names is one a visitor without a session can load
    const image = await visitor().call(opened.body.branding.logoUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');

    // a member's share shows their team's branding; someone outside the team still gets none
    const member = await owner();
    expect((await admin.http.post(`/api/teams/${admin.id}/invites/`, { emails: member.email })).status).toBe(201);
    const token = linkIn((await lastMail(member.email, 'You are invited to join a team on AXEL Drive')).text, '[?&]invite=').split('&')[0]!;
    expect((await member.http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`)).status).toBe(200);
    await caughtUp();
    expect((await visitor().call(await publicShareOf(member))).body.branding).toEqual({ companyName: 'Acme Legal', logoUrl: logo.body.logoUrl });
    expect((await visitor().call(await publicShareOf(plain))).body.branding).toBeNull();

    // the logo removed: the name stays alone
    expect((await admin.http.delete(`/api/teams/${admin.id}/branding/logo`)).status).toBe(200);
    await caughtUp();
    expect((await visitor().call(await publicShareOf(admin))).body.branding).toEqual({ companyName: 'Acme Legal', logoUrl: null });
  });
});
