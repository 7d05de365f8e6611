import { TEAM_PRODUCT_ID } from '@axel/domain';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

const { app, signedInUser, buyPlan, lastMail, linkIn, newPage, webSignIn } = e2eSuite();

const PHONE = { width: 390, height: 844 };

/** The names the file table shows, in order. */
const rowNames = async (page: Page) => page.locator('[data-testid="file-row"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')));

describe('team groups and folder permissions', () => {
  it('a Team owner makes a group of a joined member, gives the group view on a folder in the permissions dialog; the member sees that folder only, and nothing once it is taken back (390 px phone and desktop)', async () => {
    const shot = stepShots('web-members-permissions');
    const owner = await signedInUser();
    await buyPlan(owner.http, owner.id, TEAM_PRODUCT_ID);
    const member = await signedInUser();
    expect((await owner.http.post(`/api/teams/${owner.id}/invites/`, { emails: member.email })).status).toBe(201);
    const token = linkIn((await lastMail(member.email, 'You are invited to join a team on AXEL Drive')).text, '[?&]invite=').split('&')[0]!;
    expect((await member.http.post(`/api/team-invites/${encodeURIComponent(token)}/accept`)).status).toBe(200);
    const base = `/api/users/${owner.id}/storages/${owner.storageId}`;
    for (const name of ['Projects', 'Private']) expect((await owner.http.post(`${base}/items/`, { label: 'folder', name })).status).toBe(201);

    // the groups screen: a new group, with the joined member in it
    const page = await newPage();
    await webSignIn(page, owner.email);
    await page.goto(`${app().url}/members/manage`);
    await page.getByTestId('tab-groups').click();
    await page.waitForURL(/\/members\/groupsManage/);
    await expect.poll(() => page.getByTestId('groups-empty').count(), { timeout: 15_000 }).toBe(1);
    await page.getByTestId('group-create').click();
    await page.getByTestId('group-name').fill('Design');
    await page.getByTestId('group-name-save').click();
    const group = page.locator('[data-testid="group-row"][data-name="Design"]');
    await expect.poll(() => group.count()).toBe(1);
    // a second group of the same name is refused with the spec's message
    await page.getByTestId('group-create').click();
    await page.getByTestId('group-name').fill('design');
    await page.getByTestId('group-name-save').click();
    await expect.poll(() => page.getByTestId('group-name-error').innerText()).toContain('This group name is already in use');
    await page.getByRole('button', { name: 'Cancel' }).click();

    await group.getByTestId('group-edit-members').click();
    await page.locator(`[data-testid="group-member-option"][data-email="${member.email}"]`).check();
    await page.getByTestId('group-members-save').click();
    await expect.poll(() => group.getByTestId('group-members-text').innerText()).toContain(member.email);
    expect(await page.getByTestId('groups-notice').innerText()).toBe("The group's members are saved.");

    // on a phone the groups screen fits
    await page.setViewportSize(PHONE);
    await expectNoSideScroll(page);
    await shot(page, 'groups-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // the permissions dialog on the folder: the group gets view
    await page.goto(`${app().url}/files/storage/${owner.storageId}`);
    const projects = page.locator('[data-testid="file-row"][data-name="Projects"]');
    await projects.getByRole('checkbox').check();
    await page.getByTestId('action-permissions').click();
    const dialog = page.getByTestId('permissions-dialog');
    await expect.poll(() => dialog.getByTestId('permissions-none').count(), { timeout: 15_000 }).toBe(1);
    const memberAccess = dialog.locator(`[data-testid="effective-row"][data-email="${member.email}"]`);
    expect(await memberAccess.getAttribute('data-level')).toBe('none');
    await dialog.getByTestId('grant-add-who').selectOption({ label: 'Group Design' });
    await dialog.getByTestId('grant-add-level').selectOption('view');
    await dialog.getByTestId('grant-add').click();
    await dialog.getByTestId('permissions-save').click();
    await expect.poll(() => dialog.getByTestId('permissions-saved').count()).toBe(1);
    expect(await memberAccess.getAttribute('data-level')).toBe('view');
    expect(await memberAccess.innerText()).toContain('Given on this item · Group Design');
    expect(await dialog.locator('[data-testid="grant-row"][data-principal="Group Design"]').count()).toBe(1);
    await page.setViewportSize(PHONE);
    await expectNoSideScroll(page);
    await shot(page, 'permissions-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await dialog.getByTestId('permissions-close').click();

    // the member, in a browser of their own, reaches the team's files and sees that folder alone, without the dialog
    const other = await newPage({ viewport: PHONE });
    await webSignIn(other, member.email);
    await other.goto(`${app().url}/files/storage`);
    await other.getByTestId('open-team-files').click();
    await expect.poll(() => rowNames(other), { timeout: 15_000 }).toEqual(['Projects']);
    await other.locator('[data-testid="file-row"][data-name="Projects"]').getByRole('checkbox').check();
    expect(await other.getByTestId('selection-bar').isVisible()).toBe(true);
    expect(await other.getByTestId('action-permissions').count()).toBe(0);
    await expectNoSideScroll(other);
    await shot(other, 'member-team-files-phone');

    // the owner takes the grant back: the member's team files are empty again
    await projects.getByRole('checkbox').check();
    await page.getByTestId('action-permissions').click();
    await dialog.getByTestId('grant-remove').click();
    expect(await dialog.getByTestId('permissions-none').count()).toBe(1);
    await dialog.getByTestId('permissions-save').click();
    await expect.poll(() => dialog.getByTestId('permissions-saved').count()).toBe(1);
    expect(await memberAccess.getAttribute('data-level')).toBe('none');
    await other.reload();
    await expect.poll(() => other.getByTestId('empty-folder').count(), { timeout: 15_000 }).toBe(1);
    expect(await rowNames(other)).toEqual([]);

    // deleting a group asks first
    await page.goto(`${app().url}/members/groupsManage`);
    await group.getByTestId('group-delete').click();
    await page.getByTestId('group-delete-confirm').click();
    await expect.poll(() => page.getByTestId('groups-empty').count()).toBe(1);
  });
});
