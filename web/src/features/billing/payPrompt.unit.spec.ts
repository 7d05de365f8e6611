import { describe, expect, it } from 'vitest';
import { payNowTarget } from './NonPaymentBanner';
import { isOpenableLink } from './PayPromptDialog';

describe('checkout links', () => {
  it('opens web pages, relative or absolute, and nothing else', () => {
    const origin = 'https://app.example.com';
    expect(isOpenableLink('/dev/checkout/abc', origin)).toBe(true);
    expect(isOpenableLink('http://localhost:8080/dev/checkout/abc', origin)).toBe(true);
    expect(isOpenableLink('https://checkout.stripe.com/c/pay/cs_test_1', origin)).toBe(true);
    expect(isOpenableLink('javascript:alert(1)', origin)).toBe(false);
    expect(isOpenableLink('data:text/html,<script>1</script>', origin)).toBe(false);
  });
});

describe('"Pay now" on the non-payment banner', () => {
  const grace = {
    graceType: 'start' as const,
    gracePeriodEndDate: '2026-03-01T00:00:00.000Z',
    scheduledStorageDeletionDate: null,
    scheduledAccDeletionDate: null,
    cost: 1999,
    currency: 'USD',
  };
  it('pays the overdue renewal of the subscription the grace information names; without one, the plans page', () => {
    expect(payNowTarget({ ...grace, subscriptionId: 'sub-1' })).toEqual({ kind: 'overdue', subscriptionId: 'sub-1' });
    expect(payNowTarget({ ...grace, subscriptionId: null })).toEqual({ kind: 'plans' });
    expect(payNowTarget(null)).toEqual({ kind: 'plans' });
  });
});
