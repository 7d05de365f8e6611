import { z } from 'zod';
import { defineEvent, type EventOf } from '../shared/events';

/** One auto-pay program's stream: `autopay-<programId>`. */
export const autopayStreamName = (programId: string) => `autopay-${programId}`;

const ChainAddress = z.string().regex(/^[A-Za-z0-9]{1,64}$/);

export const PayeeFields = z.object({
  payeeId: z.string(),
  email: z.string(),
  /** Base units. */
  amount: z.number().int().positive(),
  /** null: the payee's own primary address, created when missing. A chain address, no person's words. */
  address: ChainAddress.nullable(),
  payerName: z.string().nullable(),
  payeeName: z.string().nullable(),
  transactionType: z.string().nullable(),
  accountNotes: z.string().nullable(),
});
export type PayeeFields = z.infer<typeof PayeeFields>;
const PAYEE_PERSONAL = ['email', 'payerName', 'payeeName', 'accountNotes'] as const;

const Submission = z.number().int().positive();

export const AutoPayProgramCreated = defineEvent(
  'AutoPayProgramCreated',
  z.object({ programId: z.string(), name: z.string(), description: z.string(), createdBy: z.string() }),
  { personal: ['name', 'description'] },
);
/** The staff member who changed the program (absent in changes recorded before it was kept). */
const ChangedBy = z.string().optional();
export const AutoPayProgramEdited = defineEvent('AutoPayProgramEdited', z.object({ name: z.string(), description: z.string(), by: ChangedBy }), {
  personal: ['name', 'description'],
});
export const AutoPayPayeeAdded = defineEvent('AutoPayPayeeAdded', PayeeFields.extend({ by: ChangedBy }), { personal: [...PAYEE_PERSONAL] });
export const AutoPayPayeeChanged = defineEvent('AutoPayPayeeChanged', PayeeFields.extend({ by: ChangedBy }), { personal: [...PAYEE_PERSONAL] });
export const AutoPayPayeeRemoved = defineEvent('AutoPayPayeeRemoved', z.object({ payeeId: z.string(), by: ChangedBy }));
export const AutoPayPayeesImported = defineEvent('AutoPayPayeesImported', z.object({ payees: z.array(PayeeFields), replaced: z.boolean(), by: ChangedBy }), {
  personal: ['payees'],
});
export const AutoPayProgramSubmitted = defineEvent('AutoPayProgramSubmitted', z.object({ submission: Submission, by: z.string() }));
/** A submitted program was changed: its submission is withdrawn and it is a draft again. */
export const AutoPayProgramReturnedToDraft = defineEvent('AutoPayProgramReturnedToDraft', z.object({ submission: Submission, by: z.string() }));
export const AutoPayProgramApproved = defineEvent('AutoPayProgramApproved', z.object({ submission: Submission, by: z.string() }));
export const AutoPayProgramRejected = defineEvent(
  'AutoPayProgramRejected',
  z.object({ submission: Submission, by: z.string().nullable(), cause: z.enum(['staff', 'expired']) }),
);
export const AutoPayApprovalReminded = defineEvent('AutoPayApprovalReminded', z.object({ submission: Submission, reminder: z.number().int().positive() }));
export const AutoPayProgramLocked = defineEvent('AutoPayProgramLocked', z.object({ submission: z.number().int().min(0), by: z.string() }));
export const AutoPayProgramUnlocked = defineEvent('AutoPayProgramUnlocked', z.object({ by: z.string() }));
export const AutoPayProgramCancelled = defineEvent('AutoPayProgramCancelled', z.object({ submission: z.number().int().min(0), by: z.string() }));
export const AutoPayPayoutStarted = defineEvent('AutoPayPayoutStarted', z.object({ submission: Submission, attempt: z.number().int().positive() }));
export const AutoPayPayeePaid = defineEvent(
  'AutoPayPayeePaid',
  z.object({ payeeId: z.string(), txid: z.string(), address: ChainAddress, createdAddress: z.boolean() }),
);
export const AutoPayPayeePayoutFailed = defineEvent('AutoPayPayeePayoutFailed', z.object({ payeeId: z.string(), failure: z.string() }));
export const AutoPayPayoutFinished = defineEvent(
  'AutoPayPayoutFinished',
  z.object({
    submission: Submission,
    attempt: z.number().int().positive(),
    paid: z.number().int().min(0),
    failed: z.number().int().min(0),
    status: z.enum(['paid', 'partially_failed']),
  }),
);
export const AutoPayRetryRequested = defineEvent(
  'AutoPayRetryRequested',
  z.object({ submission: Submission, attempt: z.number().int().positive(), by: z.string() }),
);

export const autopayEventDefinitions = [
  AutoPayProgramCreated,
  AutoPayProgramEdited,
  AutoPayPayeeAdded,
  AutoPayPayeeChanged,
  AutoPayPayeeRemoved,
  AutoPayPayeesImported,
  AutoPayProgramSubmitted,
  AutoPayProgramReturnedToDraft,
  AutoPayProgramApproved,
  AutoPayProgramRejected,
  AutoPayApprovalReminded,
  AutoPayProgramLocked,
  AutoPayProgramUnlocked,
  AutoPayProgramCancelled,
  AutoPayPayoutStarted,
  AutoPayPayeePaid,
  AutoPayPayeePayoutFailed,
  AutoPayPayoutFinished,
  AutoPayRetryRequested,
];

export type AutoPayEvent =
  | EventOf<typeof AutoPayProgramCreated>
  | EventOf<typeof AutoPayProgramEdited>
  | EventOf<typeof AutoPayPayeeAdded>
  | EventOf<typeof AutoPayPayeeChanged>
  | EventOf<typeof AutoPayPayeeRemoved>
  | EventOf<typeof AutoPayPayeesImported>
  | EventOf<typeof AutoPayProgramSubmitted>
  | EventOf<typeof AutoPayProgramReturnedToDraft>
  | EventOf<typeof AutoPayProgramApproved>
  | EventOf<typeof AutoPayProgramRejected>
  | EventOf<typeof AutoPayApprovalReminded>
  | EventOf<typeof AutoPayProgramLocked>
  | EventOf<typeof AutoPayProgramUnlocked>
  | EventOf<typeof AutoPayProgramCancelled>
  | EventOf<typeof AutoPayPayoutStarted>
  | EventOf<typeof AutoPayPayeePaid>
  | EventOf<typeof AutoPayPayeePayoutFailed>
  | EventOf<typeof AutoPayPayoutFinished>
  | EventOf<typeof AutoPayRetryRequested>;
