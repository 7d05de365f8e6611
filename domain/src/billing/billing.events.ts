import { z } from 'zod';
import { defineEvent, type EventDefinition, type EventOf } from '../shared/events';
import { CYCLES } from './billing.catalogue';

const timestamp = z.iso.datetime();
const money = z.number().int().min(0);

/** Who takes the money: the embedded test provider, Stripe, staff (no money), or a mobile store. */
export const PROVIDERS = ['test', 'stripe', 'staff', 'app_store', 'play_store'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** A promo code as it was applied at checkout: the terms are kept, so later edits of the code change nothing already sold. */
export const AppliedPromoSchema = z.object({
  code: z.string().min(1),
  /** Price per cycle while the code applies (minor units). */
  price: money,
  /** Cycles the code's price applies to; null: every cycle. */
  cycles: z.number().int().positive().nullable(),
  freeTrialDays: z.number().int().min(0),
  extraQuotaBytes: z.number().int().min(0),
});
export type AppliedPromo = z.infer<typeof AppliedPromoSchema>;

// ---- billing-<userId> -------------------------------------------------------------------------

export const CheckoutStarted = defineEvent(
  'CheckoutStarted',
  z.object({
    checkoutId: z.string().min(1),
    productId: z.number().int(),
    quantity: z.number().int().positive(),
    provider: z.enum(PROVIDERS),
    /** The first payment (minor units): the product's price, or the promo code's. */
    amount: money,
    promo: AppliedPromoSchema.nullable(),
    /** Values a promo code asked for (state, bar number): about the buyer. */
    customFields: z.record(z.string(), z.string()),
    /** Set when the checkout pays a subscription's overdue renewal instead of buying. */
    renewsSubscriptionId: z.string().min(1).nullable().optional(),
    at: timestamp,
  }),
  { personal: ['customFields'] },
);

/** Where the buyer pays: the provider's page for this checkout. */
export const CheckoutLinkIssued = defineEvent(
  'CheckoutLinkIssued',
  z.object({ checkoutId: z.string().min(1), checkoutLink: z.string().min(1), at: timestamp }),
);

export const CheckoutDeclined = defineEvent('CheckoutDeclined', z.object({ checkoutId: z.string().min(1), at: timestamp }));

export const SubscriptionStarted = defineEvent(
  'SubscriptionStarted',
  z.object({
    subscriptionId: z.string().min(1),
    checkoutId: z.string().nullable(),
    productId: z.number().int(),
    quantity: z.number().int().positive(),
    cycle: z.enum(CYCLES).nullable(),
    provider: z.enum(PROVIDERS),
    /** The provider's own id (a Stripe subscription), when it has one. */
    providerRef: z.string().nullable(),
    /** Later than `at` when it waits for the current plan to expire (status pending until then). */
    startDate: timestamp,
    nextPaymentDate: timestamp.nullable(),
    /** A free trial ends here and falls back to Basic. */
    endDate: timestamp.nullable(),
    promo: AppliedPromoSchema.nullable(),
    at: timestamp,
  }),
);

export const PaymentRecorded = defineEvent(
  'PaymentRecorded',
  z.object({
    paymentId: z.string().min(1),
    subscriptionId: z.string().min(1),
    productId: z.number().int(),
    amount: money,
    currency: z.literal('usd'),
    provider: z.enum(PROVIDERS),
    status: z.enum(['succeeded', 'failed']),
    promoCode: z.string().nullable(),
    /** The checkout that took this payment, when one did (an overdue renewal paid on its own page). */
    checkoutId: z.string().min(1).nullable().optional(),
    at: timestamp,
  }),
);

/** A paid renewal: the subscription runs one more cycle (and any grace period ends). */
export const SubscriptionRenewed = defineEvent(
  'SubscriptionRenewed',
  z.object({ subscriptionId: z.string().min(1), paymentId: z.string().min(1), nextPaymentDate: timestamp, at: timestamp }),
);

export const SubscriptionCanceled = defineEvent(
  'SubscriptionCanceled',
  z.object({
    subscriptionId: z.string().min(1),
    /** The plan is kept until then; Basic follows. */
    endDate: timestamp,
    by: z.enum(['user', 'staff', 'plan_change', 'system']),
    at: timestamp,
  }),
);

/**
 * Staff put the user on another plan (no payment): the user's activity log shows this one fact,
 * where the subscriptions ended and started with it are its mechanics.
 */
export const PlanChangedByStaff = defineEvent(
  'PlanChangedByStaff',
  z.object({
    productId: z.number().int(),
    plan: z.string(),
    previousProductId: z.number().int(),
    previousPlan: z.string(),
    /** The subscription started for it; null when the new plan is the free one. */
    subscriptionId: z.string().nullable(),
    at: timestamp,
  }),
);

/** A renewal failed: the grace period starts, with every deadline fixed now. */
export const RenewalFailed = defineEvent(
  'RenewalFailed',
  z.object({
    subscriptionId: z.string().min(1),
    paymentId: z.string().min(1),
    graceEndDate: timestamp,
    storageDeletionDate: timestamp,
    accountDeletionDate: timestamp,
    at: timestamp,
  }),
);

/** Grace ran out: the account is unpaid and must pay before it is used again. */
export const AccountDeactivatedForNonPayment = defineEvent('AccountDeactivatedForNonPayment', z.object({ subscriptionId: z.string().min(1), at: timestamp }));

/** The storage of an account still unpaid is due for deletion (the storage slice acts on it). */
export const UnpaidStorageDeletionDue = defineEvent('UnpaidStorageDeletionDue', z.object({ subscriptionId: z.string().min(1), at: timestamp }));

export const billingEventDefinitions: readonly EventDefinition[] = [
  CheckoutStarted,
  CheckoutLinkIssued,
  CheckoutDeclined,
  SubscriptionStarted,
  PaymentRecorded,
  SubscriptionRenewed,
  SubscriptionCanceled,
  RenewalFailed,
  AccountDeactivatedForNonPayment,
  UnpaidStorageDeletionDue,
  PlanChangedByStaff,
];

export type BillingEvent =
  | EventOf<typeof CheckoutStarted>
  | EventOf<typeof CheckoutLinkIssued>
  | EventOf<typeof CheckoutDeclined>
  | EventOf<typeof SubscriptionStarted>
  | EventOf<typeof PaymentRecorded>
  | EventOf<typeof SubscriptionRenewed>
  | EventOf<typeof SubscriptionCanceled>
  | EventOf<typeof RenewalFailed>
  | EventOf<typeof AccountDeactivatedForNonPayment>
  | EventOf<typeof UnpaidStorageDeletionDue>
  | EventOf<typeof PlanChangedByStaff>;

export const billingStreamName = (userId: string) => `billing-${userId}`;
