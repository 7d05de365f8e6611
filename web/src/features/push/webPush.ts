import { api } from '../../api/client';
import type { UserInfo } from '../../api/types';

/** The service worker that shows pushed notifications (web/public/push-sw.js). */
export const PUSH_WORKER_URL = '/push-sw.js';
/** The permission-denied warning shows at most once per 7 days (spec §8, §9), remembered in this cookie. */
export const PUSH_WARNING_COOKIE = 'axel_push_warning';
export const PUSH_WARNING_DAYS = 7;

/** What the browser offers; injected so the subscription path can be tested without a browser's push service. */
export interface PushPlatform {
  supported(): boolean;
  permission(): NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  register(url: string): Promise<Pick<ServiceWorkerRegistration, 'pushManager'>>;
  registration(): Promise<Pick<ServiceWorkerRegistration, 'pushManager'> | null>;
}

export interface PushServer {
  vapidPublicKey(): Promise<string>;
  bind(userId: string, subscription: PushSubscriptionJSON): Promise<{ bound: boolean }>;
  unbind(userId: string, subscription: PushSubscriptionJSON): Promise<void>;
}

export const browserPlatform: PushPlatform = {
  supported: () => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window,
  permission: () => Notification.permission,
  requestPermission: () => Notification.requestPermission(),
  register: async (url) => {
    await navigator.serviceWorker.register(url);
    return navigator.serviceWorker.ready;
  },
  registration: async () => (await navigator.serviceWorker.getRegistration(PUSH_WORKER_URL)) ?? null,
};

const fcmTokens = (userId: string) => `/users/${encodeURIComponent(userId)}/fcm-tokens/`;

export const pushServer: PushServer = {
  vapidPublicKey: async () => (await api.get<{ publicKey: string }>('/push/vapid-public-key')).publicKey,
  bind: (userId, subscription) => api.post<{ bound: boolean }>(fcmTokens(userId), { fcmToken: subscription }),
  unbind: (userId, subscription) => api.delete<void>(fcmTokens(userId), { fcmToken: subscription }),
};

/** The VAPID key as pushManager.subscribe wants it: URL-safe base64 decoded to bytes. */
export const vapidKeyBytes = (base64url: string): Uint8Array<ArrayBuffer> => {
  const padded = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
};

/** Users whose plan is unpaid get no push binding (spec §6): the switch is explained instead. */
export const pushUnavailableForPlan = (user: Pick<UserInfo, 'status' | 'isUnpaidUser'>) =>
  user.isUnpaidUser || user.status === 'unpaid' || user.status === 'abandoned';

export type PushOutcome = 'on' | 'denied' | 'unsupported' | 'unpaid';

/**
 * Turns push on: asks permission, registers the service worker, subscribes with the server's VAPID
 * key (or reuses this browser's subscription) and binds it to the account (`fcm-tokens`).
 */
export const enablePush = async (userId: string, platform: PushPlatform = browserPlatform, server: PushServer = pushServer): Promise<PushOutcome> => {
  if (!platform.supported()) return 'unsupported';
  const permission = await platform.requestPermission();
  if (permission !== 'granted') return 'denied';
  const registration = await platform.register(PUSH_WORKER_URL);
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: vapidKeyBytes(await server.vapidPublicKey()) }));
  const { bound } = await server.bind(userId, subscription.toJSON());
  if (!bound) {
    await subscription.unsubscribe();
    return 'unpaid';
  }
  return 'on';
};

/** Turns push off: unbinds this browser's subscription from the account, then drops it. */
export const disablePush = async (userId: string, platform: PushPlatform = browserPlatform, server: PushServer = pushServer): Promise<void> => {
  if (!platform.supported()) return;
  const subscription = await (await platform.registration())?.pushManager.getSubscription();
  if (!subscription) return;
  await server.unbind(userId, subscription.toJSON());
  await subscription.unsubscribe();
};

/** Whether this browser has a push subscription (and permission) now. */
export const pushIsOn = async (platform: PushPlatform = browserPlatform): Promise<boolean> => {
  if (!platform.supported() || platform.permission() !== 'granted') return false;
  return Boolean(await (await platform.registration())?.pushManager.getSubscription());
};

/** Whether the denied-permission warning may show now (not shown in the last 7 days, per the cookie). */
export const deniedWarningDue = (cookies: string) => !cookies.split(/;\s*/).some((c) => c.startsWith(`${PUSH_WARNING_COOKIE}=`));

export const deniedWarningShown = (doc: Pick<Document, 'cookie'> = document) => {
  doc.cookie = `${PUSH_WARNING_COOKIE}=1; max-age=${PUSH_WARNING_DAYS * 86_400}; path=/; samesite=lax`;
};
