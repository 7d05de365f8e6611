import { ENTERPRISE_MONTHLY_ID, TEAM_PRODUCT_ID } from '@axel/domain';
import { describe, expect, it } from 'vitest';
import { solidImage } from '../../api/src/testing/images';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

const { app, signedInUser, buyPlan, lastMail, linkIn, newPage, webSignIn } = e2eSuite();

const PHONE = { width: 390, height: 844 };
const logoPng = (width: number, height: number) => solidImage(width, height, 'png');

describe('team branding and custom URL', () => {
  it('an Enterprise admin sets the name and logo (a tiny logo refused in words), a joined member sees them in the header, and the custom URL is checked as typed and refused when taken (390 px phone and desktop)', async () => {
    const shot = stepShots('web-branding');
    const owner = await signedInUser();
    await buyPlan(owner.http, owner.id, ENTERPRISE_MONTHLY_ID);
    const rival = await signedInUser();
    await buyPlan(rival.http, rival.id, ENTERPRISE_MONTHLY_ID);
    const taken = `taken${Date.now().toString(36)}`;
    expect((await rival.http.put(`/api/teams/${rival.id}/custom-url`, { subdomain: taken })).status).toBe(200);

    const page = await newPage();
    await webSignIn(page, owner.email);
    await page.goto(`${app().url}/members/manage`);
    await page.getByTestId('tab-branding').click();
    await page.waitForURL(/\/members\/branding/);
    await page.getByTestId('branding-name').fill('Acme Legal');
    await page.getByTestId('branding-name-save').click();
    await expect.poll(() => page.getByTestId('branding-saved').innerText()).toBe('The name is saved.');
    await expect.poll(() => page.getByTestId('team-brand-name').innerText()).toBe('Acme Legal');

    await page.getByTestId('branding-logo-input').setInputFiles({ name: 'tiny.png', mimeType: 'image/png', buffer: await logoPng(20, 20) });
    await expect.poll(() => page.getByTestId('branding-error').innerText()).toBe('The logo must be at least 40x40 pixels');
    await page.getByTestId('branding-logo-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await logoPng(160, 48) });
    await expect.poll(() => page.getByTestId('branding-saved').innerText()).toBe('The logo is saved.');
    await expect
      .poll(() => page.locator('[data-testid="team-brand"] img').evaluate((img) => (img as { complete: boolean; naturalWidth: number }).naturalWidth))
      .toBe(160);
    await page.setViewportSize(PHONE);
    await expectNoSideScroll(page);
    await shot(page, 'branding-phone');

    // the custom URL: a bad shape is said as typed, a taken name by the server, a free one shows its address
    await page.getByTestId('tab-custom-url').click();
    await page.waitForURL(/\/members\/custom-url/);
    await page.getByTestId('custom-url-input').fill('9acme');
    expect(await page.getByTestId('custom-url-save').isDisabled()).toBe(true);
    await expect.poll(() => page.getByTestId('custom-url-page').innerText()).toContain('starting with a letter');
    await page.getByTestId('custom-url-input').fill(taken);
    await page.getByTestId('custom-url-save').click();
    await expect.poll(() => page.getByTestId('custom-url-error').innerText()).toBe('This custom URL is already taken');
    const mine = `acme${Date.now().toString(36)}`;
    await page.getByTestId('custom-url-input').fill(mine);
    await page.getByTestId('custom-url-save').click();
    await expect.poll(() => page.getByTestId('custom-url-current').innerText()).toContain(`${mine}.localhost`);
    await expectNoSideScroll(page);
    await shot(page, 'custom-url-phone');

    // the custom host names the team (browsers send *.localhost to this machine)
    const customUrl = (await owner.http.get(`/api/users/${owner.id}/branding`)).body.customUrl as string;
    const hostPage = await newPage();
    await hostPage.goto(`${customUrl}/api/host-branding`);
    expect(JSON.parse(await hostPage.locator('body').innerText())).toMatchObject({ companyName: 'Acme Legal', mainUrl: app().url });
    await hostPage.context().close();

    // a joined member sees the team's name and logo in the header, and cannot change them
    const member = await signedInUser();
    expect((await owner.http.post(`/api/teams/${owner.id}/invites/`, { emails: member.email })).status).toBe(201);
    const token = linkIn((await lastMail(member.email, 'You are invited to join a team on AXEL Drive')).text, '[?&]invite=').split('&')[0]!;
    expect((await member.http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`)).status).toBe(200);
    const memberPage = await newPage();
    await webSignIn(memberPage, member.email);
    await expect.poll(() => memberPage.getByTestId('team-brand-name').innerText()).toBe('Acme Legal');
    await page.context().close();
    await memberPage.context().close();
  });

  it('a Team owner is told branding comes with Enterprise, in Spanish too', async () => {
    const owner = await signedInUser();
    await buyPlan(owner.http, owner.id, TEAM_PRODUCT_ID);
    const page = await newPage();
    await webSignIn(page, owner.email);
    await page.goto(`${app().url}/members/branding`);
    await expect.poll(() => page.getByTestId('branding-blocked-plan').innerText()).toContain('Branding and a custom URL come with the Enterprise plan.');
    expect((await owner.http.put(`/api/users/${owner.id}/account`, { locale: 'es_mx' })).status).toBe(200);
    await page.reload();
    await expect.poll(() => page.getByTestId('branding-blocked-plan').innerText()).toContain('La marca y la URL personalizada vienen con el plan Enterprise.');
    await page.context().close();
  });
});
