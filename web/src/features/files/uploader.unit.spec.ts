import { DetailedError, type HttpResponse } from 'tus-js-client';
import { describe, expect, it } from 'vitest';
import { tusError, uploadIdOf } from './uploader';

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
});
