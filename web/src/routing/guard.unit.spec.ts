import { describe, expect, it } from 'vitest';
import { DEFAULT_EXPLORER_BASE_URL, guard, mainHostSignIn, type GuardUser } from './guard';
import { matchRoute } from './routeTable';

const member: GuardUser = {
  role: 'user',
  status: 'active',
  isTeamOwner: false,
  isCoAdmin: false,
  isProfessional: false,
  isBusOwner: false,
  isGroupOwner: false,
  isAppVisible: false,
};
const as = (patch: Partial<GuardUser>): GuardUser => ({ ...member, ...patch });

describe('navigation guard', () => {
  it('blocks every navigation while offline, signed in or not', () => {
    expect(guard({ path: '/settings', user: member, online: false })).toEqual({ action: 'block', reason: 'offline' });
    expect(guard({ path: '/signin', user: null, online: false })).toEqual({ action: 'block', reason: 'offline' });
  });

  it('sends / to /welcome', () => {
    expect(guard({ path: '/', user: member, online: true })).toEqual({ action: 'redirect', to: '/welcome' });
  });

  it('sends /login to /signin, keeping the query', () => {
    expect(guard({ path: '/login', user: null, online: true })).toEqual({ action: 'redirect', to: '/signin' });
    expect(guard({ path: '/login', search: '?redirect=%2Fsettings', user: null, online: true })).toEqual({
      action: 'redirect',
      to: '/signin?redirect=%2Fsettings',
    });
  });

  it('sends /wallet to /wallet/transactions', () => {
    expect(guard({ path: '/wallet', user: member, online: true })).toEqual({ action: 'redirect', to: '/wallet/transactions' });
  });

  it('sends /transaction/:id with an alphanumeric id of 20+ characters to the external explorer, without sign-in', () => {
    const id = 'a1B2c3D4e5F6g7H8i9J0';
    expect(guard({ path: `/transaction/${id}`, user: null, online: true })).toEqual({
      action: 'redirect',
      to: `${DEFAULT_EXPLORER_BASE_URL}${id}`,
      external: true,
    });
    expect(guard({ path: `/transaction/${id}`, user: null, online: true, explorerBaseUrl: 'https://x.test/tx/' })).toMatchObject({
      to: `https://x.test/tx/${id}`,
    });
    expect(guard({ path: '/transaction/short1234', user: null, online: true })).toEqual({ action: 'allow' });
    expect(guard({ path: '/transaction/search', user: null, online: true })).toEqual({ action: 'allow' });
    expect(guard({ path: '/transaction/has-dash-not-alphanumeric-xx', user: null, online: true })).toEqual({ action: 'allow' });
  });

  it('sends a visitor without session on a sign-in route to /signin with the wanted path', () => {
    expect(guard({ path: '/settings', user: null, online: true })).toEqual({ action: 'redirect', to: '/signin?redirect=%2Fsettings' });
    expect(guard({ path: '/files/storage/s1/f2', search: '?x=1', user: null, online: true })).toEqual({
      action: 'redirect',
      to: `/signin?redirect=${encodeURIComponent('/files/storage/s1/f2?x=1')}`,
    });
    expect(guard({ path: '/wallet/send', user: null, online: true })).toMatchObject({ action: 'redirect', to: '/signin?redirect=%2Fwallet%2Fsend' });
  });

  it('sends a visitor whose account was just deleted from a sign-in route to /deleted-acc, not to sign-in', () => {
    for (const path of ['/settings', '/welcome', '/files/storage']) {
      expect(guard({ path, user: null, online: true, signedOutReason: 'USER_DELETED' }), path).toEqual({ action: 'redirect', to: '/deleted-acc' });
    }
    expect(guard({ path: '/deleted-acc', user: null, online: true, signedOutReason: 'USER_DELETED' })).toEqual({ action: 'allow' });
    expect(guard({ path: '/signin', user: null, online: true, signedOutReason: 'USER_DELETED' })).toEqual({ action: 'allow' });
    expect(guard({ path: '/settings', user: null, online: true, signedOutReason: 'SESSION_INACTIVE' })).toEqual({
      action: 'redirect',
      to: '/signin?redirect=%2Fsettings',
    });
  });

  it('lets a visitor without session open public routes', () => {
    for (const path of [
      '/signin',
      '/signup',
      '/register',
      '/resend',
      '/reset-password',
      '/reset-password/tok',
      '/reset2fa',
      '/reset2fa/',
      '/email-confirmation/tok',
      '/change-email-confirmations/tok',
      '/deleted-acc',
      '/storages/result',
      '/shares/abc',
      '/shares/abc/entries/x/y',
      '/private-share/abc',
      '/shares_shared/abc/entries/h',
      '/secure-fetch/abc',
      '/secure-fetches/abc',
      '/slack-auth/U1',
      '/esign/1',
      '/esigns/link1',
      '/receiver/signing/link1',
      '/app/clio',
      '/app/clio/auth',
      '/app/dropbox/auth',
    ]) {
      expect(guard({ path, user: null, online: true }), path).toEqual({ action: 'allow' });
    }
  });

  it('does not send a visitor without session on an admin path to sign-in', () => {
    expect(guard({ path: '/admin', user: null, online: true })).toEqual({ action: 'allow' });
    expect(guard({ path: '/admin/users', user: null, online: true })).toEqual({ action: 'allow' });
  });

  it('on a custom host in production sends sign-in to the main host with the redirect and from=customOrigin', () => {
    const result = guard({ path: '/settings', user: null, online: true, isCustomHost: true, mainOrigin: 'https://app.example.com' });
    expect(result).toEqual({
      action: 'redirect',
      to: 'https://app.example.com/signin?redirect=%2Fsettings&from=customOrigin',
      external: true,
    });
    expect(guard({ path: '/files/storage', search: '?x=1', user: null, online: true, isCustomHost: true, mainOrigin: 'https://app.example.com/' })).toEqual({
      action: 'redirect',
      to: `https://app.example.com/signin?redirect=${encodeURIComponent('/files/storage?x=1')}&from=customOrigin`,
      external: true,
    });
    // the custom host's own sign-in page shows the team's branding; its button goes to the main host
    expect(
      guard({ path: '/signin', search: '?redirect=%2Fsettings', user: null, online: true, isCustomHost: true, mainOrigin: 'https://app.example.com' }),
    ).toEqual({
      action: 'allow',
    });
    expect(mainHostSignIn('https://app.example.com', '?redirect=%2Fsettings')).toBe('https://app.example.com/signin?redirect=%2Fsettings&from=customOrigin');
    expect(mainHostSignIn('https://app.example.com/')).toBe('https://app.example.com/signin?from=customOrigin');
  });

  it('sends abandoned and unpaid users to /storages/plans except on shares, plans, checkout, payment result and e-mail change routes', () => {
    for (const status of ['abandoned', 'unpaid'] as const) {
      const user = as({ status });
      expect(guard({ path: '/welcome', user, online: true })).toEqual({ action: 'redirect', to: '/storages/plans' });
      expect(guard({ path: '/settings', user, online: true })).toEqual({ action: 'redirect', to: '/storages/plans' });
      for (const path of ['/storages/plans', '/storages/checkout', '/storages/result', '/shares/abc', '/private-share/abc', '/change-email-confirmations/t']) {
        expect(guard({ path, user, online: true }), `${status} ${path}`).toEqual({ action: 'allow' });
      }
    }
    expect(guard({ path: '/welcome', user: as({ status: 'active' }), online: true })).toEqual({ action: 'allow' });
  });

  it('feeds the unpaid rule from billing: a user whose grace ended is sent to the plans, a user still in grace is not', () => {
    const ended = as({ status: 'active', isUnpaidUser: true });
    expect(guard({ path: '/welcome', user: ended, online: true })).toEqual({ action: 'redirect', to: '/storages/plans' });
    expect(guard({ path: '/storages/checkout', user: ended, online: true })).toEqual({ action: 'allow' });
    expect(guard({ path: '/storages/result', user: ended, online: true })).toEqual({ action: 'allow' });
    const inGrace = { ...as({ status: 'active', isUnpaidUser: false }), isGraceUnpaidUser: true };
    expect(guard({ path: '/welcome', user: inGrace, online: true })).toEqual({ action: 'allow' });
  });

  it('lets only team owners, co-admins, professionals, business owners and group owners into /members, others go to /files/storage', () => {
    expect(guard({ path: '/members/manage', user: member, online: true })).toEqual({ action: 'redirect', to: '/files/storage' });
    for (const flag of ['isTeamOwner', 'isCoAdmin', 'isProfessional', 'isBusOwner', 'isGroupOwner'] as const) {
      expect(guard({ path: '/members/activity', user: as({ [flag]: true }), online: true }), flag).toEqual({ action: 'allow' });
    }
  });

  it('lets only admin, super_admin and financial_admin into /admin, others go to /welcome', () => {
    expect(guard({ path: '/admin/users', user: member, online: true })).toEqual({ action: 'redirect', to: '/welcome' });
    for (const role of ['admin', 'super_admin', 'financial_admin'] as const) {
      expect(guard({ path: '/admin/users', user: as({ role }), online: true }), role).toEqual({ action: 'allow' });
    }
    expect(guard({ path: '/admin', user: as({ role: 'admin' }), online: true })).toEqual({ action: 'redirect', to: '/admin/dashboard' });
  });

  it('lets only users with the apps-visible flag into /manage-apps, others go to /welcome', () => {
    expect(guard({ path: '/manage-apps', user: member, online: true })).toEqual({ action: 'redirect', to: '/welcome' });
    expect(guard({ path: '/manage-apps', user: as({ isAppVisible: true }), online: true })).toEqual({ action: 'allow' });
  });

  it('lets unknown paths through to the 404 page, with or without session', () => {
    expect(guard({ path: '/no/such/page', user: null, online: true })).toEqual({ action: 'allow' });
    expect(matchRoute('/no/such/page')).toBeNull();
  });

  it('lets a signed-in active user open any sign-in route', () => {
    for (const path of ['/welcome', '/settings', '/files/storage', '/files/trash/s1', '/esigns/list', '/wallet/transactions', '/axel-unlocker']) {
      expect(guard({ path, user: member, online: true }), path).toEqual({ action: 'allow' });
    }
  });
});

describe('route table', () => {
  it('prefers owner e-sign screens over the receiver pattern', () => {
    expect(matchRoute('/esigns/list')?.def.access).toBe('auth');
    expect(matchRoute('/esigns/view/1/p1')?.def.access).toBe('auth');
    expect(matchRoute('/esigns/link1/doc2')?.def.access).toBe('public');
  });

  it('reads optional segments and the rest of the path', () => {
    expect(matchRoute('/files/storage/s1/f1/a/b')?.params).toEqual({ storageId: 's1', id: 'f1', '*': 'a/b' });
    expect(matchRoute('/files/storage')?.params).toEqual({ storageId: undefined, id: undefined, '*': undefined });
    expect(matchRoute('/reset-password/t0k')?.params.token).toBe('t0k');
  });
});
