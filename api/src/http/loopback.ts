import { isIP } from 'node:net';

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
