import { defineErrors } from '../shared/errors';

/** The "Promo and payment" part of the error catalogue, and the billing errors around it. */
export const BillingErrors = defineErrors({
  /** 5007: no such code, or not for this product. */
  promoInvalid: { code: 5007, status: 400, message: 'Promo code is invalid' },
  /** 5010: switched off, not started yet, or expired. */
  promoInactive: { code: 5010, status: 400, message: 'Promo code is no longer active' },
  /** 5015: used as many times as it may be. */
  promoQuotaReached: { code: 5015, status: 400, message: 'Promo code quota reached' },
  promoFieldRequired: { code: 'PROMO_FIELD_REQUIRED', status: 400, message: 'This promo code needs the field {{field}}' },
  paymentDelay: { code: 'PAYMENT_DELAY', status: 402, message: 'Your payment is overdue: pay to continue' },
  mobileSubscription: {
    code: 'MOBILE_SUBSCRIPTION_ACTIVE',
    status: 409,
    message: 'You have an active subscription in a mobile app store: manage it there before subscribing on the web',
  },
  usageTooHigh: { code: 'USAGE_EXCEEDS_PLAN', status: 409, message: 'The plan cannot be changed until your usage is reduced to {{size}}' },
  planChangeNotAllowed: { code: 'PLAN_CHANGE_NOT_ALLOWED', status: 409, message: 'This plan change is not allowed' },
  notEnoughUnusedSlots: { code: 'NOT_ENOUGH_UNUSED_SLOTS', status: 409, message: 'Not enough unused slots to cancel these extra slots' },
  productNotFound: { code: 'PRODUCT_NOT_FOUND', status: 404, message: 'Product not found' },
  subscriptionNotFound: { code: 'SUBSCRIPTION_NOT_FOUND', status: 404, message: 'Subscription not found' },
  alreadyCanceled: { code: 'SUBSCRIPTION_ALREADY_CANCELED', status: 409, message: 'This subscription is already canceled' },
  checkoutNotFound: { code: 'CHECKOUT_NOT_FOUND', status: 404, message: 'Checkout not found' },
  checkoutClosed: { code: 'CHECKOUT_CLOSED', status: 409, message: 'This checkout is already completed' },
  nothingOverdue: { code: 'NOTHING_OVERDUE', status: 409, message: 'This subscription has no payment due' },
  checkoutExpired: { code: 'CHECKOUT_EXPIRED', status: 409, message: 'This checkout has expired: start a new one' },
  providerFailed: { code: 'PAYMENT_PROVIDER_FAILED', status: 502, message: 'The payment provider could not be reached, try again later' },
  paymentsUnavailable: { code: 'PAYMENTS_UNAVAILABLE', status: 503, message: 'Payments are not available on this installation' },
  promoInvalidPrice: { code: 'PROMO_INVALID_PRICE', status: 400, message: 'Invalid promo discount or price' },
  promoExists: { code: 'PROMO_EXISTS', status: 409, message: 'A promo code with this code already exists' },
  promoNotFound: { code: 'PROMO_NOT_FOUND', status: 404, message: 'Promo code not found' },
});
