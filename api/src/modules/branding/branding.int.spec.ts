import { get } from 'node:http';
import { ENTERPRISE_MONTHLY_ID, TEAM_PRODUCT_ID } from '@axel/domain';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { HttpClient, useTestApp } from '../../testing/harness';
import { solidImage } from '../../testing/images';

const t = useTestApp({ env: { RATE_LIMIT_FACTOR: '20', CUSTOM_URL_DOMAIN: 'teams.example' } });
const { uniqueEmail, signedInUser, buyPlan, lastMail, linkIn } = accountHelpers(t);

const enterpriseOwner = async () => {
  const owner = await signedInUser(uniqueEmail('enterprise'));
  await buyPlan(owner.http, owner.id, ENTERPRISE_MONTHLY_ID);
  return owner;
};
const image = solidImage;
/** fetch sends the URL's own Host; a custom host's request is made with node:http. */
const getWithHost = (url: string, host: string) =>
  new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    get(url, { headers: { host } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    }).on('error', reject);
  });
const upload = (http: HttpClient, teamId: string, body: Uint8Array, type = 'image/png') =>
  http.request('POST', `/api/teams/${teamId}/branding/logo`, body, { 'content-type': type });

describe('branding', () => {
  it('an Enterprise admin sets a name and a logo (checked and re-encoded); members see them; the spec errors for bad logos', async () => {
    const owner = await enterpriseOwner();
    const set = await owner.http.put(`/api/teams/${owner.id}/branding`, { companyName: '  Acme Legal — files you can trust ' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.companyName).toBe('Acme Legal — files you can trust');

    expect((await upload(owner.http, owner.id, await image(39, 200, 'png'))).body.code).toBe('LOGO_TOO_SMALL');
    expect((await upload(owner.http, owner.id, await image(64, 64, 'webp'), 'image/png')).body.code).toBe('LOGO_INVALID');
    expect((await upload(owner.http, owner.id, new Uint8Array([1, 2, 3]))).body.code).toBe('LOGO_INVALID');
    expect((await upload(owner.http, owner.id, await image(64, 64, 'png'), 'image/gif')).body.code).toBe('LOGO_INVALID');
    const big = await upload(owner.http, owner.id, new Uint8Array(1024 * 1024 + 10));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('LOGO_TOO_LARGE');

    const jpeg = await upload(owner.http, owner.id, await image(120, 40, 'jpeg'), 'image/jpeg');
    expect(jpeg.status, JSON.stringify(jpeg.body)).toBe(200);
    expect(jpeg.body).toMatchObject({ logoWidth: 120, logoHeight: 40 });
    // anyone may fetch the logo (share pages, the custom host); it is the re-encoded JPEG
    const logo = await fetch(`${t().url}${jpeg.body.logoUrl}`);
    expect(logo.status, await logo.clone().text()).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/jpeg');
    expect((await sharp(Buffer.from(await logo.arrayBuffer())).metadata()).format).toBe('jpeg');

    // a member of the team reads the branding; they may not change it
    const member = await signedInUser(uniqueEmail('member'));
    expect((await owner.http.post(`/api/teams/${owner.id}/invites/`, { emails: member.email })).status).toBe(201);
    const token = linkIn((await lastMail(member.email, 'You are invited to join a team on AXEL Drive')).text, '[?&]invite=').split('&')[0]!;
    expect((await member.http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`)).status).toBe(200);
    const seen = await member.http.get(`/api/users/${member.id}/branding`);
    expect(seen.body).toMatchObject({ teamId: owner.id, companyName: 'Acme Legal — files you can trust', canManage: false, logoWidth: 120 });
    expect((await member.http.put(`/api/teams/${owner.id}/branding`, { companyName: 'Mine now' })).body.code).toBe('TEAM_ADMIN_REQUIRED');
    expect((await owner.http.delete(`/api/teams/${owner.id}/branding/logo`)).body.logoUrl).toBeNull();
    expect((await fetch(`${t().url}${jpeg.body.logoUrl}`)).status).toBe(404);
  });

  it('is for Enterprise only: a Team owner is told so; a stranger cannot touch another team', async () => {
    const team = await signedInUser(uniqueEmail('team'));
    await buyPlan(team.http, team.id, TEAM_PRODUCT_ID);
    const refused = await team.http.put(`/api/teams/${team.id}/branding`, { companyName: 'Nope' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('BRANDING_PLAN_REQUIRED');
    expect((await team.http.get(`/api/users/${team.id}/branding`)).body).toMatchObject({ canManage: true, brandingAllowed: false, customUrlAllowed: false });
    const owner = await enterpriseOwner();
    expect((await team.http.put(`/api/teams/${owner.id}/custom-url`, { subdomain: 'mine' })).body.code).toBe('TEAM_NOT_FOUND');
    expect((await new HttpClient(t().url).put(`/api/teams/${owner.id}/branding`, { companyName: 'x' })).status).toBe(401);
  });
});

describe('custom URL', () => {
  it('a subdomain is one team’s: 409 for the second, given back on change; its host shows the branding; Caddy may ask for it', async () => {
    const a = await enterpriseOwner();
    const b = await enterpriseOwner();
    const name = `acme${Date.now().toString(36)}`;
    expect((await a.http.put(`/api/teams/${a.id}/custom-url`, { subdomain: '9lives' })).body.code).toBe('CUSTOM_URL_INVALID');
    expect((await a.http.put(`/api/teams/${a.id}/custom-url`, { subdomain: 'www' })).body.code).toBe('CUSTOM_URL_UNAVAILABLE');
    const set = await a.http.put(`/api/teams/${a.id}/custom-url`, { subdomain: name.toUpperCase() });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.subdomain).toBe(name);
    expect(set.body.customUrl).toMatch(new RegExp(`^http://${name}\\.teams\\.example:\\d+$`));
    const taken = await b.http.put(`/api/teams/${b.id}/custom-url`, { subdomain: name });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('CUSTOM_URL_EXISTS');

    await a.http.put(`/api/teams/${a.id}/branding`, { companyName: 'Acme' });
    const onHost = await getWithHost(`${t().url}/api/host-branding`, `${name}.teams.example`);
    expect(onHost.status).toBe(200);
    expect(onHost.body).toMatchObject({ companyName: 'Acme', mainUrl: t().url });
    expect((await fetch(`${t().url}/api/host-branding`)).status).toBe(404);
    expect((await fetch(`${t().url}/api/tls/ask?domain=${name}.teams.example`)).status).toBe(200);
    expect((await fetch(`${t().url}/api/tls/ask?domain=other${name}.teams.example`)).status).toBe(404);
    expect((await fetch(`${t().url}/api/tls/ask?domain=${name}.elsewhere.example`)).status).toBe(404);

    // a changes its name: the old one is free for b at once
    expect((await a.http.put(`/api/teams/${a.id}/custom-url`, { subdomain: `${name}-new` })).status).toBe(200);
    expect((await b.http.put(`/api/teams/${b.id}/custom-url`, { subdomain: name })).status).toBe(200);
    expect((await fetch(`${t().url}/api/tls/ask?domain=${name}-new.teams.example`)).status).toBe(200);
    expect((await a.http.delete(`/api/teams/${a.id}/custom-url`)).body.subdomain).toBeNull();
    expect((await fetch(`${t().url}/api/tls/ask?domain=${name}-new.teams.example`)).status).toBe(404);
  });

  // both teams ask for one free name at once, each started first once: exactly one gets it
  for (const first of ['a', 'b'] as const) {
    it(`two teams asking for one name at once: exactly one holds it (${first} first)`, async () => {
      const a = await enterpriseOwner();
      const b = await enterpriseOwner();
      const name = `race${first}${Date.now().toString(36)}`;
      const ask = (o: typeof a) => o.http.put(`/api/teams/${o.id}/custom-url`, { subdomain: name });
      const [ra, rb] = first === 'a' ? await Promise.all([ask(a), ask(b)]) : await Promise.all([ask(b), ask(a)]).then(([y, x]) => [x, y] as const);
      expect([ra.status, rb.status].sort()).toEqual([200, 409]);
      const winner = ra.status === 200 ? a : b;
      const loser = winner === a ? b : a;
      expect((await winner.http.get(`/api/users/${winner.id}/branding`)).body.subdomain).toBe(name);
      expect((await loser.http.get(`/api/users/${loser.id}/branding`)).body.subdomain).toBeNull();
    });
  }
});
