import { describe, expect, it } from 'vitest';
import {
  deniedWarningDue,
  deniedWarningShown,
  disablePush,
  enablePush,
  PUSH_WORKER_URL,
  pushUnavailableForPlan,
  vapidKeyBytes,
  type PushPlatform,
  type PushServer,
} from './webPush';

const SUBSCRIPTION: PushSubscriptionJSON = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) } };
// 65 bytes, as a VAPID public key is, in URL-safe base64 without padding
const VAPID = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';

/** A browser whose push service answers at once; `log` is what the product asked of it and of the server. */
const fakes = (opts: { permission?: NotificationPermission; existing?: boolean; bound?: boolean; supported?: boolean } = {}) => {
  const log: unknown[] = [];
  let current: PushSubscription | null = null;
  const subscription = {
    toJSON: () => SUBSCRIPTION,
    unsubscribe: async () => {
      log.push('unsubscribe');
      current = null;
      return true;
    },
  } as unknown as PushSubscription;
  if (opts.existing) current = subscription;
  const pushManager = {
    getSubscription: async () => current,
    subscribe: async (options: PushSubscriptionOptionsInit) => {
      log.push({ subscribe: { userVisibleOnly: options.userVisibleOnly, key: Array.from(options.applicationServerKey as Uint8Array).length } });
      current = subscription;
      return subscription;
    },
  } as unknown as PushManager;
  const platform: PushPlatform = {
    supported: () => opts.supported ?? true,
    permission: () => opts.permission ?? 'default',
    requestPermission: async () => {
      log.push('ask permission');
      return opts.permission ?? 'granted';
    },
    register: async (url) => {
      log.push({ register: url });
      return { pushManager };
    },
    registration: async () => ({ pushManager }),
  };
  const server: PushServer = {
    vapidPublicKey: async () => {
      log.push('vapid key');
      return VAPID;
    },
    bind: async (userId, s) => {
      log.push({ bind: userId, endpoint: s.endpoint });
      return { bound: opts.bound ?? true };
    },
    unbind: async (userId, s) => {
      log.push({ unbind: userId, endpoint: s.endpoint });
    },
  };
  return { platform, server, log };
};

describe('turning browser notifications on', () => {
  it("asks permission, subscribes through the service worker with the server's VAPID key, and binds the subscription to the account", async () => {
    const { platform, server, log } = fakes();
    expect(await enablePush('u1', platform, server)).toBe('on');
    expect(log).toEqual([
      'ask permission',
      { register: PUSH_WORKER_URL },
      'vapid key',
      { subscribe: { userVisibleOnly: true, key: 65 } },
      { bind: 'u1', endpoint: SUBSCRIPTION.endpoint },
    ]);
  });

  it("reuses this browser's subscription instead of making a second one", async () => {
    const { platform, server, log } = fakes({ existing: true });
    expect(await enablePush('u1', platform, server)).toBe('on');
    expect(log).not.toContainEqual(expect.objectContaining({ subscribe: expect.anything() }));
    expect(log).toContainEqual({ bind: 'u1', endpoint: SUBSCRIPTION.endpoint });
  });

  it('stops when the permission is refused, subscribing and binding nothing', async () => {
    const { platform, server, log } = fakes({ permission: 'denied' });
    expect(await enablePush('u1', platform, server)).toBe('denied');
    expect(log).toEqual(['ask permission']);
  });

  it('says so on a browser without push, asking nothing', async () => {
    const { platform, server, log } = fakes({ supported: false });
    expect(await enablePush('u1', platform, server)).toBe('unsupported');
    expect(log).toEqual([]);
  });

  it('drops the subscription again when the server binds none (an unpaid account)', async () => {
    const { platform, server, log } = fakes({ bound: false });
    expect(await enablePush('u1', platform, server)).toBe('unpaid');
    expect(log.at(-1)).toBe('unsubscribe');
  });

  it('turning it off unbinds the subscription from the account, then drops it', async () => {
    const { platform, server, log } = fakes({ existing: true, permission: 'granted' });
    await disablePush('u1', platform, server);
    expect(log).toEqual([{ unbind: 'u1', endpoint: SUBSCRIPTION.endpoint }, 'unsubscribe']);
  });
});

describe('around the switch', () => {
  it('decodes the URL-safe VAPID key to its 65 bytes, the first being 0x04 (an uncompressed point)', () => {
    const bytes = vapidKeyBytes(VAPID);
    expect([bytes.length, bytes[0]]).toEqual([65, 4]);
  });

  it('is explained instead of offered to unpaid and abandoned accounts', () => {
    expect(pushUnavailableForPlan({ status: 'active', isUnpaidUser: false })).toBe(false);
    expect(pushUnavailableForPlan({ status: 'unpaid', isUnpaidUser: false })).toBe(true);
    expect(pushUnavailableForPlan({ status: 'abandoned', isUnpaidUser: false })).toBe(true);
    expect(pushUnavailableForPlan({ status: 'active', isUnpaidUser: true })).toBe(true);
  });

  it('warns of a refused permission at most once per 7 days', () => {
    const doc = { cookie: '' };
    expect(deniedWarningDue('other=1')).toBe(true);
    deniedWarningShown(doc);
    expect(doc.cookie).toMatch(/^axel_push_warning=1; max-age=604800; path=\//);
    expect(deniedWarningDue('other=1; axel_push_warning=1')).toBe(false);
  });
});
