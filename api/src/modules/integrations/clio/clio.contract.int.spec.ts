import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIO_HOSTS, ClioHttp } from './clio.http';
import { ClioAnswerError, ClioRefusedError } from './clio.port';
import { startClioStandIn, type ClioStandIn } from './clio.standin';

/* The Clio adapter's contract, run against the Clio stand-in: OAuth code, matters, the three-step document upload. */
let standIn: ClioStandIn;
const redirectUri = 'http://127.0.0.1:1/app/clio/auth';
const adapter = () => new ClioHttp({ clientId: 'clio-id', clientSecret: 'clio-secret', baseUrl: standIn.url });

const codeFor = async (clio: ClioHttp) => {
  const res = await fetch(clio.authorizeUrl('eu', { state: 'st', redirectUri }), { redirect: 'manual' });
  const back = new URL(res.headers.get('location')!);
  expect(back.searchParams.get('state')).toBe('st');
  return back.searchParams.get('code')!;
};

beforeAll(async () => {
  standIn = await startClioStandIn();
});
afterAll(async () => {
  await standIn?.stop();
});

describe('Clio adapter against the stand-in', () => {
  it('sends each region to its own host unless one host is given', () => {
    const real = new ClioHttp({ clientId: 'id', clientSecret: 's' });
    expect(new URL(real.authorizeUrl('eu', { state: 's', redirectUri })).origin).toBe(CLIO_HOSTS.eu);
    expect(new URL(real.authorizeUrl('au', { state: 's', redirectUri })).origin).toBe('https://au.app.clio.com');
    expect(new URL(real.authorizeUrl('app', { state: 's', redirectUri })).searchParams.get('response_type')).toBe('code');
  });

  it('exchanges a code once, refreshes, and deauthorizes', async () => {
    const clio = adapter();
    const code = await codeFor(clio);
    const grant = await clio.exchangeCode('eu', { code, redirectUri });
    expect(grant.refreshToken).toBeTruthy();
    await expect(clio.exchangeCode('eu', { code, redirectUri })).rejects.toBeInstanceOf(ClioRefusedError);
    expect((await clio.whoAmI('eu', grant.accessToken)).name).toMatch(/attorney/);
    const fresh = await clio.refresh('eu', grant.refreshToken);
    await clio.deauthorize('eu', fresh.accessToken);
    await expect(clio.refresh('eu', grant.refreshToken)).rejects.toBeInstanceOf(ClioRefusedError);
  });

  it('lists matters and files a document in three steps: create the version, PUT the bytes, mark it fully uploaded', async () => {
    const clio = adapter();
    const grant = await clio.exchangeCode('eu', { code: await codeFor(clio), redirectUri });
    const matters = await clio.matters('eu', grant.accessToken, 'acme');
    expect(matters).toEqual([{ id: '1001', displayNumber: '00001-Acme', description: 'Acme v. Roadrunner' }]);
    const bytes = Buffer.from('%PDF-1.4 stand-in');
    const { documentId } = await clio.fileDocument('eu', grant.accessToken, { matterId: '1001', name: 'brief.pdf', bytes, contentType: 'application/pdf' });
    expect(standIn.documents.get(Number(documentId))).toMatchObject({
      name: 'brief.pdf',
      matterId: 1001,
      fullyUploaded: true,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    await clio.addNote('eu', grant.accessToken, { matterId: '1001', subject: 'Hashes', detail: 'SHA-256: ab' });
    expect(standIn.notes.at(-1)).toEqual({ matterId: 1001, subject: 'Hashes', detail: 'SHA-256: ab' });
    const missing = clio.fileDocument('eu', grant.accessToken, { matterId: '999', name: 'x.pdf', bytes, contentType: 'application/pdf' });
    await expect(missing).rejects.toMatchObject({ status: 404 });
    await expect(missing).rejects.toBeInstanceOf(ClioAnswerError);
  });
});
