import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  decideResendCap,
  RESENDS_PER_RECIPIENT_PER_DAY,
  SHARE_MAIL_WINDOW_MS,
  SHARE_RESEND_MAILS_PER_ACCOUNT_PER_DAY,
  type SentShareMail,
} from './share-mail-cap';

/*
 * Invariant: whatever order resends come in, a recipient of a share never gets more than the cap
 * in any 24 hours, nor the account more than its cap; a refusal's wait is exactly what makes the
 * same resend pass.
 */

const RECIPIENTS = Array.from({ length: 10 }, (_, i) => `r${i}`);
const attempt = fc.record({
  share: fc.constantFrom('s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8'),
  recipients: fc.subarray(RECIPIENTS, { minLength: 1 }),
  gapMinutes: fc.integer({ min: 0, max: 8 * 60 }),
});

describe('resend mail caps', () => {
  it('15 resends to 10 recipients send 30 mails in a day, then wait', () => {
    const sent: SentShareMail[] = [];
    let refused = 0;
    for (let i = 0; i < 15; i++) {
      const now = i * 60_000;
      const verdict = decideResendCap({ shareId: 's', recipients: RECIPIENTS, sent, now });
      if (verdict.ok) sent.push(...RECIPIENTS.map((recipient) => ({ shareId: 's', recipient, at: now })));
      else {
        refused++;
        expect(verdict).toMatchObject({ cap: 'recipient', retryAfterMs: SHARE_MAIL_WINDOW_MS - now });
      }
    }
    expect(sent).toHaveLength(RESENDS_PER_RECIPIENT_PER_DAY * 10);
    expect(refused).toBe(15 - RESENDS_PER_RECIPIENT_PER_DAY);
  });

  test.prop([fc.array(attempt, { minLength: 1, maxLength: 60 })])('never let more out than the caps in any 24 hours', (attempts) => {
    const sent: SentShareMail[] = [];
    let now = 0;
    for (const a of attempts) {
      now += a.gapMinutes * 60_000;
      const verdict = decideResendCap({ shareId: a.share, recipients: a.recipients, sent, now });
      if (verdict.ok) {
        sent.push(...a.recipients.map((recipient) => ({ shareId: a.share, recipient, at: now })));
      } else {
        expect(verdict.retryAfterMs).toBeGreaterThan(0);
        // waiting the answered time is enough, and a moment less is not
        expect(decideResendCap({ shareId: a.share, recipients: a.recipients, sent, now: now + verdict.retryAfterMs }).ok).toBe(true);
        expect(decideResendCap({ shareId: a.share, recipients: a.recipients, sent, now: now + verdict.retryAfterMs - 1 }).ok).toBe(false);
      }
    }
    for (const m of sent) {
      const window = sent.filter((x) => x.at > m.at - SHARE_MAIL_WINDOW_MS && x.at <= m.at);
      expect(window.length).toBeLessThanOrEqual(SHARE_RESEND_MAILS_PER_ACCOUNT_PER_DAY);
      expect(window.filter((x) => x.shareId === m.shareId && x.recipient === m.recipient).length).toBeLessThanOrEqual(RESENDS_PER_RECIPIENT_PER_DAY);
    }
  });
});
