import { describe, expect, it } from 'vitest';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

const ROOT = { email: 'root@axel.test', password: 'Root-pass-123' };

const { app, browser, signedIn, createAccount, consoleSignIn } = e2eSuite({ admin: ROOT, env: { GRAFANA_URL: 'https://grafana.example.org/d/axel-drive' } });

describe('operations in the console', () => {
  it('gives a user database access from their page, lists them under Databases, and charts the dashboards with figures that open what is behind them', async () => {
    const shot = stepShots('operations');
    const root = await signedIn(ROOT.email, ROOT.password);
    const customer = await createAccount(root, 'dbs-customer', 'user');
    await signedIn(customer.email);

    const context = await browser().newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await consoleSignIn(page, ROOT.email, ROOT.password);

    await page.getByTestId('menu-databases').click();
    await page.getByTestId('databases-empty').waitFor();

    await page.goto(`${app().url}/admin/users/${customer.id}/show`);
    await page.getByTestId('user-dbs-activate').click();
    await page.getByTestId('user-dbs-cancel').waitFor();
    await shot(page, 'user-with-dbs-access');

    await page.getByTestId('menu-databases').click();
    const row = page.getByTestId('databases-table').locator('tr', { hasText: customer.email });
    await row.waitFor();
    expect(await row.innerText()).toContain(ROOT.email);
    await shot(page, 'databases');

    await page.getByTestId('menu-drive-connect').click();
    await page.getByTestId('connect-dashboard').waitFor();
    expect(await page.getByTestId('connect-dbs').innerText()).toBe('1');
    expect(Number(await page.getByTestId('connect-signins-day').innerText())).toBeGreaterThanOrEqual(2);
    await page.getByTestId('connect-apps').locator('svg').first().waitFor();
    await shot(page, 'drive-connect');
    // the figure opens the users behind it
    await page.getByTestId('connect-dbs').click();
    await page.getByTestId('databases-table').locator('tr', { hasText: customer.email }).waitFor();

    await page.getByTestId('menu-website-hosting').click();
    await page.getByTestId('hosting-dashboard').waitFor();
    expect(await page.getByTestId('hosting-active').innerText()).toBe('0');
    await shot(page, 'website-hosting');
    await page.getByTestId('hosting-opens').click();
    await page.waitForURL(/\/admin\/activity\?type=ShareOpened/);

    await page.getByTestId('menu-grafana').click();
    expect(await page.getByTestId('grafana-open').getAttribute('href')).toBe('https://grafana.example.org/d/axel-drive');

    // a phone reads the dashboards without scrolling sideways
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${app().url}/admin/drive-connect`);
    await page.getByTestId('connect-dashboard').waitFor();
    await expectNoSideScroll(page);
    await page.goto(`${app().url}/admin/website-hosting`);
    await page.getByTestId('hosting-dashboard').waitFor();
    await expectNoSideScroll(page);
    await shot(page, 'website-hosting-phone');
    await context.close();
  });
});
