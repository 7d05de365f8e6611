import { describe, expect, it } from 'vitest';
import { daysBefore, eventsOf, monthWindow, readableBytes, usersWhere, userPage } from './drilldown';

describe('dashboard drill-downs', () => {
  it('lead to the users list filtered the same way, or to one user', () => {
    const url = usersWhere('/admin', { registrationApp: 'ios' });
    expect(url.startsWith('/admin/users?filter=')).toBe(true);
    expect(JSON.parse(new URLSearchParams(url.split('?')[1]).get('filter')!)).toEqual({ registrationApp: 'ios' });
    expect(userPage('/admin', 'a b')).toBe('/admin/users/a%20b/show');
  });

  it('lead to the events of the figure, in its time window', () => {
    const month = monthWindow('2026-02')!;
    expect(month.from.toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(month.to.toISOString()).toBe('2026-02-28T23:59:59.999Z');
    expect(monthWindow('February')).toBeNull();
    const url = new URL(eventsOf('/admin', ['ShareOpened', 'ShareDownloaded'], month), 'http://x');
    expect(url.pathname).toBe('/admin/activity');
    expect(url.searchParams.get('type')).toBe('ShareOpened,ShareDownloaded');
    expect(url.searchParams.get('from')).toBe('2026-02-01T00:00:00.000Z');
    expect(url.searchParams.get('to')).toBe('2026-02-28T23:59:59.999Z');
    expect(new URL(eventsOf('/admin', ['SignInSucceeded']), 'http://x').searchParams.has('from')).toBe(false);
    expect(daysBefore(new Date('2026-03-08T00:00:00Z'), 7).toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });

  it('read bytes in units', () => {
    expect(readableBytes(0)).toBe('0 B');
    expect(readableBytes(1536)).toBe('1.5 KB');
    expect(readableBytes(50 * 1024 ** 3)).toBe('50 GB');
  });
});
