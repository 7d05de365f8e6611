import { describe, expect, it } from 'vitest';
import { stepShots } from './browser';
import { e2eSuite } from './suite';

const ROOT = { email: 'root@axel.test', password: 'Root-pass-123' };
const PASSWORD = 'Secret-pass-1';

const { app, browser, signedIn, createAccount, consoleSignIn } = e2eSuite({ admin: ROOT });

describe('console activity', () => {
  it("an auditor filters the activity by a user, opens the user's timeline, and travels to before a profile change", async () => {
    const shot = stepShots('activity');
    const root = await signedIn(ROOT.email, ROOT.password);
    const auditor = await createAccount(root, 'auditor', 'auditor');
    const user = await createAccount(root, 'ada', 'user');
    const http = await signedIn(user.email);
    expect((await http.put(`/api/users/${user.id}/profile`, { firstName: 'Ada' })).status).toBe(200);
    app().clock.advance(60_000);
    expect((await http.put(`/api/users/${user.id}/profile`, { firstName: 'Grace' })).status).toBe(200);

    const context = await browser().newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await consoleSignIn(page, auditor.email, PASSWORD);

    await page.getByTestId('menu-activity').click();
    await page.getByTestId('activity-table').waitFor();
    await page.getByTestId('activity-filter-user').fill(user.email);
    await page.getByTestId('activity-apply').click();
    await page
      .getByTestId('activity-title')
      .filter({ hasText: `Timeline of ${user.email}` })
      .waitFor();
    const changes = page.getByTestId('activity-row').filter({ hasText: 'Profile updated: firstName' });
    await expect.poll(() => changes.count()).toBe(2);
    // every row is this user's: their streams, or what they did
    const streams = await page.getByTestId('activity-stream').allInnerTexts();
    expect(streams.every((s) => s.endsWith(user.id))).toBe(true);
    await shot(page, 'filtered-by-user');

    // the JSON of an event is one click away
    await changes.first().getByTestId('activity-json-toggle').click();
    expect(await page.getByTestId('activity-json').innerText()).toContain('"firstName": "Grace"');

    // the user aggregate's timeline
    await changes.first().getByTestId('activity-stream').click();
    await page
      .getByTestId('activity-title')
      .filter({ hasText: `Timeline of user-${user.id}` })
      .waitFor();
    await page
      .getByTestId('activity-sentence')
      .filter({ hasText: `Account ${user.email} created by staff as user` })
      .waitFor();
    await shot(page, 'aggregate-timeline');

    // just before the newest change: Ada then, Grace today, the field highlighted
    const newest = page.getByTestId('activity-row').filter({ hasText: 'Profile updated: firstName' }).first();
    await newest.getByTestId('activity-time-travel').click();
    const field = page.locator('[data-testid="time-travel-field"][data-path="profile.firstName"]');
    await field.waitFor();
    expect(await field.getAttribute('data-changed')).toBe('true');
    expect(await field.getByTestId('time-travel-then').innerText()).toBe('"Ada"');
    expect(await field.getByTestId('time-travel-now').innerText()).toBe('"Grace"');
    expect(await page.locator('[data-testid="time-travel-field"][data-changed="true"]').count()).toBe(1);
    expect(await page.locator('[data-testid="time-travel-field"][data-path="status"]').getAttribute('data-changed')).toBe('false');
    await shot(page, 'time-travel');
    await context.close();
  });
  it('switching the console to Português in the user menu words the menu and the activity in Portuguese, and stays after a reload', async () => {
    const shot = stepShots('activity-locale');
    const root = await signedIn(ROOT.email, ROOT.password);
    const auditor = await createAccount(root, 'auditor-pt', 'auditor');
    const user = await createAccount(root, 'bia', 'user');
    expect((await (await signedIn(user.email)).put(`/api/users/${user.id}/profile`, { firstName: 'Bia' })).status).toBe(200);

    const context = await browser().newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await consoleSignIn(page, auditor.email, PASSWORD);
    // English by default
    await page.getByTestId('menu-users').filter({ hasText: 'Active users' }).waitFor();

    await page.getByRole('button', { name: 'Profile', exact: true }).click();
    await page.getByTestId('locale-pt').click();
    await page.getByTestId('menu-users').filter({ hasText: 'Usuários ativos' }).waitFor();
    await page.getByTestId('menu-activity').click();
    await page.getByTestId('activity-filter-user').fill(user.email);
    await page.getByTestId('activity-apply').click();
    await page
      .getByTestId('activity-title')
      .filter({ hasText: `Linha do tempo de ${user.email}` })
      .waitFor();
    await page.getByTestId('activity-sentence').filter({ hasText: 'Perfil atualizado: firstName' }).waitFor();
    expect(await page.getByTestId('activity-sentence').filter({ hasText: 'Profile updated' }).count()).toBe(0);
    await shot(page, 'activity-in-portuguese');

    // the choice is remembered
    await page.reload();
    await page.getByTestId('activity-sentence').filter({ hasText: 'Perfil atualizado: firstName' }).waitFor();
    await page.getByTestId('menu-users').filter({ hasText: 'Usuários ativos' }).waitFor();
    await context.close();
  });
});
