import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/** 127.0.0.0/8, ::1 and IPv4-mapped 127.x: addresses that never leave this machine. */
export const isLoopbackAddress = (address: string | undefined): boolean => {
  if (!address) return false;
  const a = address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  return isIP(v4) === 4 && v4.startsWith('127.');
};

/** HOST names an address only this machine can reach. */
export const isLoopbackHost = (host: string): boolean => host.trim().toLowerCase() === 'localhost' || isLoopbackAddress(host);

/** Every address the request names or came through, so a proxy in front cannot launder one. */
export const clientAddresses = (request: FastifyRequest): string[] => {
  const addresses = [request.socket.remoteAddress ?? ''];
  const forwardedFor = request.headers['x-forwarded-for'];
  for (const value of [forwardedFor].flat()) if (value) addresses.push(...value.split(','));
  const realIp = request.headers['x-real-ip'];
  for (const value of [realIp].flat()) if (value) addresses.push(value);
  const forwarded = request.headers.forwarded;
  if (forwarded) for (const m of forwarded.matchAll(/for="?([^";,]+)"?/gi)) addresses.push(m[1]!.replace(/:\d+$/, ''));
  return addresses.map((a) => a.trim());
};
