import { defineErrors } from '../shared/errors';

/** The wallet part of the error catalogue (spec §8 "Admin and wallet", "insufficient confirmed tokens to pin"). */
export const WalletErrors = defineErrors({
  invalidAddress: { code: 'WALLET_INVALID_ADDRESS', status: 400, message: 'Invalid address: an address is exactly 34 letters or digits' },
  invalidAmount: { code: 'WALLET_INVALID_AMOUNT', status: 400, message: 'Invalid amount' },
  belowMinimum: { code: 'WALLET_BELOW_MINIMUM', status: 400, message: 'The amount is below the minimum transaction amount of {{minimum}} AXEL' },
  insufficientFunds: { code: 'WALLET_INSUFFICIENT_FUNDS', status: 400, message: 'Insufficient funds' },
  ledgerTimeout: { code: 'WALLET_LEDGER_TIMEOUT', status: 504, message: 'The ledger did not answer in time, try again' },
  unconfirmed: { code: 'WALLET_UNCONFIRMED', status: 409, message: 'You have unconfirmed tokens, please wait until they are confirmed' },
  noAddress: { code: 'WALLET_NO_ADDRESS', status: 409, message: 'Create a wallet address first' },
  insufficientToPin: { code: 'INSUFFICIENT_CONFIRMED_TOKENS', status: 402, message: 'Insufficient confirmed tokens to pin' },
  faucetUnavailable: { code: 'FAUCET_UNAVAILABLE', status: 404, message: 'The faucet exists on the development chain only' },
  transactionNotFound: { code: 'TRANSACTION_NOT_FOUND', status: 404, message: 'Transaction not found' },
  idempotencyConflict: { code: 'IDEMPOTENCY_KEY_REUSED', status: 409, message: 'This idempotency key was already used for a different send' },
});

export const ContactErrors = defineErrors({
  ownEmail: { code: 'CONTACT_OWN_EMAIL', status: 400, message: 'You cannot add your own e-mail as a contact' },
  ownKey: { code: 'CONTACT_OWN_KEY', status: 400, message: 'You cannot add your own public key as a contact' },
  duplicateEmail: { code: 'CONTACT_DUPLICATE_EMAIL', status: 409, message: 'A contact with this e-mail already exists' },
  duplicateKey: { code: 'CONTACT_DUPLICATE_KEY', status: 409, message: 'A contact with this public key already exists' },
  notFound: { code: 'CONTACT_NOT_FOUND', status: 404, message: 'Contact not found' },
});
