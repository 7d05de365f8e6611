import type { Secrets } from '../../secrets';
import { safeEqual } from '../../secrets';

/*
 * The credentials of an anonymous or recipient call on a share link:
 * - `Authorization: Password <password>`, or `Authorization: Basic base64(":" + password)` (the
 *   share password as the password of an empty user name);
 * - `X-Object-Access: <token>`: handed out on the first successful call of a visit, and sent back
 *   instead of the password afterwards. It is signed with the server key and bound to the link,
 *   the recipient's e-mail, the visit, an expiry of one hour and the share's current password (a
 *   changed or removed password ends every visit made with the old one).
 */

/** How long an access token works: a visit, not a standing key. */
export const ACCESS_TOKEN_TTL_MS = 60 * 60_000;
/** Longer is no password any share can have; refused before any hashing work. */
export const MAX_PASSWORD_LENGTH = 256;

export interface ShareVisit {
  readonly linkId: string;
  /** The visit's id: its calls count as one open. */
  readonly visitId: string;
  /** Lower-cased recipient e-mail the visit was let in with (private shares), or the signed-in viewer's. */
  readonly email: string | null;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

export type PasswordCredential = { readonly password: string } | null;

/**
 * The share password an Authorization header carries: null when it carries none (absent, another
 * scheme, an empty password) or one no share can have.
 */
export const passwordOf = (header: string | undefined): PasswordCredential => {
  if (!header) return null;
  const space = header.indexOf(' ');
  if (space < 0) return null;
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  let password: string;
  if (scheme === 'password') {
    password = value;
  } else if (scheme === 'basic') {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return null;
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    password = decoded.slice(colon + 1);
  } else {
    return null;
  }
  if (!password || password.length > MAX_PASSWORD_LENGTH) return null;
  return { password };
};

/** A short fingerprint of the share's password hash ('' without a password): tokens and archives die with it. */
export const passwordStamp = (secrets: Secrets, passwordHash: string | null): string =>
  passwordHash ? secrets.mac(`share-password\u0000${passwordHash}`).slice(0, 22) : '';

const tokenMac = (secrets: Secrets, body: string, stamp: string) => secrets.mac(`share-access\u0000${body}\u0000${stamp}`);

interface TokenBody {
  readonly l: string;
  readonly v: string;
  readonly e: string | null;
  readonly x: number;
}

export const issueAccessToken = (secrets: Secrets, visit: ShareVisit, passwordHash: string | null): string => {
  const body: TokenBody = { l: visit.linkId, v: visit.visitId, e: visit.email, x: visit.expiresAt };
  const encoded = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${encoded}.${tokenMac(secrets, encoded, passwordStamp(secrets, passwordHash))}`;
};

/**
 * The visit a token stands for, when it was signed here for this link and this password and has
 * not expired; null for anything else (the caller then asks for the password again).
 */
export const readAccessToken = (
  secrets: Secrets,
  token: string | undefined,
  expect: { linkId: string; passwordHash: string | null; now: Date },
): ShareVisit | null => {
  if (!token || token.length > 1000) return null;
  const [encoded, mac, extra] = token.split('.');
  if (!encoded || !mac || extra !== undefined) return null;
  if (!safeEqual(mac, tokenMac(secrets, encoded, passwordStamp(secrets, expect.passwordHash)))) return null;
  let body: TokenBody;
  try {
    body = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as TokenBody;
  } catch {
    return null;
  }
  if (body.l !== expect.linkId || typeof body.v !== 'string' || typeof body.x !== 'number' || body.x <= expect.now.getTime()) return null;
  return { linkId: body.l, visitId: body.v, email: typeof body.e === 'string' ? body.e : null, expiresAt: body.x };
};

/** How long a signed download URL of a share's file works. */
export const DOWNLOAD_URL_TTL_MS = 15 * 60_000;

export interface SignedDownload {
  readonly linkId: string;
  readonly entryId: string;
  readonly visitId: string;
  readonly email: string | null;
  /** The signed-in viewer the URL was handed to (a share that needs a login, or its owner). */
  readonly userId: string | null;
  readonly inline: boolean;
  readonly expiresAt: number;
}

/**
 * The share's access version: a fingerprint of its password and its revocation ('' for no share).
 * A signed download URL is bound to it, so setting, changing or removing the password, or revoking
 * the share, ends every URL handed out before, at once rather than at their expiry.
 */
export const shareAccessVersion = (secrets: Secrets, share: { readonly passwordHash: string | null; readonly revokedAt: string | null } | null): string =>
  share ? secrets.mac(`share-access-version\u0000${passwordStamp(secrets, share.passwordHash)}\u0000${share.revokedAt ?? ''}`).slice(0, 22) : '';

const downloadMac = (secrets: Secrets, d: Pick<SignedDownload, 'linkId' | 'entryId'>, access: string, body: string) =>
  secrets.mac(`share-download\u0000${d.linkId}\u0000${d.entryId}\u0000${access}\u0000${body}`);

/**
 * The `t` of a signed download URL: the visit and the disposition, bound to the link, the entry and
 * the share's access version (`shareAccessVersion`).
 */
export const signDownload = (secrets: Secrets, d: SignedDownload, access: string): string => {
  const body = Buffer.from(JSON.stringify({ v: d.visitId, e: d.email, u: d.userId, i: d.inline ? 1 : 0, x: d.expiresAt })).toString('base64url');
  return `${body}.${downloadMac(secrets, d, access, body)}`;
};

export const readSignedDownload = (secrets: Secrets, t: string, at: { linkId: string; entryId: string; access: string; now: Date }): SignedDownload | null => {
  const [body, mac, extra] = t.split('.');
  if (!body || !mac || extra !== undefined || !safeEqual(mac, downloadMac(secrets, at, at.access, body))) return null;
  let parsed: { v?: unknown; e?: unknown; u?: unknown; i?: unknown; x?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    return null;
  }
  if (typeof parsed.v !== 'string' || typeof parsed.x !== 'number' || parsed.x <= at.now.getTime()) return null;
  return {
    linkId: at.linkId,
    entryId: at.entryId,
    visitId: parsed.v,
    email: typeof parsed.e === 'string' ? parsed.e : null,
    userId: typeof parsed.u === 'string' ? parsed.u : null,
    inline: parsed.i === 1,
    expiresAt: parsed.x,
  };
};
