import { describe, expect, it } from 'vitest';
import { fingerprintOf } from './fingerprint';

const bytes = (size: number, seed: number) => {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
};

describe('file fingerprint', () => {
  it('is the same for the same bytes under another name or date, and differs for a changed start, middle or end', async () => {
    const data = bytes(600_000, 7);
    const original = await fingerprintOf(new File([data], 'notes.txt', { lastModified: 1 }));
    expect(await fingerprintOf(new File([data], 'copy of notes.txt', { lastModified: 999 }))).toBe(original);
    for (const at of [0, 300_000, 599_999]) {
      const changed = data.slice();
      changed[at] = changed[at]! ^ 1;
      expect(await fingerprintOf(new Blob([changed]))).not.toBe(original);
    }
    expect(await fingerprintOf(new Blob([data.slice(0, 599_999)]))).not.toBe(original);
    expect(await fingerprintOf(new Blob([]))).toMatch(/^[0-9a-f]{64}$/);
  });
});
