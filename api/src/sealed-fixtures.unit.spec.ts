import { noncesLeft, useNonces } from '@axel/platform/crypto/fixtures/fixed-nonces';
import { hashStateFixture as h, secretsFixture as s } from '@axel/platform/crypto/fixtures/sealed';
import { decodeMultiHashState, encodeMultiHashState } from '@axel/platform/hashing/index';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openHashState, sealHashState } from './modules/files/uploads.store';
import { createSecrets } from './secrets';

vi.mock('node:crypto', async (importOriginal) =>
  (await import('@axel/platform/crypto/fixtures/fixed-nonces')).withFixedNonces(await importOriginal<typeof import('node:crypto')>()),
);

const hex = (value: string) => Buffer.from(value, 'hex');

afterEach(() => expect(noncesLeft()).toBe(0));

describe('server secrets sealed before open unchanged, and seal to the same text', () => {
  const secrets = createSecrets(hex(s.key));

  it('a TOTP secret', () => {
    expect(secrets.decrypt(s.totpSecret.sealed)).toBe(s.totpSecret.plaintext);
    useNonces(s.totpSecret.nonce);
    expect(secrets.encrypt(s.totpSecret.plaintext)).toBe(s.totpSecret.sealed);
  });

  it('a subject key, wrapped as pii_keys holds it', () => {
    expect(Buffer.from(secrets.decrypt(s.subjectKey.sealed), 'base64').toString('hex')).toBe(s.subjectKey.key);
    useNonces(s.subjectKey.nonce);
    expect(secrets.encrypt(hex(s.subjectKey.key).toString('base64'))).toBe(s.subjectKey.sealed);
  });

  it('a MAC handed out before still verifies', () => {
    expect(secrets.mac(s.mac.value)).toBe(s.mac.mac);
  });

  it('a sealed value changed by one character does not open', () => {
    const [v, iv, tag, ct] = s.totpSecret.sealed.split('.');
    const flipped = `${ct![0] === 'A' ? 'B' : 'A'}${ct!.slice(1)}`;
    expect(() => secrets.decrypt([v, iv, tag, flipped].join('.'))).toThrow();
    expect(() => createSecrets(hex(s.subjectKey.key)).decrypt(s.totpSecret.sealed)).toThrow();
  });
});

describe('upload hash states sealed before open unchanged, and seal to the same bytes', () => {
  it('a hash state opens at its offset, and nowhere else', () => {
    const state = openHashState(hex(h.key), h.keyId, h.offset, hex(h.sealed));
    expect(encodeMultiHashState(state).toString('hex')).toBe(h.state);
    expect(() => openHashState(hex(h.key), h.keyId, h.offset + 1, hex(h.sealed))).toThrow();
    useNonces(h.nonce);
    expect(sealHashState(hex(h.key), h.keyId, decodeMultiHashState(hex(h.state))).toString('hex')).toBe(h.sealed);
  });
});
