import { describe, expect, it } from 'vitest';
import { formatDuration, formatRate } from './upload-format';

describe('upload figures', () => {
  it('writes a time left in its largest whole units', () => {
    expect(formatDuration(0)).toBe('0 sec');
    expect(formatDuration(44.2)).toBe('45 sec');
    expect(formatDuration(185)).toBe('3 min 5 sec');
    expect(formatDuration(120)).toBe('2 min');
    expect(formatDuration(3720)).toBe('1 hr 2 min');
  });

  it('writes a speed per second in the units sizes use', () => {
    expect(formatRate(1_234_567)).toBe('1.2 MB/s');
    expect(formatRate(1_234_567, 'nl-NL')).toBe('1,2 MB/s');
  });
});
