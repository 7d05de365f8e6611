import { describe, expect, it } from 'vitest';
import { CATALOGUES } from '../../i18n/i18nProvider';
import { WAITING_REASONS, waitingReasonKey } from './waitingReasons';

const lookup = (catalogue: unknown, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue);

describe('why a paid replenishment waits, in words', () => {
  it('words every known reason in every language, and any other code with the general one, never as the code', () => {
    for (const [locale, catalogue] of Object.entries(CATALOGUES)) {
      for (const code of [...WAITING_REASONS, 'SEND_FAILED', 'SOMETHING_NEW']) {
        const text = lookup(catalogue, waitingReasonKey(code)!);
        expect(typeof text, `${locale} ${code}`).toBe('string');
        expect(text as string).not.toMatch(/[A-Z]{3,}_[A-Z]/);
      }
    }
    expect(waitingReasonKey('WALLET_INSUFFICIENT_FUNDS')).toBe('console.walletDashboard.reasons.WALLET_INSUFFICIENT_FUNDS');
    expect(waitingReasonKey('SEND_FAILED')).toBe('console.walletDashboard.reasons.other');
    expect(waitingReasonKey(null)).toBeNull();
  });
});
