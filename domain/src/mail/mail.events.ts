import { z } from 'zod';
import { defineEvent, erasesOwnStream, type EventOf } from '../shared/events';

export const MAIL_TEMPLATES = [
  'email-confirmation',
  'password-reset',
  'email-change',
  'two-factor-code',
  'two-factor-reset',
  'account-deleted',
  'account-purged',
  // security notices to the account's address: the owner hears of changes they did not make
  'email-changed',
  'password-changed',
  'two-factor-disabled',
  // the grace period after a failed renewal: its start, reminders, deactivation, deletion, the end
  'payment-failed',
  'payment-reminder',
  'account-deactivated',
  'storage-deleted',
  'payment-restored',
  // shares: a private share to its recipients, expiry reminders to the owner
  'share-received',
  'share-expiring',
  // auto-pay: a submitted program reminds the staff who may approve it
  'autopay-approval-reminder',
  // teams: an invite to join the team of a plan owner
  'team-invite',
  // a user's message to support (with its attachment), and a member's message to their team's owner
  'support-request',
  'contact-message',
  // e-sign: a signer's link to a package out for signature
  'esign-request',
] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];

/**
 * A mail to send. Parameters can hold one-time links, so they are stored sealed with the server
 * key: the event log never shows a usable token.
 */
export const MailRequested = defineEvent(
  'MailRequested',
  z.object({
    mailId: z.string(),
    to: z.string(),
    template: z.enum(MAIL_TEMPLATES),
    locale: z.string(),
    sealedParams: z.string(),
    userId: z.string().nullable(),
  }),
  // the address and the sealed links are forgotten once the mail has left (see MailDelivered)
  { personal: ['to', 'sealedParams'] },
);

export const MailDelivered = defineEvent(
  'MailDelivered',
  z.object({ mailId: z.string(), transport: z.enum(['smtp', 'dev']), messageId: z.string().nullable() }),
  { erases: erasesOwnStream },
);

export const MailFailed = defineEvent('MailFailed', z.object({ mailId: z.string(), error: z.string(), attempt: z.number().int(), final: z.boolean() }), {
  erases: (data, streamName) => (data.final ? [streamName] : []),
});

export const mailEvents = [MailRequested, MailDelivered, MailFailed];
export type MailEvent = EventOf<typeof MailRequested> | EventOf<typeof MailDelivered> | EventOf<typeof MailFailed>;
export const mailStream = (mailId: string) => `mail-${mailId}`;
