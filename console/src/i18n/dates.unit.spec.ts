import { describe, expect, it } from 'vitest';
import { dateWriter } from './dates';

const AT = '2026-03-05T14:05:09.000Z';

describe("dates in the console's language", () => {
  it("writes the month in the chosen language whatever the browser's", () => {
    expect(dateWriter('nl').day(AT)).toMatch(/mrt/);
    expect(dateWriter('es').day(AT)).toMatch(/mar/);
    expect(dateWriter('pt').day(AT)).toMatch(/mar\./);
    expect(dateWriter('en').day(AT)).toMatch(/Mar 5, 2026/);
    expect(dateWriter('nl').dateTime(AT)).not.toBe(dateWriter('en').dateTime(AT));
  });

  it('answers the fallback for nothing or an invalid date, and English for an unknown language', () => {
    expect(dateWriter('nl').dateTime(null, '—')).toBe('—');
    expect(dateWriter('nl').dateTime('not a date', '—')).toBe('—');
    expect(dateWriter('fr').day(AT)).toBe(dateWriter('en').day(AT));
  });
});
