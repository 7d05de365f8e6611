import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { stepShots } from './browser';
import { e2eSuite } from './suite';

const { app, uniqueEmail, signUpConfirmed, signIn: apiSignIn, bytes, webSignIn: signIn, newPage } = e2eSuite({ memoryBytes: true });

/** Someone who shares a file twice: one open share, one with a password. */
const sharesOfSomeoneElse = async () => {
  const { email, id } = await signUpConfirmed(uniqueEmail('bookmarked'));
  const { http } = await apiSignIn(email);
  const storageId = (await http.get(`/api/users/${id}/storages/`)).body.data[0].id as string;
  const file = await http.post(`/api/users/${id}/storages/${storageId}/items/`, {
    label: 'file',
    name: 'report.txt',
    uploadId: bytes.upload(id, storageId, 'quarterly numbers'),
  });
  const share = async (title: string, password?: string) => {
    const res = await http.post('/api/shares/', { itemIds: [file.body.id], title, downloadable: true, ...(password ? { password } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { url: string; shareLinkId: string };
  };
  return { open: await share('Team photos'), locked: await share('Tax papers', 'Tax-secret-9') };
};

const row = (page: Page, description: string) => page.locator('[data-testid="bookmark-row"]', { hasText: description });

describe('bookmarks and lists', () => {
  it('bookmarks shares by link (a password share after its password), renames, sorts into a list, returns to the list on a wrong password and opens with the right one', async () => {
    const shot = stepShots('web-bookmarks');
    const { open, locked } = await sharesOfSomeoneElse();
    const { email } = await signUpConfirmed(uniqueEmail('bookmarker'));
    const page = await newPage();
    await signIn(page, email);
    await page.goto(`${app().url}/files/storage`);
    await page.getByTestId('open-bookmarks').click();
    await page.getByTestId('bookmarks-empty').waitFor();

    // Two shares kept by their links, described by their titles, description DESC; the password
    // share is kept only once its password was given, as opening it would ask.
    await page.getByTestId('bookmark-add-by-link').click();
    await page.getByTestId('share-link-input').fill(open.url);
    await page.getByTestId('add-by-link-submit').click();
    await page.getByTestId('add-by-link-dialog').waitFor({ state: 'detached' });
    await page.getByTestId('bookmark-add-by-link').click();
    await page.getByTestId('share-link-input').fill(locked.url);
    await page.getByTestId('add-by-link-submit').click();
    await page.getByTestId('add-by-link-password').fill('Wrong-secret-1');
    await page.getByTestId('add-by-link-submit').click();
    await expect.poll(() => page.getByTestId('add-by-link-error').innerText()).toContain('Wrong share password');
    await page.getByTestId('add-by-link-password').fill('Tax-secret-9');
    await page.getByTestId('add-by-link-submit').click();
    await page.getByTestId('add-by-link-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('bookmark-open').allInnerTexts()).toEqual(['Team photos', 'Tax papers']);

    // The same share twice is refused with the message.
    await page.getByTestId('bookmark-add-by-link').click();
    await page.getByTestId('share-link-input').fill(open.url);
    await page.getByTestId('add-by-link-submit').click();
    await expect.poll(() => page.getByTestId('add-by-link-error').innerText()).toBe('This share is already in your bookmarks');
    await page.getByTestId('add-by-link-dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('add-by-link-dialog').waitFor({ state: 'detached' });

    // Rename, with the title rules checked as one types.
    await row(page, 'Team photos').getByTestId('bookmark-rename').click();
    await page.getByTestId('title-input').fill('Party 🎉');
    await page.getByText('Emoji are not allowed in titles').waitFor();
    await page.getByTestId('title-input').fill('Photos of the team');
    await page.getByTestId('title-submit').click();
    await expect.poll(() => page.getByTestId('bookmark-open').allInnerTexts()).toEqual(['Tax papers', 'Photos of the team']);

    // A list, and the protected share moved into it.
    await page.getByTestId('list-create').click();
    await page.getByTestId('title-input').fill('Work');
    await page.getByTestId('title-submit').click();
    await page.waitForURL(/\/files\/lists\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByTestId('bookmarks-heading').innerText()).toBe('Work');
    await page.getByTestId('bookmarks-empty').waitFor();
    await page.getByTestId('lists-all').click();
    await row(page, 'Tax papers').getByTestId('bookmark-move').click();
    await page.getByTestId('move-select').click();
    await page.getByRole('option', { name: 'Work' }).click();
    await page.getByTestId('move-submit').click();
    await expect.poll(() => row(page, 'Tax papers').getByTestId('bookmark-list-chip').innerText()).toBe('Work');
    await page.getByTestId('bookmark-lists').getByText('Work').click();
    await expect.poll(() => page.getByTestId('bookmark-open').allInnerTexts()).toEqual(['Tax papers']);
    await shot(page, 'list');

    // On a later visit (this tab's share token gone) a wrong password returns to the list with the
    // message; the right one opens the share page.
    await page.evaluate(() => sessionStorage.clear());
    await page.reload();
    await row(page, 'Tax papers').getByTestId('bookmark-open').click();
    await page.getByTestId('bookmark-password-input').fill('Wrong-secret-1');
    await page.getByTestId('bookmark-password-submit').click();
    await page.getByTestId('bookmark-password-dialog').waitFor({ state: 'detached' });
    const failure = page.getByTestId('bookmark-open-error');
    await expect.poll(() => failure.getAttribute('data-error-code')).toBe('5403');
    expect(await failure.innerText()).toContain('“Tax papers” could not be opened');
    expect(page.url()).toMatch(/\/files\/lists\//);
    await shot(page, 'wrong-password');
    await row(page, 'Tax papers').getByTestId('bookmark-open').click();
    await page.getByTestId('bookmark-password-input').fill('Tax-secret-9');
    await page.getByTestId('bookmark-password-submit').click();
    await page.waitForURL(new RegExp(`/shares/${locked.shareLinkId}$`));
    await page.getByText('report.txt').first().waitFor();
    await shot(page, 'opened');

    // Deleting the list keeps its bookmark, in no list; deleting a bookmark removes it alone.
    await page.goto(`${app().url}/files/bookmarks`);
    await page.getByTestId('bookmark-lists').getByText('Work').click();
    await page.getByTestId('list-delete').click();
    await page.getByTestId('confirm-submit').click();
    await page.waitForURL(/\/files\/bookmarks$/);
    await expect.poll(() => page.getByTestId('bookmark-open').allInnerTexts()).toEqual(['Tax papers', 'Photos of the team']);
    expect(await page.getByTestId('bookmark-list-chip').count()).toBe(0);
    await row(page, 'Photos of the team').getByTestId('bookmark-delete').click();
    await page.getByTestId('confirm-submit').click();
    await expect.poll(() => page.getByTestId('bookmark-open').allInnerTexts()).toEqual(['Tax papers']);

    // files/bookmarks/<linkId> opens that bookmark: its password asked on the bookmarks page; cancel stays on the list.
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`${app().url}/files/bookmarks/${locked.shareLinkId}`);
    await page.getByTestId('bookmark-password-dialog').waitFor();
    await page.getByTestId('bookmark-password-dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(/\/files\/bookmarks$/);
    await page.context().close();
  });
});
