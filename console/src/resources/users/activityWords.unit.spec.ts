import { describe, expect, it } from 'vitest';
import { i18nProvider } from '../../i18n/i18nProvider';
import { describeActivity, describeDevice, humanizeEventType, parseUserAgent, type ActivityEntry } from './activityWords';

const translate = (key: string, options?: Record<string, unknown>) => i18nProvider.translate(key, options);

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const EDGE_WINDOWS = `${CHROME_MAC.replace('Macintosh; Intel Mac OS X 10_15_7', 'Windows NT 10.0; Win64; x64')} Edg/126.0.0.0`;
const CHROME_ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

const USER = 'user-1';
const entry = (event: string, data: Record<string, unknown> = {}, extra: Partial<ActivityEntry> = {}): ActivityEntry => ({
  id: 'e1',
  event,
  client: 'web',
  ip: '203.0.113.9',
  userAgent: null,
  actorId: USER,
  actorKind: 'user',
  actorEmail: 'ana@example.com',
  data,
  timestamp: '2026-06-01T12:00:00.000Z',
  ...extra,
});

describe('user agents in words', () => {
  it('names the browser and system', () => {
    expect(parseUserAgent(FIREFOX_WINDOWS)).toEqual({ browser: 'Firefox', system: 'Windows' });
    expect(parseUserAgent(CHROME_MAC)).toEqual({ browser: 'Chrome', system: 'macOS' });
    expect(parseUserAgent(SAFARI_IPHONE)).toEqual({ browser: 'Safari', system: 'iOS' });
    expect(parseUserAgent(EDGE_WINDOWS)).toEqual({ browser: 'Edge', system: 'Windows' });
    expect(parseUserAgent(CHROME_ANDROID)).toEqual({ browser: 'Chrome', system: 'Android' });
  });

  it('says so when it knows neither', () => {
    expect(describeDevice('curl/8.5.0', translate)).toBe('an unknown browser');
    expect(describeDevice(null, translate)).toBe('an unknown browser');
    expect(describeDevice(FIREFOX_WINDOWS, translate)).toBe('Firefox on Windows');
  });
});

describe('activity in words', () => {
  it('reads sign-ins with their device, and the user acting on their own account names no actor', () => {
    expect(describeActivity(entry('SignInSucceeded', { userAgent: FIREFOX_WINDOWS }), USER, translate)).toBe('Signed in from Firefox on Windows');
    expect(describeActivity(entry('SignInFailed', { reason: 'password', failedAttempts: 2 }, { userAgent: CHROME_MAC }), USER, translate)).toBe(
      'Sign-in failed: wrong password (attempt 2) from Chrome on macOS',
    );
    expect(describeActivity(entry('PasswordChanged', { via: 'settings' }), USER, translate)).toBe('Password changed');
  });

  it('names the staff member by e-mail', () => {
    const staff = { actorId: 'staff-9', actorKind: 'staff', actorEmail: 'admin@x.com' };
    expect(describeActivity(entry('UserSuspended', { reason: null }, staff), USER, translate)).toBe('Suspended by admin@x.com');
    expect(describeActivity(entry('UserBlocked', { until: null }, staff), USER, translate)).toBe('Blocked by admin@x.com');
    expect(describeActivity(entry('RoleChanged', { from: 'user', to: 'financial_admin' }, staff), USER, translate)).toBe(
      'Role changed from User to Financial admin by admin@x.com',
    );
    expect(describeActivity(entry('UserSuspended', {}, { ...staff, actorEmail: null }), USER, translate)).toBe('Suspended by staff-9');
    expect(describeActivity(entry('PlanChangedByStaff', { previousPlan: 'Basic', plan: 'Enterprise', productId: 1001 }, staff), USER, translate)).toBe(
      'Plan changed from Basic to Enterprise by admin@x.com',
    );
  });

  it('names processes and the system', () => {
    const purge = entry('AccountPurged', {}, { actorId: `account-deletion:${USER}`, actorKind: 'process', actorEmail: null });
    expect(describeActivity(purge, USER, translate)).toBe('Personal data purged by the account deletion process');
    expect(describeActivity(entry('EmailConfirmed', {}, { actorKind: 'anonymous', actorId: null }), USER, translate)).toBe('E-mail address confirmed');
  });

  it('reads data-dependent variants', () => {
    expect(describeActivity(entry('TwoFactorEnabled', { method: 'totp' }), USER, translate)).toBe('Two-factor sign-in turned on (authenticator app)');
    expect(describeActivity(entry('EmailChanged', { oldEmail: 'a@x.com', newEmail: 'b@x.com' }), USER, translate)).toBe('E-mail changed from a@x.com to b@x.com');
    expect(describeActivity(entry('PasswordChanged', { via: 'reset' }), USER, translate)).toBe('Password changed through a reset link');
  });

  it('an event this console does not know yet still reads as words', () => {
    expect(humanizeEventType('TotpStepAccepted')).toBe('Totp step accepted');
    expect(describeActivity(entry('DeviceTrustGranted'), USER, translate)).toBe('Device trust granted');
  });
});
