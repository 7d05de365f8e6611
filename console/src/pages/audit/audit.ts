/** What `GET /api/admin/audit/verify` answers. */
export interface AuditVerification {
  readonly ok: boolean;
  readonly checkedUpTo: number;
  readonly firstMismatch: number | null;
  readonly reason: 'changed' | 'deleted' | 'inserted' | 'checkpoint' | 'rewritten' | null;
  readonly events: number;
  /** Events after the last checkpoint: `ok` does not cover them. */
  readonly unsealedEvents?: number;
  readonly anchoredUpTo?: number | null;
  readonly sealerError?: string | null;
}

/** What the page says beside the verdict: the unsealed tail `ok` does not cover, a sealer that stopped, the last anchor. */
export const auditNotes = (
  result: AuditVerification,
): { unsealed: { count: number; position: number } | null; sealerError: string | null; anchoredUpTo: number | null } => ({
  unsealed: result.unsealedEvents ? { count: result.unsealedEvents, position: result.checkedUpTo } : null,
  sealerError: result.sealerError ?? null,
  anchoredUpTo: result.anchoredUpTo ?? null,
});

export type AuditView =
  | { readonly kind: 'idle' }
  | { readonly kind: 'verifying' }
  | { readonly kind: 'intact'; readonly result: AuditVerification }
  | { readonly kind: 'tampered'; readonly result: AuditVerification }
  | { readonly kind: 'error'; readonly message: string };

const isVerification = (value: unknown): value is AuditVerification =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as AuditVerification).ok === 'boolean' &&
  typeof (value as AuditVerification).checkedUpTo === 'number' &&
  typeof (value as AuditVerification).events === 'number';

/** The page's state for an answer of the verify call: intact, tampered (with where), or an error. */
export const auditViewFor = (answer: unknown): AuditView => {
  if (!isVerification(answer)) return { kind: 'error', message: 'unexpected answer' };
  return answer.ok ? { kind: 'intact', result: answer } : { kind: 'tampered', result: answer };
};

/** A bound as the export takes it: a position, or a date (sent as an ISO instant); anything else is left out. */
const boundOf = (value: string): string | undefined => {
  const text = value.trim();
  if (/^\d+$/.test(text)) return text;
  const time = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
};

/** The export link for an optional range of positions or dates (empty fields are left out). */
export const exportUrl = (from: string, to: string): string => {
  const query = new URLSearchParams();
  const start = boundOf(from);
  const end = boundOf(to);
  if (start) query.set('from', start);
  if (end) query.set('to', end);
  const text = query.toString();
  return `/api/admin/audit/export${text ? `?${text}` : ''}`;
};
