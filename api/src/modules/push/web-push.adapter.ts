import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import type { Config } from '../../config';

export interface VapidKeys {
  readonly publicKey: string;
  readonly privateKey: string;
  readonly subject: string;
}

/** VAPID keys from the configuration, else generated once into the data directory. */
export const loadVapidKeys = (config: Config): VapidKeys => {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject: config.VAPID_SUBJECT };
  }
  const file = path.join(config.dataDir, 'vapid.json');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(webpush.generateVAPIDKeys()), { mode: 0o600 });
  }
  const keys = JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
  return { ...keys, subject: config.VAPID_SUBJECT };
};

export interface PushTarget {
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
}

/** The port notices are pushed through: `gone` when the push service says the subscription ended. */
export interface PushSender {
  send(target: PushTarget, payload: string): Promise<'sent' | 'gone'>;
}

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292) and aes128gcm payloads (RFC 8291): `web-push` encrypts
 * and signs; the request goes out with fetch, so a push service is reached the same way on any
 * scheme (the browsers' services are HTTPS; a stand-in on loopback in tests may be HTTP).
 */
export const webPushSender = (keys: VapidKeys): PushSender => ({
  async send(target, payload) {
    const details = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
      vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: 24 * 3600,
      contentEncoding: 'aes128gcm',
    });
    const response = await fetch(details.endpoint, {
      method: details.method,
      headers: details.headers as Record<string, string>,
      body: details.body ? new Uint8Array(details.body) : undefined,
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer().catch(() => undefined);
    if (response.status === 404 || response.status === 410) return 'gone';
    if (!response.ok) throw new Error(`push service answered ${response.status}`);
    return 'sent';
  },
});

/** A Slack incoming webhook: a JSON `{ text }` POST. */
export const postToSlack = async (webhookUrl: string, text: string): Promise<void> => {
  const response = await fetch(webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) throw new Error(`Slack answered ${response.status}`);
};

/** Whether a URL's host is one of `hosts` or under one of them (push services, Slack). */
export const hostAllowed = (url: string, hosts: readonly string[]): boolean => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.hostname.toLowerCase();
  const loopback = host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  // plain HTTP only towards a stand-in on this machine that the configuration names
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) return false;
  return hosts.some((h) => host === h || host.endsWith(`.${h}`));
};
