import { DetailedError, type HttpResponse } from 'tus-js-client';
import { describe, expect, it } from 'vitest';
import { planUploads, tusError, uploadIdOf } from './uploader';

const response = (status: number, body: string): HttpResponse => ({
  getStatus: () => status,
  getHeader: () => undefined,
  getBody: () => body,
  getUnderlyingObject: () => null,
});

const detailed = (res: HttpResponse | null) => Object.assign(new DetailedError('tus: failed'), { originalResponse: res });

describe('tus worker helpers', () => {
  it('reads the upload id from the upload URL', () => {
    expect(uploadIdOf('/api/uploads/0f3a9c')).toBe('0f3a9c');
    expect(uploadIdOf('http://localhost:8080/api/uploads/abc/')).toBe('abc');
  });

  it("turns the server's refusal into its code, so a quota refusal can open the quota dialog", () => {
    const quota = tusError(detailed(response(413, JSON.stringify({ code: 'INSUFFICIENT_SPACE', message: 'Insufficient space or quota', data: null }))));
    expect(quota.toJSON()).toEqual({ code: 'INSUFFICIENT_SPACE', message: 'Insufficient space or quota', data: null });
    expect(quota.status).toBe(413);
    expect(tusError(detailed(response(502, 'Bad gateway'))).code).toBe('HTTP_502');
    expect(tusError(detailed(null)).code).toBe('UNKNOWN');
  });

  it('continues an interrupted upload with a chosen file of the same size and fingerprint, each upload once; the rest are new', async () => {
    const file = (text: string) => new Blob([text]);
    const read: string[] = [];
    const fingerprint = async (blob: Blob) => {
      const text = await blob.text();
      read.push(text);
      return `fp:${text}`;
    };
    const waiting = [
      { id: 'k1', size: 5, fingerprint: 'fp:hello' },
      { id: 'k2', size: 5, fingerprint: 'fp:world' },
      { id: 'k3', size: 3, fingerprint: null },
    ];
    const same = file('hello');
    const again = file('hello');
    const edited = file('jello');
    const other = file('a much longer file');
    const refused = file('world');
    const { reattach, fresh } = await planUploads(
      waiting,
      [
        { file: same, name: 'notes.txt' },
        { file: again, name: 'copy.txt' },
        { file: edited, name: 'notes.txt' },
        { file: other, name: 'other.txt' },
        { file: refused, name: 'x:y', rejection: { code: 'INVALID_NAME', message: 'no', data: null } },
      ],
      fingerprint,
    );
    expect(reattach).toEqual([{ id: 'k1', file: same }]);
    // the second copy of the same bytes finds k1 claimed: a new upload, its fingerprint kept
    expect(fresh.map((u) => [u.name, u.fingerprint ?? null])).toEqual([
      ['copy.txt', 'fp:hello'],
      ['notes.txt', 'fp:jello'],
      ['other.txt', null],
      ['x:y', null],
    ]);
    // only files of a waiting upload's size were read
    expect(read).toEqual(['hello', 'hello', 'jello']);
  });
});
