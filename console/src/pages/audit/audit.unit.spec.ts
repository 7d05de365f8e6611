import { describe, expect, it } from 'vitest';
import { auditNotes, auditViewFor, exportUrl } from './audit';

describe('the audit page', () => {
  it('shows an intact log, or the first altered position', () => {
    const intact = { ok: true, checkedUpTo: 42, firstMismatch: null, reason: null, events: 7 };
    expect(auditViewFor(intact)).toEqual({ kind: 'intact', result: intact });
    const tampered = { ok: false, checkedUpTo: 10, firstMismatch: 12, reason: 'deleted', events: 3 };
    expect(auditViewFor(tampered)).toEqual({ kind: 'tampered', result: tampered });
    expect(auditViewFor({ code: 'FORBIDDEN' }).kind).toBe('error');
  });

  it('says how many events after the checked position are not sealed (not covered), a sealer that stopped, and the last anchor', () => {
    const answer = {
      ok: true,
      checkedUpTo: 42,
      firstMismatch: null,
      reason: null,
      events: 7,
      unsealedEvents: 5,
      anchoredUpTo: 40,
      sealerError: 'the audit log was rewritten at position 30',
    };
    expect(auditViewFor(answer).kind).toBe('intact');
    expect(auditNotes(answer)).toEqual({ unsealed: { count: 5, position: 42 }, sealerError: 'the audit log was rewritten at position 30', anchoredUpTo: 40 });
    expect(auditNotes({ ok: true, checkedUpTo: 42, firstMismatch: null, reason: null, events: 7, unsealedEvents: 0 })).toEqual({
      unsealed: null,
      sealerError: null,
      anchoredUpTo: null,
    });
    expect(auditViewFor({ ok: false, checkedUpTo: 10, firstMismatch: 12, reason: 'rewritten', events: 3, unsealedEvents: 0 }).kind).toBe('tampered');
  });

  it('links the export of a range of positions or dates, leaving out anything else', () => {
    expect(exportUrl('', '')).toBe('/api/admin/audit/export');
    expect(exportUrl(' 5 ', '900')).toBe('/api/admin/audit/export?from=5&to=900');
    expect(exportUrl('x', '-1')).toBe('/api/admin/audit/export');
    expect(exportUrl('2026-11-16T00:00:00Z', '')).toBe('/api/admin/audit/export?from=2026-11-16T00%3A00%3A00.000Z');
  });
});
