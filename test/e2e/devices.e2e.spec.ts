import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CloudLockerStandIn } from '../../api/src/modules/devices/device-stand-in';
import { stepShots } from './browser';
import { expectNoSideScroll } from './helpers';
import { e2eSuite } from './suite';

const { app, signedInUser, newPage, webSignIn } = e2eSuite({ env: { RATE_LIMIT_FACTOR: '10' } });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

let seq = 0;
/** A CloudLocker as it leaves the factory (its own Ed25519 key, registered), checked in with its sizes: the device stand-in. */
const newDevice = async () => {
  seq++;
  const tail = `${(process.pid & 0xff).toString(16).padStart(2, '0')}:${seq.toString(16).padStart(2, '0')}`;
  const device = new CloudLockerStandIn({ baseUrl: app().url, serial: `AXCL-E2E-${process.pid}-${seq}`, mac: `02:00:00:00:${tail}`, now: app().clock.now });
  await device.register();
  await device.checkIn({ sizeUsed: 2_000_000_000, sizeTotal: 4_000_000_000 });
  return device;
};

const driveRow = (page: Page, serial: string) => page.locator(`[data-testid="drive-row"][data-serial="${serial}"]`);

describe('CloudLockers in the web app', () => {
  it('binds a CloudLocker from a phone (the device signs the code shown), sees it online, opens its storage, unbinds and deletes by typing delete', async () => {
    const shot = stepShots('web-devices');
    const owner = await signedInUser();
    const device = await newDevice();

    const page = await newPage({ viewport: PHONE });
    await webSignIn(page, owner.email);
    await page.goto(`${app().url}/settings?tab=cloudlockers`);
    await page.getByTestId('settings-cloudlockers').waitFor();
    await page.getByText('No CloudLocker is bound to your account yet', { exact: false }).waitFor();

    // serial and MAC are checked as typed
    await page.getByTestId('bind-open').click();
    await page.getByTestId('bind-serial').fill(device.serial.toLowerCase());
    await page.getByTestId('bind-mac').fill('02:00:00');
    await page.getByTestId('bind-serial').click();
    await page.getByText('This is not a MAC address').waitFor();
    await page.getByTestId('bind-mac').fill(device.mac.toUpperCase().replaceAll(':', '-'));
    await page.getByText('This is not a MAC address').waitFor({ state: 'detached' });
    await page.getByTestId('bind-submit').click();

    // the code is shown large and as text to copy, with the time left
    const code = (await page.getByTestId('bind-code').innerText()).trim();
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect(await page.getByTestId('bind-code-text').inputValue()).toBe(code);
    const left = Number(await page.getByTestId('bind-time-left').getAttribute('data-seconds'));
    expect(left).toBeGreaterThan(590);
    expect(left).toBeLessThanOrEqual(600);
    expect(await page.getByTestId('bind-time-left').innerText()).toMatch(/^Time left: (10:00|9:\d\d)$/);
    await expectNoSideScroll(page);
    await shot(page, 'code-phone');

    // the device signs the code it was given; the page sees the binding by itself
    expect((await device.claim(code)).bound).toBe(true);
    await page.getByTestId('bind-done').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('bind-done').innerText()).toContain(`CloudLocker ${device.serial} is bound to your account.`);
    await page.getByTestId('bind-close').click();

    const row = driveRow(page, device.serial);
    await expect.poll(() => row.getAttribute('data-status')).toBe('online');
    expect(await row.getByTestId('drive-status').innerText()).toBe('Online');
    expect(await row.getByTestId('drive-size').innerText()).toBe('2 GB of 4 GB used');
    expect(await row.innerText()).toContain('Bound ');
    await expectNoSideScroll(page);
    await shot(page, 'bound-phone');

    // its storage opens in the file browser, under the CloudLocker's own route
    const drive = (await owner.http.get(`/api/users/${owner.id}/drives/${device.deviceId}`)).body as { storageId: string };
    const folder = await owner.http.post(`/api/users/${owner.id}/storages/${drive.storageId}/items/`, { label: 'folder', name: 'Holiday photos' });
    expect(folder.status, JSON.stringify(folder.body)).toBe(201);
    await row.getByTestId('drive-open').click();
    await page.waitForURL(new RegExp(`/files/cloudlocker/${device.deviceId}$`));
    const listed = page.locator('[data-testid="file-row"][data-name="Holiday photos"]');
    await listed.waitFor();
    expect(await page.getByTestId('storage-usage').innerText()).toContain('4 GB');
    await listed.getByText('Holiday photos').click();
    await page.waitForURL(new RegExp(`/files/cloudlocker/${device.deviceId}/${folder.body.id}$`));
    await expect.poll(() => page.getByTestId('breadcrumbs').innerText()).toContain('Holiday photos');
    expect(await page.getByTestId('breadcrumbs').innerText()).toContain(`CloudLocker ${device.serial}`);
    await expectNoSideScroll(page);
    await shot(page, 'storage-phone');

    // on a desktop the navigation has a CloudLockers entry leading to the device's files
    await page.setViewportSize(DESKTOP);
    const entry = page.getByTestId('nav-cloudlockers');
    await entry.waitFor();
    expect(await entry.getAttribute('href')).toBe(`/files/cloudlocker/${device.deviceId}`);
    expect(await entry.getAttribute('aria-current')).toBe('page');

    // unbinding erases the device's files: it asks for the typed word
    await page.setViewportSize(PHONE);
    await page.goto(`${app().url}/settings?tab=cloudlockers`);
    await row.getByTestId('drive-unbind').click();
    const confirm = page.getByTestId('drive-confirm-submit');
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByTestId('drive-confirm-typed').fill('delet');
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByTestId('drive-confirm-typed').fill('delete');
    await shot(page, 'unbind-phone');
    await confirm.click();
    await row.waitFor({ state: 'detached' });
    await page
      .getByTestId('notice')
      .filter({ hasText: `CloudLocker ${device.serial} unbound.` })
      .waitFor();
    expect((await owner.http.get(`/api/users/${owner.id}/drives/`)).body.data).toEqual([]);
    expect((await owner.http.get(`/api/users/${owner.id}/storages/${drive.storageId}/items/`)).status).toBe(404);
    // its route now says so instead of showing files
    await page.goto(`${app().url}/files/cloudlocker/${device.deviceId}`);
    await page.getByText('This CloudLocker is not bound to your account.').waitFor();
    await page.setViewportSize(DESKTOP);
    await page.getByTestId('app-nav').waitFor();
    expect(await page.getByTestId('nav-cloudlockers').count()).toBe(0);

    // a second device, bound again the same way, is deleted with the typed word
    await page.setViewportSize(PHONE);
    const second = await newDevice();
    await page.goto(`${app().url}/settings?tab=cloudlockers`);
    await page.getByTestId('bind-open').click();
    await page.getByTestId('bind-serial').fill(second.serial);
    await page.getByTestId('bind-mac').fill(second.mac);
    await page.getByTestId('bind-submit').click();
    await second.claim((await page.getByTestId('bind-code').innerText()).trim());
    await page.getByTestId('bind-done').waitFor({ timeout: 15_000 });
    await page.getByTestId('bind-close').click();
    const secondRow = driveRow(page, second.serial);
    await secondRow.getByTestId('drive-delete').click();
    await page.getByTestId('drive-confirm-typed').fill('DELETE');
    await page.getByTestId('drive-confirm-submit').click();
    await secondRow.waitFor({ state: 'detached' });
    await page
      .getByTestId('notice')
      .filter({ hasText: `CloudLocker ${second.serial} deleted.` })
      .waitFor();
  });

  it('a wrong serial and MAC pair is refused readably, and a code the device never signs expires with a way to try again', async () => {
    const owner = await signedInUser();
    const device = await newDevice();
    const page = await newPage({ viewport: PHONE });
    await webSignIn(page, owner.email);
    await page.goto(`${app().url}/settings?tab=cloudlockers`);
    await page.getByTestId('bind-open').click();
    await page.getByTestId('bind-serial').fill(device.serial);
    await page.getByTestId('bind-mac').fill('02:ff:ff:ff:ff:ff');
    await page.getByTestId('bind-submit').click();
    await expect.poll(() => page.getByTestId('bind-error').innerText()).toBe('No CloudLocker with this serial number and MAC address');

    // the browser's clock runs ahead past the claim window: the page says the code expired
    await page.clock.install();
    await page.getByTestId('bind-mac').fill(device.mac);
    await page.getByTestId('bind-submit').click();
    await page.getByTestId('bind-code').waitFor();
    await page.clock.fastForward(10 * 60_000 + 5_000);
    await page.getByTestId('bind-expired').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('bind-expired').innerText()).toBe('The code expired before the device signed it. Start again to get a new code.');
    await page.getByTestId('bind-retry').click();
    await page.getByTestId('bind-serial').waitFor();
  });
});

describe('backup devices and region in settings', () => {
  it('shows backup devices; trashing an active backup’s folder says to stop the backup first; stopping it lets it go; the region choice persists', async () => {
    const shot = stepShots('web-backups');
    const owner = await signedInUser();
    const backup = await owner.http.post(`/api/users/${owner.id}/backups/`, { name: 'Work laptop', platform: 'linux', paths: ['/home/ann/Documents'] });
    expect(backup.status, JSON.stringify(backup.body)).toBe(201);

    const page = await newPage({ viewport: PHONE });
    await webSignIn(page, owner.email);

    // the backup's folder cannot be trashed while the backup runs: the page says why
    await page.goto(`${app().url}/files/storage/${owner.storageId}`);
    const folder = page.locator('[data-testid="file-row"][data-name="Backup Work laptop"]');
    await folder.getByRole('checkbox').check();
    await page.getByTestId('action-trash').click();
    await expect
      .poll(() => page.getByTestId('action-error').innerText(), { timeout: 15_000 })
      .toBe('Backup is active for this folder: stop the backup first (Settings, Backup and region)');
    await shot(page, 'backup-active-phone');

    // settings list it, and stop it
    await page.goto(`${app().url}/settings?tab=backup`);
    const row = page.locator('[data-testid="backup-row"][data-name="Work laptop"]');
    await expect.poll(() => row.getAttribute('data-status')).toBe('active');
    expect(await row.innerText()).toContain('/home/ann/Documents');
    expect(await row.innerText()).toContain('Linux');
    await expectNoSideScroll(page);
    await row.getByTestId('backup-toggle').click();
    await expect.poll(() => row.getAttribute('data-status')).toBe('stopped');
    await page.getByTestId('notice').filter({ hasText: 'Backup of Work laptop stopped. Its folder can now be moved or deleted.' }).waitFor();
    await shot(page, 'backups-phone');

    // the region of new uploads, among the spec's regions, kept across a reload
    const select = page.getByTestId('region-select');
    await expect.poll(() => select.inputValue()).toBe('automatic');
    expect(await select.locator('option').allInnerTexts()).toEqual(['Automatic', 'US', 'EU', 'Asia', 'Africa (African Union)']);
    await select.selectOption('eu');
    await page.getByTestId('notice').filter({ hasText: 'Region saved: EU.' }).waitFor();
    await page.reload();
    await expect.poll(() => page.getByTestId('region-select').inputValue()).toBe('eu');
    expect((await owner.http.get(`/api/users/${owner.id}/region`)).body.region).toBe('eu');

    // the trash now goes through
    await page.goto(`${app().url}/files/storage/${owner.storageId}`);
    await folder.getByRole('checkbox').check();
    await page.getByTestId('action-trash').click();
    await folder.waitFor({ state: 'detached' });
  });

  it('reads in the account’s language: Spanish, Portuguese and Dutch', async () => {
    const expected = {
      es_mx: { tab: 'Respaldo y región', region: 'África (Unión Africana)', bind: 'Vincular un CloudLocker' },
      pt_br: { tab: 'Backup e região', region: 'África (União Africana)', bind: 'Vincular um CloudLocker' },
      nl: { tab: 'Back-up en regio', region: 'Afrika (Afrikaanse Unie)', bind: 'Een CloudLocker koppelen' },
    };
    for (const [locale, texts] of Object.entries(expected)) {
      const user = await signedInUser();
      expect((await user.http.put(`/api/users/${user.id}/account`, { locale })).status).toBe(200);
      const page = await newPage({ viewport: PHONE });
      await webSignIn(page, user.email);
      await page.goto(`${app().url}/settings?tab=backup`);
      await expect.poll(() => page.getByTestId('settings-tab-backup').textContent()).toBe(texts.tab);
      await expect.poll(() => page.getByTestId('region-select').locator('option[value="africa"]').innerText()).toBe(texts.region);
      await page.getByTestId('settings-tab-cloudlockers').click();
      expect(await page.getByTestId('bind-open').textContent()).toBe(texts.bind);
      await page.close();
    }
  });
});
