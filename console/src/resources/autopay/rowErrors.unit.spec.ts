import { describe, expect, it } from 'vitest';
import { rowErrorsOf } from './rowErrors';

describe('CSV import row errors', () => {
  it("reads them from a refusal's data (AUTOPAY_CSV_INVALID) or from an answer", () => {
    const refusal = {
      code: 'AUTOPAY_CSV_INVALID',
      message: 'Auto pay CSV validation failed',
      data: { errors: [{ row: 2, field: 'email', message: 'validation.email' }] },
    };
    expect(rowErrorsOf(refusal)).toEqual([{ row: 2, field: 'email', message: 'validation.email' }]);
    expect(rowErrorsOf({ imported: 0, errors: [{ row: '3', field: 'amount', code: 'wallet.invalidAmount' }] })).toEqual([
      { row: 3, field: 'amount', message: 'wallet.invalidAmount' },
    ]);
    expect(rowErrorsOf({ imported: 2, errors: [] })).toEqual([]);
    expect(rowErrorsOf(null)).toEqual([]);
    expect(rowErrorsOf({ data: { errors: 'nope' } })).toEqual([]);
  });
});
