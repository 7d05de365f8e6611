import { z } from 'zod';
import { assertNever, type Command, type Decider } from '../shared/decider';
import { CommonErrors, DomainError } from '../shared/errors';
import { defineEvent, type EventDefinition, type EventOf } from '../shared/events';
import { productById, type Product } from './billing.catalogue';
import { BillingErrors } from './billing.errors';
import type { AppliedPromo } from './billing.events';

/*
 * Promo codes (§5): staff define them, checkout applies them. One stream per code, named by the
 * code itself, so two codes can never share a spelling.
 */

export const CUSTOM_FIELD_NAMES = ['state', 'barNumber'] as const;
export const CUSTOM_FIELD_MAX_VALUE = 10000;
export const CUSTOM_FIELD_MAX_LENGTH = 20;

export const normalizePromoCode = (code: string) => code.trim().toUpperCase();
export const promoCodeStreamName = (code: string) => `promocode-${normalizePromoCode(code)}`;

const timestamp = z.iso.datetime();

export const PromoCustomFieldSchema = z.object({
  name: z.enum(CUSTOM_FIELD_NAMES),
  /** Longest value a buyer may give. */
  maxLength: z.number().int().min(1).max(CUSTOM_FIELD_MAX_LENGTH),
  /** When set, the value is a whole number up to this. */
  maxValue: z.number().int().min(1).max(CUSTOM_FIELD_MAX_VALUE).nullable(),
});

/** A promo code's terms as staff set them (stored leniently: form rules live in the input schema). */
export const PromoTermsSchema = z.object({
  title: z.string(),
  productIds: z.array(z.number().int()),
  /** Payments the code's price applies to; null: all of them. */
  cycles: z.number().int().positive().nullable(),
  /** A fixed price per cycle (minor units), or a discount: never both. */
  price: z.number().int().min(0).nullable(),
  discount: z.object({ amount: z.number().int().positive(), unit: z.enum(['usd', 'percent']) }).nullable(),
  startDate: timestamp,
  expiryDate: timestamp,
  /** How many checkouts may use it; null: no limit. */
  numberOfUses: z.number().int().positive().nullable(),
  recurrence: z.enum(['once', 'recurring']),
  freeTrialDays: z.number().int().min(0),
  /** Extra storage while the subscription runs (bytes); never 0 when set. */
  extraQuotaBytes: z.number().int().positive().nullable(),
  customFields: z.array(PromoCustomFieldSchema),
  notes: z.string().nullable(),
});
export type PromoTerms = z.infer<typeof PromoTermsSchema>;

export const PromoCodeCreated = defineEvent(
  'PromoCodeCreated',
  PromoTermsSchema.extend({ code: z.string().min(1), status: z.enum(['active', 'inactive']), at: timestamp }),
  {
    personal: ['notes'],
  },
);
export const PromoCodeUpdated = defineEvent('PromoCodeUpdated', PromoTermsSchema.extend({ at: timestamp }), { personal: ['notes'] });
export const PromoCodeStatusChanged = defineEvent('PromoCodeStatusChanged', z.object({ status: z.enum(['active', 'inactive']), at: timestamp }));
export const PromoCodeDeleted = defineEvent('PromoCodeDeleted', z.object({ at: timestamp }));
export const PromoCodeUsed = defineEvent('PromoCodeUsed', z.object({ userId: z.string().min(1), checkoutId: z.string().min(1), at: timestamp }));
/**
 * A checkout with the code started: one use is held for it until it is paid (then `PromoCodeUsed`),
 * declined or expired, so two checkouts at once can never take the code past its limit.
 */
export const PromoCodeUseReserved = defineEvent(
  'PromoCodeUseReserved',
  z.object({ userId: z.string().min(1), checkoutId: z.string().min(1), expiresAt: timestamp, at: timestamp }),
);
export const PromoCodeUseReleased = defineEvent(
  'PromoCodeUseReleased',
  z.object({ checkoutId: z.string().min(1), reason: z.enum(['declined', 'expired', 'failed']), at: timestamp }),
);

export const promoCodeEventDefinitions: readonly EventDefinition[] = [
  PromoCodeCreated,
  PromoCodeUpdated,
  PromoCodeStatusChanged,
  PromoCodeDeleted,
  PromoCodeUsed,
  PromoCodeUseReserved,
  PromoCodeUseReleased,
];

/**
 * How long a checkout holds a use of its code: a provider's checkout page lives 24 hours (Stripe's
 * default session lifetime, and the test provider's), plus an hour for its report to arrive.
 */
export const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const PROMO_RESERVATION_MS = CHECKOUT_LIFETIME_MS + 60 * 60 * 1000;

export type PromoCodeEvent =
  | EventOf<typeof PromoCodeCreated>
  | EventOf<typeof PromoCodeUpdated>
  | EventOf<typeof PromoCodeStatusChanged>
  | EventOf<typeof PromoCodeDeleted>
  | EventOf<typeof PromoCodeUsed>
  | EventOf<typeof PromoCodeUseReserved>
  | EventOf<typeof PromoCodeUseReleased>;

export interface PromoReservation {
  readonly userId: string;
  readonly expiresAt: string;
}

export type PromoCodeState =
  | { readonly status: 'none' }
  | {
      readonly status: 'active' | 'inactive' | 'deleted';
      readonly code: string;
      readonly terms: PromoTerms;
      readonly usedTimes: number;
      readonly checkouts: readonly string[];
      /** Uses held by checkouts not finished yet, by checkout id. */
      readonly reservations: Readonly<Record<string, PromoReservation>>;
    };

export type PromoCodeCommand =
  | Command<'CreatePromoCode', { code: string; status: 'active' | 'inactive'; terms: PromoTerms }>
  | Command<'UpdatePromoCode', { terms: PromoTerms }>
  | Command<'SetPromoCodeStatus', { status: 'active' | 'inactive' }>
  | Command<'DeletePromoCode', Record<string, never>>
  | Command<'RecordPromoCodeUse', { userId: string; checkoutId: string }>
  | Command<'ReservePromoCodeUse', { userId: string; checkoutId: string; productId: number; quantity: number; customFields: Readonly<Record<string, string>> }>
  | Command<'ReleasePromoCodeUse', { checkoutId: string; reason: 'declined' | 'expired' | 'failed' }>;

const termsOf = (data: PromoTerms): PromoTerms => PromoTermsSchema.parse(data);

export const evolvePromoCode = (state: PromoCodeState, event: PromoCodeEvent): PromoCodeState => {
  switch (event.type) {
    case 'PromoCodeCreated': {
      const { code, status, at: _at, ...terms } = event.data;
      return { status, code, terms: termsOf(terms), usedTimes: 0, checkouts: [], reservations: {} };
    }
    case 'PromoCodeUpdated': {
      if (state.status === 'none') return state;
      const { at: _at, ...terms } = event.data;
      return { ...state, terms: termsOf(terms) };
    }
    case 'PromoCodeStatusChanged':
      return state.status === 'none' || state.status === 'deleted' ? state : { ...state, status: event.data.status };
    case 'PromoCodeDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
    case 'PromoCodeUsed': {
      if (state.status === 'none') return state;
      const { [event.data.checkoutId]: _paid, ...reservations } = state.reservations;
      return { ...state, usedTimes: state.usedTimes + 1, checkouts: [...state.checkouts, event.data.checkoutId], reservations };
    }
    case 'PromoCodeUseReserved':
      return state.status === 'none'
        ? state
        : { ...state, reservations: { ...state.reservations, [event.data.checkoutId]: { userId: event.data.userId, expiresAt: event.data.expiresAt } } };
    case 'PromoCodeUseReleased': {
      if (state.status === 'none') return state;
      const { [event.data.checkoutId]: _released, ...reservations } = state.reservations;
      return { ...state, reservations };
    }
    default:
      return state;
  }
};

/** §5's rules beyond the field formats; a refusal names the field. */
export const checkPromoTerms = (terms: PromoTerms): void => {
  const fields: Record<string, string> = {};
  if (!terms.title.trim()) fields.title = 'validation.required';
  if (terms.productIds.length === 0) fields.productIds = 'validation.required';
  for (const id of terms.productIds) if (!productById(id)) fields.productIds = 'validation.invalid';
  if (Date.parse(terms.expiryDate) <= Date.parse(terms.startDate)) fields.expiryDate = 'validation.expiryBeforeStart';
  if (terms.extraQuotaBytes === 0) fields.extraQuotaBytes = 'validation.invalid';
  const names = terms.customFields.map((f) => f.name);
  if (new Set(names).size !== names.length) fields.customFields = 'validation.duplicate';
  if (Object.keys(fields).length) throw new DomainError(CommonErrors.validation, { fields });
  const priced = terms.price !== null || terms.discount !== null;
  const offers = priced || terms.freeTrialDays > 0 || terms.extraQuotaBytes !== null;
  const percentOk = !terms.discount || terms.discount.unit !== 'percent' || terms.discount.amount <= 100;
  if (!offers || (terms.price !== null && terms.discount !== null) || !percentOk) throw new DomainError(BillingErrors.promoInvalidPrice);
};

export const decidePromoCode = (command: PromoCodeCommand, state: PromoCodeState): PromoCodeEvent[] => {
  const at = command.metadata.now.toISOString();
  switch (command.type) {
    case 'CreatePromoCode':
      if (state.status !== 'none' && state.status !== 'deleted') throw new DomainError(BillingErrors.promoExists);
      checkPromoTerms(command.data.terms);
      return [{ type: 'PromoCodeCreated', data: { ...command.data.terms, code: normalizePromoCode(command.data.code), status: command.data.status, at } }];
    case 'UpdatePromoCode':
      if (state.status === 'none' || state.status === 'deleted') throw new DomainError(BillingErrors.promoNotFound);
      checkPromoTerms(command.data.terms);
      return [{ type: 'PromoCodeUpdated', data: { ...command.data.terms, at } }];
    case 'SetPromoCodeStatus':
      if (state.status === 'none' || state.status === 'deleted') throw new DomainError(BillingErrors.promoNotFound);
      return state.status === command.data.status ? [] : [{ type: 'PromoCodeStatusChanged', data: { status: command.data.status, at } }];
    case 'DeletePromoCode':
      if (state.status === 'none' || state.status === 'deleted') throw new DomainError(BillingErrors.promoNotFound);
      return [{ type: 'PromoCodeDeleted', data: { at } }];
    case 'RecordPromoCodeUse':
      if (state.status === 'none') throw new DomainError(BillingErrors.promoInvalid);
      if (state.checkouts.includes(command.data.checkoutId)) return [];
      // a paid checkout counts even when its hold ran out meanwhile: the buyer paid the code's price
      return [{ type: 'PromoCodeUsed', data: { userId: command.data.userId, checkoutId: command.data.checkoutId, at } }];
    case 'ReservePromoCodeUse': {
      const { checkoutId, userId, productId, quantity, customFields } = command.data;
      if (state.status !== 'none' && (state.reservations[checkoutId] || state.checkouts.includes(checkoutId))) return [];
      const product = productById(productId);
      if (!product) throw new DomainError(BillingErrors.promoInvalid);
      // the limit is decided here, on the code's own stream, so parallel checkouts queue on its revision
      applyPromoCode(state, product, quantity, command.metadata.now, customFields);
      const expiresAt = new Date(command.metadata.now.getTime() + PROMO_RESERVATION_MS).toISOString();
      return [{ type: 'PromoCodeUseReserved', data: { userId, checkoutId, expiresAt, at } }];
    }
    case 'ReleasePromoCodeUse':
      if (state.status === 'none' || !state.reservations[command.data.checkoutId]) return [];
      return [{ type: 'PromoCodeUseReleased', data: { checkoutId: command.data.checkoutId, reason: command.data.reason, at } }];
    default:
      return assertNever(command);
  }
};

export const promoCodeDecider: Decider<PromoCodeCommand, PromoCodeEvent, PromoCodeState> = {
  decide: decidePromoCode,
  evolve: evolvePromoCode,
  initialState: () => ({ status: 'none' }),
};

/**
 * The price per cycle a code gives `quantity` units of a product (minor units). A fixed price is per
 * unit, as the product's own price is: 100 seats at a price of 99 cost 9,900. A code never charges
 * more than the product would without it.
 */
export const promoPrice = (terms: PromoTerms, product: Product, quantity: number): number => {
  const full = product.price * quantity;
  if (terms.price !== null) return Math.min(full, terms.price * quantity);
  if (!terms.discount) return full;
  if (terms.discount.unit === 'usd') return Math.max(0, full - terms.discount.amount);
  return Math.round((full * (100 - terms.discount.amount)) / 100);
};

/** Uses taken: paid ones, and those held by checkouts still open (a hold past its time frees itself). */
export const usesTaken = (state: Extract<PromoCodeState, { code: string }>, now: Date, exceptCheckout?: string): number =>
  state.usedTimes +
  Object.entries(state.reservations).filter(([checkoutId, r]) => checkoutId !== exceptCheckout && Date.parse(r.expiresAt) > now.getTime()).length;

/**
 * The checkout rules: 5007 for a code that does not exist or is not for this product, 5010 for one
 * switched off or outside its dates, 5015 once used as often as it may be; then the custom fields.
 */
export const applyPromoCode = (
  state: PromoCodeState,
  product: Product,
  quantity: number,
  now: Date,
  customFields: Readonly<Record<string, string>>,
  /** The checkout whose own hold is not counted against it. */
  forCheckout?: string,
): AppliedPromo => {
  if (state.status === 'none' || state.status === 'deleted' || !state.terms.productIds.includes(product.id)) {
    throw new DomainError(BillingErrors.promoInvalid);
  }
  const t = now.getTime();
  if (state.status !== 'active' || t < Date.parse(state.terms.startDate) || t >= Date.parse(state.terms.expiryDate)) {
    throw new DomainError(BillingErrors.promoInactive);
  }
  if (state.terms.numberOfUses !== null && usesTaken(state, now, forCheckout) >= state.terms.numberOfUses)
    throw new DomainError(BillingErrors.promoQuotaReached);
  for (const field of state.terms.customFields) {
    const value = customFields[field.name]?.trim() ?? '';
    const bad = !value || value.length > field.maxLength || (field.maxValue !== null && (!/^\d+$/.test(value) || Number(value) > field.maxValue));
    if (bad) {
      throw new DomainError(BillingErrors.promoFieldRequired, { field: field.name }, BillingErrors.promoFieldRequired.message.replace('{{field}}', field.name));
    }
  }
  return {
    code: state.code,
    price: promoPrice(state.terms, product, quantity),
    cycles: state.terms.recurrence === 'once' ? 1 : state.terms.cycles,
    freeTrialDays: state.terms.freeTrialDays,
    extraQuotaBytes: state.terms.extraQuotaBytes ?? 0,
  };
};
