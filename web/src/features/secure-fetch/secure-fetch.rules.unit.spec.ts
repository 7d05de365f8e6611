import { describe, expect, it } from 'vitest';
import { expiryRange } from './list-query';
import { statusOf } from './status';
import { linkUploads, splitLinkUploads, TOO_LARGE } from './upload-rules';

const file = (name: string, size: number) => ({ file: new File([new Uint8Array(size)], name), name, relativeDir: '' });

describe('what the upload page sends', () => {
  it('refuses files over the link limit and names the storage refuses, before any byte is sent', () => {
    const uploads = linkUploads([file('ok.txt', 10), file('big.bin', 11), file('bad:name.txt', 1), { ...file('in.txt', 1), relativeDir: 'a.b' }], 10);
    expect(uploads.map((u) => u.rejection?.code ?? null)).toEqual([null, TOO_LARGE, 'INVALID_NAME', 'INVALID_NAME']);
    expect(uploads[1]!.rejection?.data).toEqual({ maxSize: 10 });
    expect(linkUploads([file('big.bin', 11)], null)[0]!.rejection).toBeNull();
  });

  it('takes only the files it can send; the others are refused at once, each with its reason and the limit', () => {
    const { accepted, refused } = splitLinkUploads(
      [file('a.txt', 5), file('big.bin', 21), { ...file('in.txt', 1), relativeDir: 'a.b' }, file('b.txt', 10)],
      10,
    );
    expect(accepted.map((u) => u.name)).toEqual(['a.txt', 'b.txt']);
    expect(accepted.every((u) => !u.rejection)).toBe(true);
    expect(refused.map((r) => [r.name, r.size, r.error.code])).toEqual([
      ['big.bin', 21, TOO_LARGE],
      ['a.b/in.txt', 1, 'INVALID_NAME'],
    ]);
    expect(refused[0]!.error.data).toEqual({ maxSize: 10 });
  });
});

describe('what the owner is told of a fetch', () => {
  const NOW = new Date('2026-05-01T12:00:00Z');
  const link = { status: 'pending' as const, revokedAt: null, expiresAt: null, paid: false };
  it('waiting, revoked or expired while pending; files arrived unpaid, or collected unpaid; paid', () => {
    expect(statusOf(link, NOW)).toBe('waiting');
    expect(statusOf({ ...link, expiresAt: '2026-05-02T00:00:00Z' }, NOW)).toBe('waiting');
    expect(statusOf({ ...link, expiresAt: '2026-05-01T11:59:59Z' }, NOW)).toBe('expired');
    expect(statusOf({ ...link, revokedAt: '2026-04-30T00:00:00Z' }, NOW)).toBe('revoked');
    expect(statusOf({ ...link, status: 'uploaded', revokedAt: '2026-04-30T00:00:00Z' }, NOW)).toBe('uploaded');
    expect(statusOf({ ...link, status: 'uploaded', paid: true }, NOW)).toBe('active');
    expect(statusOf({ ...link, status: 'uploaded', collectedAt: '2026-05-01T11:00:00Z' }, NOW)).toBe('collected');
    expect(statusOf({ ...link, status: 'active', paid: true }, NOW)).toBe('active');
  });
});

describe('the list expiry filter', () => {
  it('covers whole local days, from the start of the first to the end of the last; empty fields filter nothing', () => {
    expect(expiryRange('', '')).toEqual({});
    expect(expiryRange('2026-05-01', '2026-05-03')).toEqual({
      expiresFrom: new Date('2026-05-01T00:00:00.000').toISOString(),
      expiresAt: new Date('2026-05-03T23:59:59.999').toISOString(),
    });
    expect(expiryRange('not-a-date', '2026-05-03')).toEqual({ expiresAt: new Date('2026-05-03T23:59:59.999').toISOString() });
  });
});
