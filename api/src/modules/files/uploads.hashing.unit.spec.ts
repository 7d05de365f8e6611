import { createHash, randomBytes } from 'node:crypto';
import { MultiHash } from '@axel/platform/hashing/index';
import { describe, expect, it } from 'vitest';
import { openHashState, resumeCertificateHashes, RunningSha256, UploadHashing } from './uploads.hashing';

const key = randomBytes(32);
const keyId = 'key-1';

describe('the running SHA-256 of uploads', () => {
  it('starts fresh at offset 0, goes on from the offset it was kept at, and is taken out until kept again', () => {
    const running = new RunningSha256();
    const first = running.take('u1', 0)!;
    first.update('abc');
    running.keep('u1', 3, first);
    expect(running.take('u1', 5)).toBeUndefined();
    running.keep('u1', 3, first);
    expect(running.take('u1', 3)).toBe(first);
    expect(running.take('u1', 3)).toBeUndefined();
    running.keep('u1', 3, first);
    running.forget('u1');
    expect(running.take('u1', 3)).toBeUndefined();
  });
});

describe("a request's upload hashes", () => {
  it('hash every run of bytes given once; the sealed state kept at an offset opens there only and goes on to the one-pass digests', async () => {
    const data = randomBytes(300_000);
    const cut = 123_457;
    const first = new UploadHashing(createHash('sha256'), await MultiHash.open(), key, keyId);
    await first.add(data.subarray(0, 100_000), 100_000);
    const kept = await (await first.add(data.subarray(100_000, cut), cut))!.kept;
    first.close();
    expect(openHashState(key, keyId, cut, kept).bytes).toBe(cut);
    expect(() => openHashState(key, keyId, cut + 1, kept)).toThrow();

    const second = new UploadHashing(createHash('sha256').update(data.subarray(0, cut)), await resumeCertificateHashes(key, keyId, cut, kept), key, keyId);
    await second.add(data.subarray(cut), data.length);
    expect(second.sha256!.digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
    expect(await second.certificate!.digest()).toEqual({
      md5: createHash('md5').update(data).digest('hex'),
      sha1: createHash('sha1').update(data).digest('hex'),
      sha3_512: createHash('sha3-512').update(data).digest('hex'),
    });
    second.close();
  });

  it('an upload without certificate hashes keeps no state; a state out of step with the offset is refused', async () => {
    const plain = new UploadHashing(createHash('sha256'), undefined, key, keyId);
    expect(await plain.add(Buffer.from('abc'), 3)).toBeUndefined();
    expect(plain.sha256!.digest('hex')).toBe(createHash('sha256').update('abc').digest('hex'));

    const certified = new UploadHashing(undefined, await MultiHash.open(), key, keyId);
    await expect((await certified.add(Buffer.from('abc'), 4))!.kept).rejects.toThrow(/out of step/);
    certified.close();
  });

  it('a Secure Fetch upload starts fresh only at offset 0: past it, a lost state is an error', async () => {
    const fresh = await resumeCertificateHashes(key, keyId, 0, null);
    expect(fresh.bytes).toBe(0);
    fresh.close();
    await expect(resumeCertificateHashes(key, keyId, 10, null)).rejects.toThrow(/lost its hash state/);
  });
});
