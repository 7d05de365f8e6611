import { describe, expect, it } from 'vitest';
import { stepShots } from './browser';
import { e2eSuite } from './suite';

const ROOT = { email: 'root@axel.test', password: 'Root-pass-123' };
const PASSWORD = 'Secret-pass-1';

const { browser, signedIn, createAccount, consoleSignIn } = e2eSuite({ admin: ROOT });

/** A browser that speaks American English: a console date must not follow it once Dutch is chosen. */
const englishBrowser = () => browser().newContext({ locale: 'en-US' });

describe("the console's language, saved with the staff member", () => {
  it('chosen in one browser, it is the language of the console at sign-in in another, and every date is written in it', async () => {
    const shot = stepShots('console-locale');
    const root = await signedIn(ROOT.email, ROOT.password);
    const auditor = await createAccount(root, 'auditor-nl', 'auditor');
    const user = await createAccount(root, 'daan', 'user');
    expect((await (await signedIn(user.email)).put(`/api/users/${user.id}/profile`, { firstName: 'Daan' })).status).toBe(200);

    const first = await englishBrowser();
    const page = await first.newPage();
    await consoleSignIn(page, auditor.email, PASSWORD);
    await page.getByTestId('menu-users').filter({ hasText: 'Active users' }).waitFor();
    await page.getByRole('button', { name: 'Profile', exact: true }).click();
    await page.getByTestId('locale-nl').click();
    await page.getByTestId('menu-users').filter({ hasText: 'Actieve gebruikers' }).waitFor();
    // saved with the account, not only in this browser
    await expect.poll(async () => (await (await signedIn(auditor.email)).get('/api/admin/me')).body.locale).toBe('nl');
    await first.close();

    // another browser, nothing remembered in it: Dutch from the sign-in on
    const second = await englishBrowser();
    const other = await second.newPage();
    await consoleSignIn(other, auditor.email, PASSWORD);
    await other.getByTestId('menu-users').filter({ hasText: 'Actieve gebruikers' }).waitFor();
    await shot(other, 'signed-in-in-dutch');

    // the activity's times: Dutch words and order ("23 nov. 2026, 22:41:04"), not the browser's ("Nov 23, 2026, 10:41:04 PM")
    await other.getByTestId('menu-activity').click();
    await other.getByTestId('activity-filter-user').fill(user.email);
    await other.getByTestId('activity-apply').click();
    const row = other.getByTestId('activity-row').first();
    await row.waitFor();
    const time = row.locator('td').first();
    // the instant and its words read from the same cell at once (the list may still be re-rendering)
    const [iso, text] = await time.evaluate((el) => [el.getAttribute('title'), (el as unknown as { innerText: string }).innerText] as const);
    const timeZone = await other.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const written = (tag: string) => new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'medium', timeZone }).format(new Date(iso!));
    expect(text).toBe(written('nl-NL'));
    expect(written('nl-NL')).not.toBe(written('en-US'));

    // react-admin's date fields too: the users list's "created" column
    await other.getByTestId('menu-users').click();
    const created = other.locator('td.column-createdAt').first();
    await created.waitFor();
    expect(await created.innerText()).toMatch(/^\d{1,2} [a-z]{3}\.? \d{4}/);
    await shot(other, 'dates-in-dutch');

    // switching back to English changes the dates at once
    await other.getByRole('button', { name: /Profiel|Profile/ }).click();
    await other.getByTestId('locale-en').click();
    await other.getByTestId('menu-users').filter({ hasText: 'Active users' }).waitFor();
    expect(await other.locator('td.column-createdAt').first().innerText()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await second.close();
  });
});
