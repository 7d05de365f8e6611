import { describe, expect, it } from 'vitest';
import { formatSize } from './sizes';

describe('formatSize', () => {
  it('reads a plan quota as the plan is sold: 100 GB is 10^11 bytes', () => {
    expect(formatSize(100_000_000_000)).toBe('100 GB');
    expect(formatSize(1_024_000_000_000)).toBe('1 TB');
    expect(formatSize(93.1 * 1024 ** 3)).toBe('100 GB');
    expect(formatSize(2_500_000)).toBe('2.5 MB');
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(0)).toBe('0 B');
  });

  it("writes the number in the reader's language", () => {
    expect(formatSize(2_500_000, 'nl-NL')).toBe('2,5 MB');
    expect(formatSize(1_500, 'pt-BR')).toBe('1,5 KB');
  });

  it('is null for what is no size', () => {
    for (const v of [-1, Number.NaN, Number.POSITIVE_INFINITY]) expect(formatSize(v)).toBeNull();
  });
});
