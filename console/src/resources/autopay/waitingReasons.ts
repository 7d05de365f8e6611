/** The reasons a treasury send waits, as the server records them (its error codes). */
export const WAITING_REASONS = ['WALLET_INSUFFICIENT_FUNDS', 'WALLET_LEDGER_TIMEOUT', 'WALLET_NO_ADDRESS', 'WALLET_INVALID_AMOUNT'] as const;

/** The translation key that words a waiting send's reason; a code not known here gets the general one. */
export const waitingReasonKey = (code: string | null): string | null =>
  code === null ? null : `console.walletDashboard.reasons.${(WAITING_REASONS as readonly string[]).includes(code) ? code : 'other'}`;
