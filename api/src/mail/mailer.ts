import type { EventRegistry } from '@axel/domain';
import { mailStream, type MailTemplate } from '@axel/domain/mail/mail.events';
import { deterministicId, expected, metadataFor, newId, type CommandContext, type EventStore } from '@axel/platform';
import type { Secrets } from '../secrets';
import type { MailAttachment, MailAttachmentStore } from './attachments.store';
import type { MailParams } from './templates';

export interface MailRequest {
  readonly to: string;
  readonly template: MailTemplate;
  readonly locale: string;
  readonly params: MailParams;
  readonly userId: string | null;
  /** Files sent with the mail (a support request's attachment): kept sealed until the mail has left. */
  readonly attachments?: readonly MailAttachment[];
}

export interface Mailer {
  request(mail: MailRequest, ctx: CommandContext): Promise<{ mailId: string; position: number }>;
}

/**
 * Queues a mail as a `MailRequested` event; the outbox projection and the deliverer do the rest.
 * With an idempotency key (a process redelivering its command) the mail and event ids derive from
 * it, so the mail is queued once however often the command arrives.
 */
export const createMailer = (deps: {
  store: EventStore;
  registry: EventRegistry;
  secrets: Secrets;
  now: () => Date;
  attachments: MailAttachmentStore;
}): Mailer => ({
  async request(mail, ctx) {
    const mailId = ctx.idempotencyKey ? deterministicId(ctx.idempotencyKey, 'mail') : newId();
    // the attachments first: the deliverer may pick the mail up as soon as its event is written
    if (mail.attachments?.length) await deps.attachments.put(mailId, mail.attachments);
    const encoded = deps.registry.encode({
      type: 'MailRequested',
      data: {
        mailId,
        to: mail.to,
        template: mail.template,
        locale: mail.locale,
        sealedParams: deps.secrets.encrypt(JSON.stringify(mail.params)),
        userId: mail.userId,
      },
    });
    const result = await deps.store.append(
      mailStream(mailId),
      [{ id: ctx.idempotencyKey ? deterministicId(ctx.idempotencyKey, 'mail-event') : newId(), ...encoded, metadata: metadataFor(ctx, deps.now()) }],
      expected.noStream,
    );
    return { mailId, position: result.position };
  },
});
