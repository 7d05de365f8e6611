import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomToken, safeEqual, type Secrets } from '../../secrets';

/**
 * OWASP's "device cookies": after a successful sign-in the browser gets a cookie naming the account
 * and a random nonce, signed with the server key. A browser that presents a valid one for the
 * account it signs in to has signed in there before: its failures count against that device alone,
 * and a lock caused by strangers does not keep it out. The cookie is no credential (the password is
 * still needed); it is only sent to the sign-in call.
 */
export const DEVICE_COOKIE = 'axel_device';
const DEVICE_COOKIE_PATH = '/api/sessions/';
const ONE_YEAR_S = 365 * 24 * 3600;

export interface DeviceCookie {
  readonly userId: string;
  readonly nonce: string;
}

const signed = (secrets: Secrets, userId: string, nonce: string) => `${userId}.${nonce}.${secrets.mac(`device.${userId}.${nonce}`)}`;

/** The device cookie the request carries, when it is well-formed and signed by this server. */
export const readDeviceCookie = (request: FastifyRequest, secrets: Secrets): DeviceCookie | null => {
  const value = request.cookies[DEVICE_COOKIE];
  if (!value || value.length > 300) return null;
  const parts = value.split('.');
  if (parts.length !== 3) return null;
  const [userId, nonce, mac] = parts as [string, string, string];
  if (!/^[\w-]{1,64}$/.test(userId) || !/^[\w-]{16,64}$/.test(nonce)) return null;
  return safeEqual(mac, secrets.mac(`device.${userId}.${nonce}`)) ? { userId, nonce } : null;
};

/** A fresh cookie, or the same device renewed for another year. */
export const setDeviceCookie = (reply: FastifyReply, secrets: Secrets, device: DeviceCookie, secure: boolean) =>
  reply.setCookie(DEVICE_COOKIE, signed(secrets, device.userId, device.nonce), {
    path: DEVICE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure,
    maxAge: ONE_YEAR_S,
  });

export const newDeviceNonce = (): string => randomToken(18);
