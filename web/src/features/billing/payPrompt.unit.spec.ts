import { describe, expect, it } from 'vitest';
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
