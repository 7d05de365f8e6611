import { parseAxel } from '../wallet/amount';
import { isWalletAddress } from '../wallet/wallet';
import type { PayeeFields } from './autopay.events';

export const PAYEE_COLUMNS = ['email', 'amount', 'address', 'payerName', 'payeeName', 'transactionType', 'accountNotes'] as const;
export type PayeeColumn = (typeof PAYEE_COLUMNS)[number];
export interface RowError {
  /** 1-based data row (the header is row 0), as a spreadsheet counts them after the header. */
  readonly row: number;
  readonly field: PayeeColumn | 'file';
  readonly message: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Header spellings accepted for each column: `user email`, `User_Email`, `payerName`... */
const key = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
const ALIASES: Record<string, PayeeColumn> = {
  email: 'email',
  useremail: 'email',
  amount: 'amount',
  address: 'address',
  payername: 'payerName',
  payeename: 'payeeName',
  transactiontype: 'transactionType',
  type: 'transactionType',
  accountnotes: 'accountNotes',
  notes: 'accountNotes',
};
export const columnOf = (header: string): PayeeColumn | null => ALIASES[key(header)] ?? null;

const optional = (v: string | undefined, max: number, field: PayeeColumn, row: number, errors: RowError[]) => {
  const t = v?.trim() ?? '';
  if (t.length > max) errors.push({ row, field, message: 'validation.tooLong' });
  return t === '' ? null : t;
};

/** One payee as typed (CSV row or form), checked field by field; every error names its row and field. */
export const payeeFromInput = (
  input: Partial<Record<PayeeColumn, string | null>>,
  row: number,
  payeeId: string,
): { payee: PayeeFields | null; errors: RowError[] } => {
  const errors: RowError[] = [];
  const email = input.email?.trim().toLowerCase() ?? '';
  if (!email) errors.push({ row, field: 'email', message: 'validation.required' });
  else if (!EMAIL.test(email) || email.length > 254) errors.push({ row, field: 'email', message: 'validation.email' });
  const amountText = input.amount?.trim() ?? '';
  const amount = amountText ? parseAxel(amountText) : null;
  if (!amountText) errors.push({ row, field: 'amount', message: 'validation.required' });
  else if (amount === null || amount === 0) errors.push({ row, field: 'amount', message: 'wallet.invalidAmount' });
  const address = input.address?.trim() || null;
  if (address && !isWalletAddress(address)) errors.push({ row, field: 'address', message: 'wallet.invalidAddress' });
  const payerName = optional(input.payerName ?? undefined, 255, 'payerName', row, errors);
  const payeeName = optional(input.payeeName ?? undefined, 255, 'payeeName', row, errors);
  const transactionType = optional(input.transactionType ?? undefined, 50, 'transactionType', row, errors);
  const accountNotes = optional(input.accountNotes ?? undefined, 1000, 'accountNotes', row, errors);
  if (errors.length) return { payee: null, errors };
  return { payee: { payeeId, email, amount: amount!, address, payerName, payeeName, transactionType, accountNotes }, errors };
};
