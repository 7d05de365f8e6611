import { assign, fromCallback, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import { validate, type FieldErrors } from '../../forms/zodErrors';
import { attachmentsTooLarge, supportFormSchema } from './support.validation';

/** Who the message goes to: the product's support, or the owner of the member's team (spec §6). */
export type Recipient = 'support' | 'owner';

export interface SupportForm {
  to: Recipient;
  email: string;
  subject: string;
  text: string;
  attachment: File | null;
}

export interface SendInput {
  to: Recipient;
  email: string;
  subject: string;
  text: string;
  attachment: File | null;
}

export interface SupportContext {
  fieldErrors: FieldErrors;
  error: NormalisedError | null;
  /** Fraction of the message sent, 0 to 1, while sending. */
  progress: number;
  sentTo: Recipient | null;
}

export type SupportEvent =
  | { type: 'SUBMIT'; form: SupportForm }
  | { type: 'PROGRESS'; fraction: number }
  | { type: 'SENT' }
  | { type: 'FAILED'; error: unknown }
  | { type: 'AGAIN' };

/** Server field names of the multipart form (`text`) are the form's own; a wrong reply address belongs to its field. */
const SERVER_FIELDS = new Set(['subject', 'text', 'email']);

const serverFieldErrors = (error: NormalisedError): FieldErrors | null => {
  const fields = (error.data as { fields?: Record<string, string> } | null)?.fields;
  if (error.code !== 'VALIDATION_FAILED' || !fields) return null;
  const known = Object.entries(fields).filter(([k]) => SERVER_FIELDS.has(k));
  if (!known.length) return null;
  return Object.fromEntries(
    known.map(([k, v]) => [k, v === 'validation.required' ? (k === 'subject' ? 'support.validation.subjectRequired' : 'support.validation.textRequired') : v]),
  );
};

/**
 * The contact-support dialog: editing -> sending (with progress) -> sent. The form is checked
 * before anything is sent: subject and message required, the attachment at most 15 MB. AGAIN
 * after a success starts a new message.
 */
export const supportMachine = setup({
  types: {
    context: {} as SupportContext,
    events: {} as SupportEvent,
  },
  actors: {
    send: fromCallback<SupportEvent, SendInput>(({ sendBack }) => {
      sendBack({ type: 'FAILED', error: new Error('send actor not provided') });
    }),
  },
}).createMachine({
  id: 'support',
  context: { fieldErrors: {}, error: null, progress: 0, sentTo: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        SUBMIT: [
          {
            guard: ({ event }) => !validate(supportFormSchema, event.form).ok,
            actions: assign(({ event }) => {
              const v = validate(supportFormSchema, event.form);
              return { fieldErrors: v.ok ? {} : v.fieldErrors, error: null };
            }),
          },
          {
            guard: ({ event }) => event.form.attachment !== null && attachmentsTooLarge([event.form.attachment]),
            actions: assign({ fieldErrors: { attachment: 'support.validation.attachmentTooLarge' }, error: null }),
          },
          { target: 'sending', actions: assign(({ event }) => ({ fieldErrors: {}, error: null, progress: 0, sentTo: event.form.to })) },
        ],
      },
    },
    sending: {
      invoke: {
        src: 'send',
        input: ({ event }) => {
          const { form } = event as { form: SupportForm };
          return {
            to: form.to,
            email: form.email.trim(),
            subject: form.subject.trim(),
            text: form.text.trim(),
            attachment: form.to === 'support' ? form.attachment : null,
          };
        },
      },
      on: {
        PROGRESS: { actions: assign(({ event }) => ({ progress: Math.max(0, Math.min(1, event.fraction)) })) },
        SENT: { target: 'sent', actions: assign({ progress: 1 }) },
        FAILED: {
          target: 'editing',
          actions: assign(({ event }) => {
            const error = toApiError(event.error).toJSON();
            if (error.code === 'ATTACHMENT_TOO_LARGE') return { fieldErrors: { attachment: 'support.validation.attachmentTooLarge' }, error: null };
            const fields = serverFieldErrors(error);
            return fields ? { fieldErrors: fields, error: null } : { fieldErrors: {}, error };
          }),
        },
      },
    },
    sent: {
      on: { AGAIN: { target: 'editing', actions: assign({ progress: 0, sentTo: null }) } },
    },
  },
});
