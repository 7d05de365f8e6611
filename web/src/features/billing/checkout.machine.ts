import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { BillingCycle, Product, PromoQuote } from './billing.types';

export type PaymentResult = 'success' | 'declined';

export interface CheckoutContext {
  products: Product[];
  cycle: BillingCycle;
  productId: number | null;
  promoCode: string;
  /** Translation key shown under the promo code field. */
  promoError: string | null;
  /** The price the applied promo code gives the chosen plan, before paying. */
  quote: PromoQuote | null;
  /** Fields a promo code asks the buyer for (state, bar number), and what was typed in them. */
  askedFields: PromoFieldName[];
  customFields: Partial<Record<PromoFieldName, string>>;
  error: NormalisedError | null;
  checkoutLink: string | null;
  result: PaymentResult | null;
}

export type CheckoutEvent =
  | { type: 'SET_CYCLE'; cycle: BillingCycle }
  | { type: 'SELECT'; productId: number }
  | { type: 'SET_PROMO'; code: string }
  | { type: 'APPLY_PROMO' }
  | { type: 'SET_FIELD'; name: PromoFieldName; value: string }
  | { type: 'BACK' }
  | { type: 'PAY' }
  | { type: 'RETRY' };

export interface CheckoutRequest {
  productId: number;
  /** Extra member slots: how many. */
  quantity?: number;
  promoCode?: string;
  customFields?: Partial<Record<PromoFieldName, string>>;
}

export interface CheckoutInput {
  productId?: number | null;
  cycle?: BillingCycle | null;
  /** Set on the payment result page: the provider sent the browser back with this outcome. */
  result?: PaymentResult | null;
}

/** The promo code errors of the catalogue (§8 "Promo and payment"): invalid, no longer active, quota reached. */
/** The custom fields a promo code can ask for at checkout (§3 "Promo code"), at most 20 characters each. */
export const PROMO_FIELD_NAMES = ['state', 'barNumber'] as const;
export type PromoFieldName = (typeof PROMO_FIELD_NAMES)[number];
export const PROMO_FIELD_MAX_LENGTH = 20;
const isPromoField = (v: unknown): v is PromoFieldName => (PROMO_FIELD_NAMES as readonly unknown[]).includes(v);

export const PROMO_ERROR_CODES: ReadonlySet<string> = new Set(['5007', '5010', '5015']);
/** The server takes codes of at most 40 characters. */
export const PROMO_CODE_MAX_LENGTH = 40;

/** Products a user can choose on the plans page: paid plans, not free, child or extra-member products. */
export const isSellable = (p: Product) => p.type === 'plan' || p.type === 'custom-plan';

export interface PromoQuoteRequest {
  code: string;
  productId: number;
}

const promoFormatError = (code: string): string | null => {
  const trimmed = code.trim();
  if (trimmed === '') return null;
  if (trimmed.length > PROMO_CODE_MAX_LENGTH || /\s/.test(trimmed)) return 'errors.5007';
  return null;
};

/**
 * Checkout: loading the catalogue, choosing a plan (monthly or yearly), the promo step (applying a
 * code asks the server what the plan then costs, shown before paying), then the provider's checkout
 * page (redirecting). The provider sends the browser back to the result page,
 * where the same machine starts in `confirming`: it re-reads the account so the page shows the
 * plan the server now grants, not what the address bar claims.
 */
export const checkoutMachine = setup({
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    input: {} as CheckoutInput | undefined,
  },
  actors: {
    loadProducts: fromPromise<Product[]>(async () => {
      throw new Error('loadProducts actor not provided');
    }),
    startCheckout: fromPromise<string, CheckoutRequest>(async () => {
      throw new Error('startCheckout actor not provided');
    }),
    quotePromo: fromPromise<PromoQuote, PromoQuoteRequest>(async () => {
      throw new Error('quotePromo actor not provided');
    }),
    confirmResult: fromPromise<PaymentResult, { result: PaymentResult }>(async ({ input }) => input.result),
  },
  actions: {
    openCheckout: () => undefined,
  },
  guards: {
    hasResult: ({ context }) => context.result !== null,
    chosenProductKnown: ({ context, event }) => {
      const products = 'output' in event ? (event.output as Product[]) : context.products;
      return products.some((p) => p.id === context.productId && isSellable(p));
    },
    selectable: ({ context, event }) => event.type === 'SELECT' && context.products.some((p) => p.id === event.productId && isSellable(p)),
    promoWellFormed: ({ context }) => promoFormatError(context.promoCode) === null,
    promoToQuote: ({ context }) => context.promoCode.trim() !== '' && promoFormatError(context.promoCode) === null,
    isPromoError: ({ event }) => 'error' in event && PROMO_ERROR_CODES.has(toApiError(event.error).code),
    isFieldRequest: ({ event }) =>
      'error' in event && toApiError(event.error).code === 'PROMO_FIELD_REQUIRED' && isPromoField(toApiError(event.error).data?.field),
  },
}).createMachine({
  id: 'checkout',
  context: ({ input }) => ({
    products: [],
    cycle: input?.cycle ?? 'monthly',
    productId: input?.productId ?? null,
    promoCode: '',
    promoError: null,
    quote: null,
    askedFields: [],
    customFields: {},
    error: null,
    checkoutLink: null,
    result: input?.result ?? null,
  }),
  initial: 'start',
  states: {
    start: { always: [{ guard: 'hasResult', target: 'confirming' }, { target: 'loading' }] },
    loading: {
      invoke: {
        src: 'loadProducts',
        onDone: [
          { guard: 'chosenProductKnown', target: 'promo', actions: assign({ products: ({ event }) => event.output }) },
          { target: 'choosing', actions: assign({ products: ({ event }) => event.output, productId: null }) },
        ],
        onError: { target: 'loadFailed', actions: assign({ error: ({ event }) => toApiError(event.error).toJSON() }) },
      },
    },
    loadFailed: { on: { RETRY: { target: 'loading', actions: assign({ error: null }) } } },
    choosing: {
      on: {
        SET_CYCLE: { actions: assign({ cycle: ({ event }) => event.cycle }) },
        SELECT: { guard: 'selectable', target: 'promo', actions: assign({ productId: ({ event }) => event.productId, error: null, promoError: null }) },
      },
    },
    promo: {
      on: {
        SET_PROMO: { actions: assign({ promoCode: ({ event }) => event.code, promoError: null, quote: null, askedFields: [], customFields: {} }) },
        APPLY_PROMO: [
          { guard: 'promoToQuote', target: 'quoting', actions: assign({ error: null, promoError: null }) },
          { actions: assign({ promoError: ({ context }) => promoFormatError(context.promoCode) }) },
        ],
        SET_FIELD: { actions: assign({ customFields: ({ context, event }) => ({ ...context.customFields, [event.name]: event.value }), error: null }) },
        BACK: { target: 'choosing', actions: assign({ error: null, promoError: null, quote: null }) },
        PAY: [
          { guard: 'promoWellFormed', target: 'submitting', actions: assign({ error: null, promoError: null }) },
          { actions: assign({ promoError: ({ context }) => promoFormatError(context.promoCode) }) },
        ],
      },
    },
    quoting: {
      invoke: {
        src: 'quotePromo',
        input: ({ context }) => ({ code: context.promoCode.trim(), productId: context.productId ?? 0 }),
        onDone: { target: 'promo', actions: assign({ quote: ({ event }) => event.output }) },
        onError: [
          { guard: 'isPromoError', target: 'promo', actions: assign({ promoError: ({ event }) => `errors.${toApiError(event.error).code}` }) },
          { target: 'promo', actions: assign({ error: ({ event }) => toApiError(event.error).toJSON() }) },
        ],
      },
    },
    submitting: {
      invoke: {
        src: 'startCheckout',
        input: ({ context }) => {
          const promoCode = context.promoCode.trim();
          const fields = Object.fromEntries(context.askedFields.map((name) => [name, (context.customFields[name] ?? '').trim()]));
          return {
            productId: context.productId ?? 0,
            ...(promoCode ? { promoCode } : {}),
            ...(promoCode && context.askedFields.length > 0 ? { customFields: fields } : {}),
          };
        },
        onDone: { target: 'redirecting', actions: assign({ checkoutLink: ({ event }) => event.output }) },
        onError: [
          { guard: 'isPromoError', target: 'promo', actions: assign({ promoError: ({ event }) => `errors.${toApiError(event.error).code}`, quote: null }) },
          {
            guard: 'isFieldRequest',
            target: 'promo',
            actions: assign({
              askedFields: ({ context, event }) => {
                const field = toApiError(event.error).data?.field as PromoFieldName;
                return context.askedFields.includes(field) ? context.askedFields : [...context.askedFields, field];
              },
              error: ({ event }) => toApiError(event.error).toJSON(),
            }),
          },
          { target: 'promo', actions: assign({ error: ({ event }) => toApiError(event.error).toJSON() }) },
        ],
      },
    },
    redirecting: { entry: 'openCheckout' },
    confirming: {
      invoke: {
        src: 'confirmResult',
        input: ({ context }) => ({ result: context.result ?? 'declined' }),
        onDone: [
          { guard: ({ event }) => event.output === 'success', target: 'succeeded', actions: assign({ result: 'success' }) },
          { target: 'declined', actions: assign({ result: 'declined' }) },
        ],
        onError: { target: 'declined', actions: assign({ result: 'declined', error: ({ event }) => toApiError(event.error).toJSON() }) },
      },
    },
    succeeded: { type: 'final' },
    declined: { on: { RETRY: { target: 'loading', actions: assign({ result: null, error: null }) } } },
  },
});
