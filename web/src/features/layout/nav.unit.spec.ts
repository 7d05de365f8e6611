import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../routing/routeTable';
import { activeNav, cloudLockersTarget, NAV_ENTRIES } from './nav';

describe('the navigation', () => {
  it('leads only to screens the route table renders, each signed-in', () => {
    for (const entry of NAV_ENTRIES) {
      const match = matchRoute(entry.to);
      expect(match, entry.to).not.toBeNull();
      expect(match!.def.access, entry.to).toBe('auth');
      expect(match!.def.screen, entry.to).not.toBe('notAvailable');
    }
  });

  it('marks the entry a path belongs to, whatever its depth, case or trailing slash', () => {
    expect(activeNav('/welcome')).toBe('home');
    expect(activeNav('/files/storage/s1/f2')).toBe('files');
    expect(activeNav('/files/shares/')).toBe('shares');
    expect(activeNav('/files/shares/abc')).toBe('shares');
    expect(activeNav('/Files/Secure-Fetches/x')).toBe('secureFetch');
    expect(activeNav('/files/lists/l1')).toBe('bookmarks');
    expect(activeNav('/files/trash/s1')).toBe('trash');
    expect(activeNav('/wallet/send')).toBe('wallet');
    expect(activeNav('/storages/checkout')).toBe('plans');
    expect(activeNav('/files/cloudlocker/d1/f2')).toBe('cloudlockers');
    expect(activeNav('/esigns/drafts')).toBe('esign');
    expect(activeNav('/esigns/edit/2/p1')).toBe('esign');
  });

  it('leads to the one CloudLocker’s files, or to the list of them when there are several', () => {
    expect(cloudLockersTarget(['d1'])).toBe('/files/cloudlocker/d1');
    expect(matchRoute(cloudLockersTarget(['d1']))!.def.screen).toBe('cloudlocker');
    expect(cloudLockersTarget(['d1', 'd2'])).toBe('/settings?tab=cloudlockers');
  });

  it('marks nothing on a path of no entry, nor on a mere shared prefix', () => {
    expect(activeNav('/settings')).toBeNull();
    expect(activeNav('/storages/management')).toBeNull();
    expect(activeNav('/files/sharesx')).toBeNull();
    // a signer's link is not the owner's e-sign area
    expect(activeNav('/esigns/AbCdEfGhIjKlMnOpQrStUv')).toBeNull();
    expect(activeNav('/walletx')).toBeNull();
  });
});
