import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  context,
  deriveKey,
  generateKey,
  hmac,
  KEY_LENGTH,
  keyFingerprint,
  open,
  openTagFirst,
  openToken,
  seal,
  sealTagFirst,
  sealToken,
  unwrapKey,
  wrapKey,
} from '.';
import { noncesLeft, useNonces } from './fixtures/fixed-nonces';
import { chunkFixture, fileKeyFixture, hashStateFixture, personalDataFixture, secretsFixture } from './fixtures/sealed';

vi.mock('node:crypto', async (importOriginal) =>
  (await import('./fixtures/fixed-nonces')).withFixedNonces(await importOriginal<typeof import('node:crypto')>()),
);

const hex = (s: string) => Buffer.from(s, 'hex');

afterEach(() => expect(noncesLeft()).toBe(0));

describe('each layout reads what was written before it was one module, and writes it byte for byte', () => {
  it('sealed: an upload tail, a file key wrapped by its master key, an upload hash state', () => {
    const { tail } = chunkFixture;
    const tailContext = context('axel-upload-tail', chunkFixture.keyId, tail.index);
    expect(open(hex(chunkFixture.key), hex(tail.sealed), tailContext).toString()).toBe(tail.plaintext);
    useNonces(tail.nonce);
    expect(seal(hex(chunkFixture.key), Buffer.from(tail.plaintext), tailContext).toString('hex')).toBe(tail.sealed);

    const f = fileKeyFixture;
    const wrapContext = context('axel-file-key', f.keyId, f.underA.masterId);
    expect(unwrapKey(hex(f.underA.master), hex(f.underA.wrapped), wrapContext).toString('hex')).toBe(f.dataKey);
    useNonces(f.underA.nonce);
    expect(wrapKey(hex(f.underA.master), hex(f.dataKey), wrapContext).toString('hex')).toBe(f.underA.wrapped);

    const h = hashStateFixture;
    const stateContext = context('axel-upload-hash-state', h.keyId, h.offset);
    expect(open(hex(h.key), hex(h.sealed), stateContext).toString('hex')).toBe(h.state);
  });

  it('tag first: a personal field', () => {
    const p = personalDataFixture;
    const aad = Buffer.from(`${p.eventId}|data.email`);
    const sealed = Buffer.from(p.stored.email.v, 'base64url');
    expect(JSON.parse(openTagFirst(hex(p.key), sealed, aad).toString())).toBe(p.data.email);
    useNonces(p.nonces[0]);
    expect(sealTagFirst(hex(p.key), Buffer.from(JSON.stringify(p.data.email)), aad).toString('base64url')).toBe(p.stored.email.v);
  });

  it('token: a server secret', () => {
    const s = secretsFixture;
    expect(openToken(hex(s.key), s.totpSecret.sealed)).toBe(s.totpSecret.plaintext);
    useNonces(s.totpSecret.nonce);
    expect(sealToken(hex(s.key), s.totpSecret.plaintext)).toBe(s.totpSecret.sealed);
  });
});

describe('keys made from keys', () => {
  it('a derived key is HMAC-SHA256 of its purpose: the MAC handed out before still verifies', () => {
    const s = secretsFixture;
    expect(hmac(deriveKey(hex(s.key), 'axel-mac-v1'), s.mac.value).toString('base64url')).toBe(s.mac.mac);
  });

  it('keys derived for other purposes, or from other keys, differ', () => {
    const key = generateKey();
    expect(deriveKey(key, 'a').equals(deriveKey(key, 'b'))).toBe(false);
    expect(deriveKey(key, 'a').equals(deriveKey(generateKey(), 'a'))).toBe(false);
    expect(deriveKey(key, 'a')).toHaveLength(KEY_LENGTH);
  });

  it('a key fingerprint is 16 hex digits, the same for the same key and label, stored before as it is now', () => {
    const f = fileKeyFixture;
    expect(keyFingerprint('axel-master-key-id', hex(f.underA.master))).toBe(f.underA.masterId);
    expect(keyFingerprint('another-label', hex(f.underA.master))).not.toBe(f.underA.masterId);
    expect(keyFingerprint('axel-master-key-id', generateKey())).toMatch(/^[0-9a-f]{16}$/);
  });

  it('new keys are 32 random bytes', () => {
    expect(generateKey()).toHaveLength(KEY_LENGTH);
    expect(generateKey().equals(generateKey())).toBe(false);
  });
});
