import { describe, expect, it } from 'vitest';
import { replenishOutcome, replenishOutcomeSettled, type ReplenishState } from './replenishOutcome';

const state = (status: ReplenishState['status'], tokens: ReplenishState['tokens']): ReplenishState => ({
  checkoutId: 'u.tokens-x',
  amount: '2',
  amountCents: 200,
  status,
  tokens,
  txid: tokens === 'sent' ? 'tx' : null,
});

describe('the page after a token checkout', () => {
  it('believes the server over the address', () => {
    expect(replenishOutcome('declined', state('paid', 'sent'))).toBe('sent');
    expect(replenishOutcome(null, state('paid', 'waiting'))).toBe('waiting');
    expect(replenishOutcome('paid', state('declined', 'none'))).toBe('declined');
  });
  it('an address that says paid is only "confirming" until the server knows the payment', () => {
    expect(replenishOutcome('paid', state('open', 'none'))).toBe('confirming');
    expect(replenishOutcome('paid', null)).toBe('confirming');
    expect(replenishOutcome('declined', state('open', 'none'))).toBe('declined');
    expect(replenishOutcome(null, state('open', 'none'))).toBe('open');
    expect(replenishOutcome('nonsense', null)).toBe('open');
  });
  it('keeps asking until the tokens are sent or the checkout is declined', () => {
    expect(replenishOutcomeSettled('sent')).toBe(true);
    expect(replenishOutcomeSettled('declined')).toBe(true);
    expect(replenishOutcomeSettled('waiting')).toBe(false);
    expect(replenishOutcomeSettled('confirming')).toBe(false);
  });
});
