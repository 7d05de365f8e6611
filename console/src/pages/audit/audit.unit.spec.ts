import { describe, expect, it } from 'vitest';
import { auditViewFor, exportUrl } from './audit';

describe('the audit page', () => {
  it('shows an intact log, or the first altered position', () => {
    const intact = { ok: true, checkedUpTo: 42, firstMismatch: null, reason: null, events: 7 };
    expect(auditViewFor(intact)).toEqual({ kind: 'intact', result: intact });
    const tampered = { ok: false, checkedUpTo: 10, firstMismatch: 12, reason: 'deleted', events: 3 };
    expect(auditViewFor(tampered)).toEqual({ kind: 'tampered', result: tampered });
    expect(auditViewFor({ code: 'FORBIDDEN' }).kind).toBe('error');
  });

  it('links the export of a range of positions or dates, leaving out anything else', () => {
    expect(exportUrl('', '')).toBe('/api/admin/audit/export');
    expect(exportUrl(' 5 ', '900')).toBe('/api/admin/audit/export?from=5&to=900');
    expect(exportUrl('x', '-1')).toBe('/api/admin/audit/export');
    expect(exportUrl('2026-11-16T00:00:00Z', '')).toBe('/api/admin/audit/export?from=2026-11-16T00%3A00%3A00.000Z');
  });
});
