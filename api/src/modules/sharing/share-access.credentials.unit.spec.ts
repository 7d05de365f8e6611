import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecrets } from '../../secrets';
import { issueAccessToken, passwordOf, readAccessToken, readSignedDownload, shareAccessVersion, signDownload } from './share-access.credentials';

const secrets = createSecrets(randomBytes(32));
const now = new Date('2026-11-23T10:00:00Z');
const basic = (userAndPassword: string) => `Basic ${Buffer.from(userAndPassword).toString('base64')}`;

describe('share credentials', () => {
  it('reads the password of the Password and the Basic forms', () => {
    expect(passwordOf('Password s3cret pass')).toEqual({ password: 's3cret pass' });
    expect(passwordOf('password s3cret')).toEqual({ password: 's3cret' });
    expect(passwordOf(basic(':s3cret:with:colons'))).toEqual({ password: 's3cret:with:colons' });
    expect(passwordOf(basic('anyone:s3cret'))).toEqual({ password: 's3cret' });
  });

  it('finds no password in other schemes, empty, malformed or oversized ones', () => {
    for (const header of [undefined, '', 'Bearer abc', 'Password', 'Password ', basic(':'), basic('no-colon'), 'Basic !!!', `Password ${'x'.repeat(257)}`]) {
      expect(passwordOf(header), String(header)).toBeNull();
    }
  });

  it('takes back a token it signed for the same link and password until it expires', () => {
    const visit = { linkId: 'L1', visitId: 'v1', email: 'ann@example.com', expiresAt: now.getTime() + 60_000 };
    const token = issueAccessToken(secrets, visit, 'hash-1');
    expect(readAccessToken(secrets, token, { linkId: 'L1', passwordHash: 'hash-1', now })).toEqual(visit);
    // another link, a changed or removed password, the hour gone, another server key
    expect(readAccessToken(secrets, token, { linkId: 'L2', passwordHash: 'hash-1', now })).toBeNull();
    expect(readAccessToken(secrets, token, { linkId: 'L1', passwordHash: 'hash-2', now })).toBeNull();
    expect(readAccessToken(secrets, token, { linkId: 'L1', passwordHash: null, now })).toBeNull();
    expect(readAccessToken(secrets, token, { linkId: 'L1', passwordHash: 'hash-1', now: new Date(visit.expiresAt) })).toBeNull();
    expect(readAccessToken(createSecrets(randomBytes(32)), token, { linkId: 'L1', passwordHash: 'hash-1', now })).toBeNull();
  });

  it('refuses a token whose e-mail or visit was changed', () => {
    const token = issueAccessToken(secrets, { linkId: 'L1', visitId: 'v1', email: 'ann@example.com', expiresAt: now.getTime() + 60_000 }, null);
    const [, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ l: 'L1', v: 'v1', e: 'eve@example.com', x: now.getTime() + 60_000 })).toString('base64url');
    expect(readAccessToken(secrets, `${forged}.${mac}`, { linkId: 'L1', passwordHash: null, now })).toBeNull();
    expect(readAccessToken(secrets, `${token}.x`, { linkId: 'L1', passwordHash: null, now })).toBeNull();
    expect(readAccessToken(secrets, 'garbage', { linkId: 'L1', passwordHash: null, now })).toBeNull();
  });

  it('binds a signed download to its link, entry and disposition', () => {
    const d = { linkId: 'L1', entryId: 'f1', visitId: 'v1', email: null, userId: 'u1', inline: true, expiresAt: now.getTime() + 60_000 };
    const access = shareAccessVersion(secrets, { passwordHash: null, revokedAt: null });
    const t = signDownload(secrets, d, access);
    expect(readSignedDownload(secrets, t, { linkId: 'L1', entryId: 'f1', access, now })).toEqual(d);
    expect(readSignedDownload(secrets, t, { linkId: 'L1', entryId: 'f2', access, now })).toBeNull();
    expect(readSignedDownload(secrets, t, { linkId: 'L2', entryId: 'f1', access, now })).toBeNull();
    expect(readSignedDownload(secrets, t, { linkId: 'L1', entryId: 'f1', access, now: new Date(d.expiresAt + 1) })).toBeNull();
    const [body, mac] = t.split('.');
    const attachment = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), i: 0 })).toString('base64url');
    expect(readSignedDownload(secrets, `${attachment}.${mac}`, { linkId: 'L1', entryId: 'f1', access, now })).toBeNull();
  });

  it('binds a signed download to the share access version: a password set, changed or removed, or a revocation, ends it', () => {
    const d = { linkId: 'L1', entryId: 'f1', visitId: 'v1', email: null, userId: null, inline: false, expiresAt: now.getTime() + 60_000 };
    const versions = [
      shareAccessVersion(secrets, { passwordHash: null, revokedAt: null }),
      shareAccessVersion(secrets, { passwordHash: 'hash-1', revokedAt: null }),
      shareAccessVersion(secrets, { passwordHash: 'hash-2', revokedAt: null }),
      shareAccessVersion(secrets, { passwordHash: 'hash-2', revokedAt: now.toISOString() }),
    ];
    expect(new Set(versions).size).toBe(versions.length);
    for (const signedAt of versions) {
      const t = signDownload(secrets, d, signedAt);
      for (const readAt of versions)
        expect(readSignedDownload(secrets, t, { linkId: 'L1', entryId: 'f1', access: readAt, now }) !== null).toBe(readAt === signedAt);
    }
  });
});
