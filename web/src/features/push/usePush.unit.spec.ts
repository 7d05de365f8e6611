import { describe, expect, it } from 'vitest';
import { pushedCode } from './usePush';

describe('session-ending push events', () => {
  it('read the code the server sends, so a deleted account is told apart from a suspended one', () => {
    expect(pushedCode(new MessageEvent('user.suspended', { data: JSON.stringify({ code: 'USER_DELETED' }) }))).toBe('USER_DELETED');
    expect(pushedCode(new MessageEvent('user.suspended', { data: JSON.stringify({ code: 'USER_SUSPENDED' }) }))).toBe('USER_SUSPENDED');
  });

  it('have no code when the data is missing or not JSON', () => {
    expect(pushedCode(new MessageEvent('user.suspended', { data: '{}' }))).toBeNull();
    expect(pushedCode(new MessageEvent('user.suspended', { data: 'not json' }))).toBeNull();
    expect(pushedCode(new Event('user.suspended'))).toBeNull();
  });
});
