import { TEAM_PRODUCT_ID } from '@axel/domain';
import { describe, expect, it } from 'vitest';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

const { app, signedInUser, buyPlan, lastMail, linkIn, newPage, webSignIn } = e2eSuite();

const PHONE = { width: 390, height: 844 };

describe('team activity log and members settings', () => {
  it("a Team owner reads on a phone what a member did in the team's folders, with paths and who, then forbids the member root folders and the member is refused one", async () => {
    const shot = stepShots('web-members-activity');
    const owner = await signedInUser();
    await buyPlan(owner.http, owner.id, TEAM_PRODUCT_ID);
    const member = await signedInUser();
    expect((await owner.http.post(`/api/teams/${owner.id}/invites/`, { emails: member.email })).status).toBe(201);
    const token = linkIn((await lastMail(member.email, 'You are invited to join a team on AXEL Drive')).text, '[?&]invite=').split('&')[0]!;
    expect((await member.http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`)).status).toBe(200);
    const ownerBase = `/api/users/${owner.id}/storages/${owner.storageId}`;
    const projects = (await owner.http.post(`${ownerBase}/items/`, { label: 'folder', name: 'Projects' })).body.id as string;
    expect((await owner.http.put(`${ownerBase}/items/${projects}/permissions/`, { grants: [{ userId: member.id, level: 'edit' }] })).status).toBe(200);

    // the member works in the team's folder through their own paths
    const memberBase = `/api/users/${member.id}/storages/${owner.storageId}`;
    const draft = await member.http.post(`${memberBase}/folders/${projects}/items/`, { label: 'folder', name: 'Draft plan' });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    expect((await member.http.patch(`${memberBase}/items/${draft.body.id}/`, { name: 'Final plan' })).status).toBe(200);

    // the owner reads the log on a phone: newest first, paths and who, no sideways scroll
    const page = await newPage({ viewport: PHONE });
    await webSignIn(page, owner.email);
    await page.goto(`${app().url}/members/activity`);
    const rows = page.getByTestId('activity-row');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(4);
    expect(await rows.evaluateAll((all) => all.map((r) => r.getAttribute('data-type')))).toEqual(['renamed', 'created', 'created', 'member_joined']);
    const renamed = rows.nth(0);
    expect(await renamed.innerText()).toContain('Renamed');
    expect(await renamed.getByTestId('activity-source').innerText()).toBe('/Projects/Draft plan');
    expect(await renamed.getByTestId('activity-destination').innerText()).toBe('/Projects/Final plan');
    expect(await renamed.innerText()).toContain(member.email);
    expect(await rows.nth(1).getByTestId('activity-destination').innerText()).toBe('/Projects/Draft plan');
    expect(await rows.nth(1).innerText()).toContain('Folder created');
    expect(await rows.nth(2).innerText()).toContain(owner.email);
    await expectNoSideScroll(page);
    await shot(page, 'activity-phone');

    // on a desktop who did it has its own column
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await renamed.getByTestId('activity-who').isVisible()).toBe(true);
    expect(await renamed.getByTestId('activity-who').innerText()).toBe(member.email);
    await expectNoSideScroll(page);
    await shot(page, 'activity-desktop');
    await page.setViewportSize(PHONE);

    // filtered to renames only
    await page.getByTestId('activity-filter-type').click();
    await page.getByTestId('activity-type-renamed').click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.nth(0).getAttribute('data-type')).toBe('renamed');

    // the settings tab: the member may create root folders until the owner switches it off
    await page.getByTestId('tab-settings').click();
    await page.waitForURL(/\/members\/settings/);
    const allowances = page.getByTestId('settings-allowances');
    const rootSwitch = allowances.locator(`[data-testid="settings-member"][data-email="${member.email}"]`).getByTestId('settings-allow-createRootFolder');
    await expect.poll(() => rootSwitch.count(), { timeout: 15_000 }).toBe(1);
    expect(await rootSwitch.isChecked()).toBe(true);
    expect(await page.getByTestId('settings-suspended-empty').count()).toBe(1);
    await expectNoSideScroll(page);
    await rootSwitch.click();
    await expect.poll(() => page.getByTestId('settings-notice').count()).toBe(1);
    await expect.poll(() => rootSwitch.isChecked()).toBe(false);
    await shot(page, 'settings-phone');

    const refused = await member.http.post(`${memberBase}/items/`, { label: 'folder', name: 'At the top' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ROOT_FOLDER_FORBIDDEN');

    // after a reload the switch still says so
    await page.reload();
    await expect.poll(() => rootSwitch.count(), { timeout: 15_000 }).toBe(1);
    expect(await rootSwitch.isChecked()).toBe(false);
  });
});
