import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { HttpClient } from '../../api/src/testing/harness';

/** Fills in the web app's sign-in form and submits it, waiting for nothing (a code step or another page may follow). */
export const submitSignIn = async (page: Page, baseUrl: string, email: string, password: string) => {
  await page.goto(`${baseUrl}/signin`);
  await page.getByTestId('signin-email').fill(email);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
};

/** Signs in through the web app's form and waits for the welcome page. */
export const webSignIn = async (page: Page, baseUrl: string, email: string, password: string) => {
  await submitSignIn(page, baseUrl, email, password);
  await page.waitForURL(/\/welcome/);
};

/** Signs in to the staff console's login page and waits for its dashboard. */
export const consoleSignIn = async (page: Page, baseUrl: string, email: string, password: string) => {
  await page.goto(`${baseUrl}/admin`);
  await page
    .getByLabel(/e-?mail/i)
    .first()
    .fill(email);
  await page
    .getByLabel(/password/i)
    .first()
    .fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/admin\/dashboard/);
};

/** Staff steps over the API: a signed-in client, and accounts an administrator creates (one tag per test file). */
export const staffHelpers = (baseUrl: () => string, password: string) => {
  const tag = Date.now().toString(36);
  const signedIn = async (email: string, pass = password, userAgent?: string) => {
    const http = new HttpClient(baseUrl(), userAgent);
    const res = await http.post('/api/sessions/', { email, password: pass });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return http;
  };
  const createAccount = async (by: HttpClient, name: string, role: string) => {
    const email = `${name}.${tag}@example.com`;
    const res = await by.post('/api/admin/users/', { email, password, passwordConfirmation: password, role });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.id as string, email };
  };
  return { tag, signedIn, createAccount };
};

/**
 * Nothing wider than the viewport: a phone reads the page without scrolling sideways. Right after a
 * viewport change the page is given up to 3 s to lay itself out again (media queries re-render).
 */
export const expectNoSideScroll = async (page: Page) => {
  await page.waitForFunction('document.documentElement.scrollWidth <= window.innerWidth', null, { timeout: 3000 }).catch(() => undefined);
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  // on failure, name the elements reaching past the right edge, so the message says what to mend
  const culprits =
    overflow > 0
      ? await page.evaluate<string[]>(`[...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
          .slice(-5)
          .map((e) => e.tagName.toLowerCase() + (e.getAttribute('data-testid') ? '[' + e.getAttribute('data-testid') + ']' : '') + ' ' + Math.round(e.getBoundingClientRect().right) + 'px')`)
      : [];
  expect(overflow, `wider than the viewport: ${culprits.join(', ')}`).toBeLessThanOrEqual(0);
};
