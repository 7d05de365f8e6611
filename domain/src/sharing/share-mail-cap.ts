/*
 * Mail a private share sends again (resend) is capped, so that an account cannot turn the product
 * into a mailer with its name, title and message: each recipient of a share gets at most
 * RESENDS_PER_RECIPIENT_PER_DAY resends in any 24 hours, and an account sends at most
 * SHARE_RESEND_MAILS_PER_ACCOUNT_PER_DAY resend mails in any 24 hours, over all its shares.
 * A resend that would pass either cap is refused whole (429 with the time until it would not).
 */

export const RESENDS_PER_RECIPIENT_PER_DAY = 3;
export const SHARE_RESEND_MAILS_PER_ACCOUNT_PER_DAY = 50;
export const SHARE_MAIL_WINDOW_MS = 24 * 60 * 60_000;

/** One resend mail the account sent: to whom (any stable key of the address), of which share, when. */
export interface SentShareMail {
  readonly shareId: string;
  readonly recipient: string;
  /** Epoch milliseconds. */
  readonly at: number;
}

export type ResendCap = { readonly ok: true } | { readonly ok: false; readonly cap: 'recipient' | 'account'; readonly retryAfterMs: number };

/** When the oldest `excess` of these times have left the window (the caller is `excess` over a cap). */
const freedAt = (times: readonly number[], excess: number): number => [...times].sort((a, b) => a - b)[excess - 1]! + SHARE_MAIL_WINDOW_MS;

/**
 * Whether a resend of `shareId` to `recipients` may go now, given the account's resend mails
 * (any age: older ones are ignored). Refused: which cap, and how long until the resend would pass.
 */
export const decideResendCap = (input: {
  readonly shareId: string;
  readonly recipients: readonly string[];
  readonly sent: readonly SentShareMail[];
  readonly now: number;
}): ResendCap => {
  const recent = input.sent.filter((m) => m.at > input.now - SHARE_MAIL_WINDOW_MS && m.at <= input.now);
  let until = 0;
  let cap: 'recipient' | 'account' = 'recipient';
  for (const recipient of new Set(input.recipients)) {
    const times = recent.filter((m) => m.shareId === input.shareId && m.recipient === recipient).map((m) => m.at);
    if (times.length >= RESENDS_PER_RECIPIENT_PER_DAY) until = Math.max(until, freedAt(times, times.length - RESENDS_PER_RECIPIENT_PER_DAY + 1));
  }
  const excess = recent.length + new Set(input.recipients).size - SHARE_RESEND_MAILS_PER_ACCOUNT_PER_DAY;
  if (excess > 0) {
    const at =
      excess <= recent.length
        ? freedAt(
            recent.map((m) => m.at),
            excess,
          )
        : input.now + SHARE_MAIL_WINDOW_MS;
    if (at > until) cap = 'account';
    until = Math.max(until, at);
  }
  return until > input.now ? { ok: false, cap, retryAfterMs: until - input.now } : { ok: true };
};
