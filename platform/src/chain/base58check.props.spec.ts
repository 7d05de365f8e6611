import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base58CheckDecode, base58CheckEncode, developmentAddress, isDevelopmentAddress } from './base58check';

describe('Base58Check', () => {
  it('encodes a known Bitcoin address (version 0, hash160 from the Bitcoin wiki)', () => {
    const payload = Buffer.from('00010966776006953d5567439e5e39f86a0d273bee', 'hex');
    expect(base58CheckEncode(payload)).toBe('16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM');
    expect(base58CheckDecode('16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM')?.toString('hex')).toBe(payload.toString('hex'));
  });

  it('round-trips any payload and rejects a changed character', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.nat(), (bytes, at) => {
        const encoded = base58CheckEncode(Buffer.from(bytes));
        expect(base58CheckDecode(encoded)?.equals(Buffer.from(bytes))).toBe(true);
        const i = at % encoded.length;
        const changed = encoded.slice(0, i) + (encoded[i] === '2' ? '3' : '2') + encoded.slice(i + 1);
        expect(base58CheckDecode(changed)).toBeNull();
      }),
    );
  });

  it('development addresses are 34 letters or digits, start with y, and are the same for the same label', () => {
    fc.assert(
      fc.property(fc.string(), (label) => {
        const address = developmentAddress(label);
        expect(address).toMatch(/^y[1-9A-HJ-NP-Za-km-z]{33}$/);
        expect(isDevelopmentAddress(address)).toBe(true);
        expect(developmentAddress(label)).toBe(address);
      }),
    );
  });
});
