/** What `GET /api/admin/audit/verify` answers. */
export interface AuditVerification {
  readonly ok: boolean;
  readonly checkedUpTo: number;
  readonly firstMismatch: number | null;
  readonly reason: 'changed' | 'deleted' | 'inserted' | 'checkpoint' | null;
  readonly events: number;
}

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

/** The export link for an optional position range (empty fields are left out). */
export const exportUrl = (from: string, to: string): string => {
  const query = new URLSearchParams();
  if (/^\d+$/.test(from.trim())) query.set('from', from.trim());
  if (/^\d+$/.test(to.trim())) query.set('to', to.trim());
  const text = query.toString();
  return `/api/admin/audit/export${text ? `?${text}` : ''}`;
};
