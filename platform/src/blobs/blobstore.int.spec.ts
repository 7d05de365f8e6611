import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobStoreContract } from './blobstore.contract';
import { cidOf } from './cid';
import { LocalFolderBlobStore } from './local';
import { S3BlobStore } from './s3';

const root = mkdtempSync(path.join(os.tmpdir(), 'axel-blobs-contract-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
blobStoreContract('local folder (direct writes)', () => new LocalFolderBlobStore(path.join(root, `local-${++n}`)));
blobStoreContract(
  'local folder (writes through the page cache)',
  () => new LocalFolderBlobStore(path.join(root, `local-${++n}`), undefined, { directIo: false }),
);

/*
 * The S3 adapter against s3rver (npm `s3rver` 3.7): a server that speaks the S3 REST protocol the
 * AWS SDK uses (path-style addressing, SigV4-signed requests, PutObject/GetObject/HeadObject/
 * DeleteObject, ListObjectsV2 with continuation tokens, 404 NoSuchKey), storing objects in a folder.
 * It is a fair stand-in for these calls because the adapter goes through the real
 * `@aws-sdk/client-s3`, so every request and answer crosses real HTTP in S3's wire format.
 * Known gaps: no ListParts (multipart resumption is not used here), no versioning or object lock,
 * no server-side encryption headers, and it does not check signatures strictly; MinIO (compose
 * file) is what production-like runs use.
 */
let s3rver: S3rver;
let endpoint = '';
beforeAll(async () => {
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(root, 's3'), configureBuckets: [{ name: 'axel' }] });
  const { port } = await s3rver.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => s3rver?.close());

blobStoreContract('S3 (s3rver)', () => {
  n++;
  return new S3BlobStore({ endpoint, bucket: 'axel', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', prefix: `t${n}/` });
});

describe('local folder: direct writes', () => {
  it('writes sealed chunks of whole 4 KiB blocks with O_DIRECT on a file system that takes it, byte-exact, and keeps writing so', async () => {
    const store = new LocalFolderBlobStore(path.join(root, `local-${++n}`));
    expect(store.directIo).toBe(true);
    const parts = [randomBytes(12), randomBytes(1024 * 1024 - 28), randomBytes(16)];
    const cid = cidOf(parts);
    await store.put(cid, parts);
    // a file system refusing O_DIRECT would have turned direct writes off for the store
    expect(store.directIo).toBe(true);
    expect(Buffer.compare(readFileSync(path.join(store.dir, cid.slice(-2), cid)), Buffer.concat(parts))).toBe(0);
    // an odd length goes through the page cache without turning direct writes off
    const odd = randomBytes(5000);
    await store.put(cidOf(odd), odd);
    expect(store.directIo).toBe(true);
    expect(Buffer.compare((await store.get(cidOf(odd)))!, odd)).toBe(0);
  });
});
