/** A token checkout as the server reports it (`GET /wallet/v1/replenish/:checkoutId`). */
export interface ReplenishState {
  readonly checkoutId: string;
  readonly amount: string;
  readonly amountCents: number;
  readonly status: 'open' | 'paid' | 'declined';
  readonly tokens: 'none' | 'waiting' | 'sent';
  readonly txid: string | null;
}

export type ReplenishOutcome =
  /** paid, and the treasury has sent the tokens (unconfirmed until mined) */
  | 'sent'
  /** paid, the treasury sends the tokens as soon as it can */
  | 'waiting'
  /** back from the provider as paid, the provider's report not here yet */
  | 'confirming'
  /** declined or cancelled: nothing charged */
  | 'declined'
  /** still open: nothing paid yet */
  | 'open';

/**
 * What the page after the checkout says. The server's state wins over the `status` the provider put
 * in the address (anyone can type it): a `status=paid` is believed only as "confirming" until the
 * server knows the payment, and a checkout the server has paid is paid whatever the address says.
 */
export const replenishOutcome = (queryStatus: string | null, state: ReplenishState | null): ReplenishOutcome => {
  if (state?.status === 'paid') return state.tokens === 'sent' ? 'sent' : 'waiting';
  if (state?.status === 'declined') return 'declined';
  if (queryStatus === 'declined') return 'declined';
  if (queryStatus === 'paid') return 'confirming';
  return 'open';
};

/** Asked again while the outcome can still change. */
export const replenishOutcomeSettled = (outcome: ReplenishOutcome): boolean => outcome === 'sent' || outcome === 'declined';
