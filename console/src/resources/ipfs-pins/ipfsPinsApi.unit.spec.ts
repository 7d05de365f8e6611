import { describe, expect, it } from 'vitest';
import { UNPIN_REASON_MAX, unpinReason } from './ipfsPinsApi';

describe('unpin reason', () => {
  it('is required and trimmed, and kept within the server limit', () => {
    expect(unpinReason('  Takedown request ')).toBe('Takedown request');
    expect(unpinReason('   ')).toBeNull();
    expect(unpinReason('')).toBeNull();
    expect(unpinReason('x'.repeat(UNPIN_REASON_MAX))).toHaveLength(UNPIN_REASON_MAX);
    expect(unpinReason('x'.repeat(UNPIN_REASON_MAX + 1))).toBeNull();
  });
});
