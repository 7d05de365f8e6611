import { describe, expect, it } from 'vitest';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

const { app, uniqueEmail, buyPlan, signUpConfirmed, signIn: apiSignIn, lastMail, newPage, webSignIn } = e2eSuite();

const PHONE = { width: 390, height: 844 };

describe('members', () => {
  it('a Group owner invites a person from the members screen; the person opens the mail, signs in and has joined; the owner suspends them (390 px phone and desktop)', async () => {
    const shot = stepShots('web-members');
    const owner = await signUpConfirmed(uniqueEmail('owner'));
    await buyPlan((await apiSignIn(owner.email)).http, owner.id, 300);
    const person = await signUpConfirmed(uniqueEmail('person'));

    const page = await newPage();
    await webSignIn(page, owner.email);
    await page.getByTestId('nav-members').click();
    await page.waitForURL(/\/members\/manage/);
    await expect
      .poll(
        async () =>
          (await page.getByTestId('members-error').count())
            ? page.getByTestId('members-error').innerText()
            : page.locator('[data-testid="member-row"]').count(),
        {
          timeout: 15_000,
        },
      )
      .toBe(1);
    expect(await page.getByTestId('members-seats').innerText()).toContain('0 of 5');

    // a wrong address refuses the whole invite, with the spec's message
    await page.getByTestId('invite-open').click();
    await page.getByTestId('invite-emails').fill(`${person.email}, not-an-address`);
    await page.getByTestId('invite-submit').click();
    await expect.poll(() => page.getByTestId('invite-error').innerText()).toContain('One or more e-mail addresses are invalid');
    await page.getByTestId('invite-emails').fill(person.email);
    await page.getByTestId('invite-quota').fill('5');
    await page.getByTestId('invite-submit').click();
    await expect.poll(() => page.getByTestId('members-notice').innerText()).toContain('1 invite sent.');
    const row = page.locator(`[data-testid="member-row"][data-email="${person.email}"]`);
    await expect.poll(() => row.getAttribute('data-status')).toBe('pending');
    await shot(page, 'invited');

    // the invited person follows the mail's link, signs in, and is told they joined
    const link = (await lastMail(person.email, 'You are invited to join a team on AXEL Drive')).text.match(/https?:\/\/\S+invite=\S+/)![0];
    expect(link).toContain('/signin?invite=');
    const invited = await newPage({ viewport: PHONE });
    await invited.goto(link);
    await invited.getByTestId('signin-email').fill(person.email);
    await invited.getByTestId('signin-password').fill('Secret-pass-1');
    await invited.getByTestId('signin-submit').click();
    await invited.waitForURL(/\/welcome/);
    await expect.poll(() => invited.getByText('You joined the team.').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await shot(invited, 'joined-phone');

    // the owner sees them joined, then suspends them
    await page.reload();
    await expect.poll(() => row.getAttribute('data-status')).toBe('joined');
    await row.getByTestId('member-suspend').click();
    await expect.poll(() => row.getAttribute('data-status')).toBe('suspended');
    expect(await row.getByTestId('member-status').innerText()).toBe('Suspended');

    // on a phone the table fits: the role sits under the address
    await page.setViewportSize(PHONE);
    await expectNoSideScroll(page);
    await shot(page, 'members-phone');

    // removal asks for the typed word
    await row.getByTestId('member-remove').click();
    expect(await page.getByTestId('remove-confirm').isDisabled()).toBe(true);
    await page.getByTestId('remove-typed').fill('remove');
    await page.getByTestId('remove-confirm').click();
    await expect.poll(() => page.locator('[data-testid="member-row"]').count()).toBe(1);
  });

  it('a Basic user has no members entry, and /members/manage sends them back to their files', async () => {
    const basic = await signUpConfirmed(uniqueEmail('basic'));
    const page = await newPage();
    await webSignIn(page, basic.email);
    expect(await page.getByTestId('nav-members').count()).toBe(0);
    await page.goto(`${app().url}/members/manage`);
    await page.waitForURL(/\/files\/storage/);
  });
});
