import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHelpers } from '../../../testing/accounts';
import { HttpClient, useTestApp } from '../../../testing/harness';
import { startClioStandIn, type ClioStandIn } from './clio.standin';

/* A Secure Fetch certificate filed to a Clio matter (the stand-in), with the hashes it certifies. */
let clio: ClioStandIn;
beforeAll(async () => {
  clio = await startClioStandIn();
});
afterAll(async () => {
  await clio?.stop();
});

const t = useTestApp(() => ({
  env: { RATE_LIMIT_FACTOR: '10', CLIO_CLIENT_ID: 'axel-clio', CLIO_CLIENT_SECRET: 'axel-clio-secret-value', CLIO_URL: clio.url },
}));
const helpers = accountHelpers(t);
const TUS = { 'tus-resumable': '1.0.0' };

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  for (let i = 0; i < 150; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out');
};

/** A Secure Fetch link with a certificate, a file received through it, paid and pinned: its certificate exists. */
const paidCertificate = async (http: HttpClient, id: string, data: Buffer) => {
  const link = (await http.post(`/api/users/${id}/secure-fetches/`, { note: 'Please send the evidence', certificate: true })).body;
  const sender = new HttpClient(t().url);
  const created = await sender.request('POST', '/api/uploads/', undefined, {
    ...TUS,
    'upload-length': String(data.length),
    'upload-metadata': `secureFetchId ${Buffer.from(link.linkId).toString('base64')},filename ${Buffer.from('evidence.bin').toString('base64')}`,
  });
  const location = created.headers.get('location')!;
  await sender.request('PATCH', location, new Uint8Array(data), { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' });
  const submitted = await sender.post(`/api/shares/${link.linkId}/`, {
    files: [{ uploadId: location.split('/').pop(), name: 'evidence.bin', size: data.length, mime: 'application/octet-stream' }],
  });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
  expect((await http.post('/api/wallet/v1/addresses', {})).status).toBe(201);
  expect((await http.post('/api/wallet/v1/faucet', { amount: '1' })).status).toBe(200);
  const before = (await http.get('/api/wallet/v1/blockchaininfo')).body.blocks as number;
  t().clock.advance(10_000);
  await until(
    () => http.get('/api/wallet/v1/blockchaininfo'),
    (r) => r.body.blocks > before,
  );
  const paid = await http.post(`/api/users/${id}/secure-fetches/${link.id}/pay`);
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return (await http.get(`/api/users/${id}/secure-fetches/${link.id}/certificate?format=json`)).body;
};

describe('filing a Secure Fetch certificate to Clio', () => {
  it('files the certificate PDF and a note with the hashes and the transaction; the filing is recorded with them', async () => {
    const { email, id } = await helpers.signUpConfirmed();
    const { http } = await helpers.signIn(email);
    const data = randomBytes(40_000);
    const certificate = await paidCertificate(http, id, data);
    expect(certificate.canonicalSha256).toMatch(/^[0-9a-f]{64}$/);

    // not connected yet
    expect((await http.post(`/api/users/${id}/clio/certificates`, { matterId: '1001', fetchId: certificate.fetchId })).body.code).toBe('APP_NOT_CONNECTED');
    const started = await http.get(`/api/users/${id}/clio/authorize?region=au`);
    const back = new URL((await fetch(started.body.url, { redirect: 'manual' })).headers.get('location')!);
    expect((await http.post(`/api/users/${id}/clio/auth/`, { code: back.searchParams.get('code'), state: back.searchParams.get('state') })).body.region).toBe(
      'au',
    );

    const filed = await http.post(`/api/users/${id}/clio/certificates`, { matterId: '1001', fetchId: certificate.fetchId });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    expect(filed.body).toMatchObject({ matterId: '1001', certificateSha256: certificate.canonicalSha256, txId: certificate.txId });
    const doc = clio.documents.get(Number(filed.body.documentId))!;
    expect(doc).toMatchObject({ matterId: 1001, fullyUploaded: true, sha256: filed.body.sha256, name: `certificate-${certificate.fetchId}.pdf` });
    const note = clio.notes.at(-1)!;
    expect(note.matterId).toBe(1001);
    expect(note.detail).toContain(certificate.canonicalSha256);
    expect(note.detail).toContain(certificate.txId);
    for (const file of certificate.files as { md5?: string; sha1?: string; sha3_512?: string }[]) {
      for (const hash of [file.md5, file.sha1, file.sha3_512].filter(Boolean)) expect(note.detail).toContain(hash);
    }
    expect(note.detail).toContain(createHash('sha3-512').update(data).digest('hex'));

    // someone else's link is not theirs to file
    const other = await helpers.signedInUser();
    const stranger = await other.http.post(`/api/users/${other.id}/clio/certificates`, { matterId: '1001', fetchId: certificate.fetchId });
    expect(stranger.status).toBeGreaterThanOrEqual(400);
    expect(stranger.status).toBeLessThan(500);
  });
});
