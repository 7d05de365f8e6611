import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { context, generateKey, KEY_LENGTH, open, openInto, openTagFirst, openToken, SEAL_OVERHEAD, seal, sealParts, sealTagFirst, sealToken } from './aead';
import { unwrapKey, wrapKey } from './wrap';

const key = fc.uint8Array({ minLength: KEY_LENGTH, maxLength: KEY_LENGTH }).map((k) => Buffer.from(k));
const bytes = fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b));
const aad = fc.option(
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
  { nil: undefined },
);

/** The bytes with one bit flipped, the bit drawn from `at` (a fraction of their length). */
const flipped = (sealed: Uint8Array, at: number) => {
  const copy = Buffer.from(sealed);
  const bit = Math.min(copy.length * 8 - 1, Math.floor(at * copy.length * 8));
  copy[bit >> 3]! ^= 1 << (bit & 7);
  return copy;
};
const anywhere = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

const binaryLayouts = [
  { name: 'sealed (nonce | ciphertext | tag)', seal, open },
  { name: 'tag first (nonce | tag | ciphertext)', seal: sealTagFirst, open: openTagFirst },
];

describe.each(binaryLayouts)('the $name layout', (layout) => {
  it('opens what it sealed, under the same key and additional data', () => {
    fc.assert(
      fc.property(key, bytes, aad, (k, plaintext, a) => {
        const sealed = layout.seal(k, plaintext, a);
        expect(sealed.length).toBe(plaintext.length + SEAL_OVERHEAD);
        expect(layout.open(k, sealed, a).equals(plaintext)).toBe(true);
      }),
    );
  });

  it('refuses a sealed value with any one bit flipped', () => {
    fc.assert(
      fc.property(key, bytes, aad, anywhere, (k, plaintext, a, at) => {
        expect(() => layout.open(k, flipped(layout.seal(k, plaintext, a), at), a)).toThrow();
      }),
    );
  });

  it('refuses another key, other additional data, and bytes too short to be sealed', () => {
    fc.assert(
      fc.property(key, key, bytes, fc.uint8Array({ minLength: 1, maxLength: 32 }), (k, other, plaintext, a) => {
        fc.pre(!k.equals(other));
        const sealed = layout.seal(k, plaintext, a);
        expect(() => layout.open(other, sealed, a)).toThrow();
        expect(() => layout.open(k, sealed, Buffer.concat([a, Buffer.from([0])]))).toThrow();
        expect(() => layout.open(k, sealed)).toThrow();
        expect(() => layout.open(k, sealed.subarray(0, SEAL_OVERHEAD - 1), a)).toThrow(/too short/);
      }),
      { numRuns: 50 },
    );
  });

  it('draws a fresh nonce for every seal', () => {
    const k = generateKey();
    const plaintext = Buffer.from('the same value');
    expect(layout.seal(k, plaintext).equals(layout.seal(k, plaintext))).toBe(false);
  });
});

describe('the sealed layout in parts, and opened into a buffer', () => {
  it('its three parts, joined, are what `seal` gives and `open` opens', () => {
    fc.assert(
      fc.property(key, bytes, aad, (k, plaintext, a) => {
        const [nonce, ciphertext, tag] = sealParts(k, plaintext, a);
        expect([nonce.length, ciphertext.length, tag.length]).toEqual([12, plaintext.length, 16]);
        expect(open(k, Buffer.concat([nonce, ciphertext, tag]), a).equals(plaintext)).toBe(true);
      }),
    );
  });

  it('`openInto` gives the first `plainLength` bytes, into a buffer of its own or over the sealed bytes', () => {
    fc.assert(
      fc.property(key, fc.integer({ min: 0, max: 200_000 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean(), (k, length, kept, inPlace) => {
        const plaintext = Buffer.alloc(length, 0x5a);
        for (let i = 0; i < length; i += 997) plaintext[i] = i & 255;
        const plainLength = Math.floor(kept * length);
        const a = context('axel-test', 'k', length);
        const sealed = seal(k, plaintext, a);
        const out = inPlace ? sealed : Buffer.alloc(plainLength);
        expect(openInto(k, sealed, a, out, plainLength)).toBe(plainLength);
        expect(out.subarray(0, plainLength).equals(plaintext.subarray(0, plainLength))).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('`openInto` refuses a flipped bit, also one in bytes it does not hand back, and a buffer too small', () => {
    fc.assert(
      fc.property(key, fc.uint8Array({ minLength: 1, maxLength: 100_000 }), anywhere, (k, plaintext, at) => {
        const sealed = seal(k, plaintext);
        const half = Math.floor(plaintext.length / 2);
        expect(openInto(k, sealed, Buffer.alloc(0), Buffer.alloc(plaintext.length), half)).toBe(half);
        expect(() => openInto(k, flipped(sealed, at), Buffer.alloc(0), Buffer.alloc(plaintext.length), half)).toThrow();
      }),
      { numRuns: 40 },
    );
    const k = generateKey();
    expect(() => openInto(k, seal(k, Buffer.alloc(10)), Buffer.alloc(0), Buffer.alloc(9), 10)).toThrow(/longer than its buffer/);
  });
});

describe('the token layout', () => {
  const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 });

  it('is `v1.` and three base64url parts, and opens to the text it sealed', () => {
    fc.assert(
      fc.property(key, text, (k, plaintext) => {
        const token = sealToken(k, plaintext);
        expect(token).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
        expect(openToken(k, token)).toBe(plaintext);
      }),
    );
  });

  it('refuses a token with one bit of its nonce, tag or ciphertext flipped, another key, or another format', () => {
    fc.assert(
      fc.property(key, key, text, fc.integer({ min: 1, max: 3 }), anywhere, (k, other, plaintext, part, at) => {
        fc.pre(!k.equals(other));
        const parts = sealToken(k, plaintext).split('.');
        parts[part] = flipped(Buffer.from(parts[part]!, 'base64url'), at).toString('base64url');
        expect(() => openToken(k, parts.join('.'))).toThrow();
        expect(() => openToken(other, sealToken(k, plaintext))).toThrow();
        expect(() => openToken(k, sealToken(k, plaintext).replace(/^v1/, 'v2'))).toThrow(/Unknown sealed format/);
      }),
      { numRuns: 50 },
    );
  });
});

describe('wrapped keys', () => {
  it('unwrap under the key and context they were wrapped with, and under nothing else', () => {
    fc.assert(
      fc.property(key, key, key, fc.string(), fc.string(), (master, other, dataKey, id, otherId) => {
        fc.pre(!master.equals(other) && id !== otherId);
        const wrapped = wrapKey(master, dataKey, context('axel-test-key', id));
        expect(unwrapKey(master, wrapped, context('axel-test-key', id)).equals(dataKey)).toBe(true);
        expect(() => unwrapKey(other, wrapped, context('axel-test-key', id))).toThrow();
        expect(() => unwrapKey(master, wrapped, context('axel-test-key', otherId))).toThrow();
      }),
      { numRuns: 50 },
    );
  });
});
