import { ENTERPRISE_MONTHLY_ID } from '@axel/domain';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { solidImage } from '../../api/src/testing/images';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

const { app, signedInUser, buyPlan, bytes, newPage, PASSWORD } = e2eSuite({ memoryBytes: true });

const PHONE = { width: 390, height: 844 };

/** The width the browser decoded an image at: 0 while it is missing or broken. */
const decodedWidth = (page: Page, selector: string) =>
  page.locator(selector).evaluate((img) => (img as { complete: boolean; naturalWidth: number }).naturalWidth);

/** An Enterprise owner with a name, a 160x48 logo, a custom URL and a public share of one file. */
const brandedTeam = async () => {
  const owner = await signedInUser();
  await buyPlan(owner.http, owner.id, ENTERPRISE_MONTHLY_ID);
  expect((await owner.http.put(`/api/teams/${owner.id}/branding`, { companyName: 'Acme Legal' })).status).toBe(200);
  const logo = await owner.http.request('POST', `/api/teams/${owner.id}/branding/logo`, await solidImage(160, 48, 'png'), { 'content-type': 'image/png' });
  expect(logo.status, JSON.stringify(logo.body)).toBe(200);
  const subdomain = `acme${Date.now().toString(36)}`;
  const custom = await owner.http.put(`/api/teams/${owner.id}/custom-url`, { subdomain });
  expect(custom.status, JSON.stringify(custom.body)).toBe(200);
  const customUrl = custom.body.customUrl as string;
  expect(customUrl).toContain(`${subdomain}.localhost`);

  const storageId = (await owner.http.get(`/api/users/${owner.id}/storages/`)).body.data[0].id as string;
  const file = await owner.http.post(`/api/users/${owner.id}/storages/${storageId}/items/`, {
    label: 'file',
    name: 'engagement-letter.txt',
    uploadId: bytes.upload(owner.id, storageId, 'terms of engagement'),
  });
  expect(file.status, JSON.stringify(file.body)).toBe(201);
  const share = await owner.http.post('/api/shares/', { itemIds: [file.body.id], title: 'Engagement letter', downloadable: true });
  expect(share.status, JSON.stringify(share.body)).toBe(201);
  return { owner, customUrl, shareUrl: share.body.url as string, shareLinkId: share.body.shareLinkId as string };
};

describe("a team's custom URL and its share pages", () => {
  it("shows the team's logo and name on its custom host's sign-in, signs in on the main host (told where the person came from) and lands on the page they wanted; a share of the team shows its logo (390 px phone and desktop)", async () => {
    const shot = stepShots('web-custom-host');
    const { owner, customUrl, shareUrl, shareLinkId } = await brandedTeam();
    const main = app().url;

    // the custom host's sign-in: the team's logo and name, in the page and in the header
    const page = await newPage({ viewport: PHONE });
    await page.goto(`${customUrl}/signin?redirect=${encodeURIComponent('/settings')}`);
    await expect.poll(() => page.getByTestId('custom-host-name').innerText()).toBe('Acme Legal');
    await expect.poll(() => decodedWidth(page, '[data-testid="custom-host-logo"]')).toBe(160);
    await expect.poll(() => decodedWidth(page, '[data-testid="host-brand"] img')).toBe(160);
    expect(await page.getByTestId('signin-email').count()).toBe(0);
    await expectNoSideScroll(page);
    await shot(page, 'custom-host-signin-phone');

    // signing up stays on the custom host, under the team's branding
    await page.getByTestId('custom-host-to-signup').click();
    await page.waitForURL(`${customUrl}/signup`);
    await expect.poll(() => decodedWidth(page, '[data-testid="host-brand"] img')).toBe(160);
    await expectNoSideScroll(page);
    await page.goBack();

    // signing in goes on to the main host's sign-in, with the redirect and from=customOrigin
    await page.getByTestId('custom-host-continue').click();
    await page.waitForURL((url) => url.origin === main && url.pathname === '/signin');
    const at = new URL(page.url());
    expect(at.searchParams.get('from')).toBe('customOrigin');
    expect(at.searchParams.get('redirect')).toBe('/settings');
    await expect
      .poll(() => page.getByTestId('signin-from-custom-host').innerText())
      .toBe("You came here from your team's own address. Sign in here; you will carry on at this address.");
    await expectNoSideScroll(page);
    await shot(page, 'main-signin-from-custom-host-phone');
    await page.getByTestId('signin-email').fill(owner.email);
    await page.getByTestId('signin-password').fill(PASSWORD);
    await page.getByTestId('signin-submit').click();
    await page.waitForURL(`${main}/settings`);
    await page.context().close();

    // a page that needs a session, opened on the custom host, goes straight to the main host's sign-in
    const deep = await newPage({ viewport: { width: 1280, height: 800 } });
    await deep.goto(`${customUrl}/files/storage`);
    await deep.waitForURL((url) => url.origin === main && url.pathname === '/signin');
    expect(new URL(deep.url()).searchParams.get('redirect')).toBe('/files/storage');
    expect(new URL(deep.url()).searchParams.get('from')).toBe('customOrigin');
    await deep.context().close();

    // a visitor of the team's public share sees the team's logo and name in the page's header
    expect(shareUrl).toContain(shareLinkId);
    const visitor = await newPage({ viewport: PHONE });
    await visitor.goto(shareUrl);
    await expect.poll(() => visitor.getByTestId('share-title').innerText(), { timeout: 15_000 }).toBe('Engagement letter');
    await expect.poll(() => decodedWidth(visitor, '[data-testid="share-team-brand"] img')).toBe(160);
    expect(await visitor.getByTestId('share-team-brand-name').innerText()).toBe('Acme Legal');
    await expectNoSideScroll(visitor);
    await shot(visitor, 'share-branded-phone');
    await visitor.setViewportSize({ width: 1280, height: 800 });
    await shot(visitor, 'share-branded-desktop');
    await visitor.context().close();

    // someone outside any team shares without branding
    const loner = await signedInUser();
    const storageId = (await loner.http.get(`/api/users/${loner.id}/storages/`)).body.data[0].id as string;
    const file = await loner.http.post(`/api/users/${loner.id}/storages/${storageId}/items/`, {
      label: 'file',
      name: 'notes.txt',
      uploadId: bytes.upload(loner.id, storageId, 'plain notes'),
    });
    const plainShare = await loner.http.post('/api/shares/', { itemIds: [file.body.id], title: 'Plain notes', downloadable: true });
    const plain = await newPage();
    await plain.goto(plainShare.body.url as string);
    await expect.poll(() => plain.getByTestId('share-title').innerText(), { timeout: 15_000 }).toBe('Plain notes');
    expect(await plain.getByTestId('share-team-brand').count()).toBe(0);
    await plain.context().close();
  });

  it('says the custom host and the main host lines in Spanish and Dutch, and follows no redirect that leaves the site', async () => {
    const { owner, customUrl } = await brandedTeam();
    const spanish = await newPage({ locale: 'es-MX', viewport: PHONE });
    await spanish.goto(`${customUrl}/signin`);
    await expect.poll(() => spanish.getByTestId('custom-host-continue').innerText()).toMatch(/continuar para iniciar sesión/i);
    expect(new URL((await spanish.getByTestId('custom-host-continue').getAttribute('href'))!).searchParams.get('from')).toBe('customOrigin');
    await spanish.context().close();

    const dutch = await newPage({ locale: 'nl-NL' });
    await dutch.goto(`${app().url}/signin?from=customOrigin&redirect=${encodeURIComponent('//evil.example/files')}`);
    await expect.poll(() => dutch.getByTestId('signin-from-custom-host').innerText()).toContain('Je komt van het eigen adres van je team.');
    await dutch.getByTestId('signin-email').fill(owner.email);
    await dutch.getByTestId('signin-password').fill(PASSWORD);
    await dutch.getByTestId('signin-submit').click();
    await dutch.waitForURL(`${app().url}/welcome`);
    await dutch.context().close();
  });
});
