import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import { SUPPORT_ATTACHMENT_MAX_BYTES } from './support.validation';
import { supportMachine, type SendInput, type SupportEvent, type SupportForm } from './support.machine';

const form = (over: Partial<SupportForm> = {}): SupportForm => ({
  to: 'support',
  email: '',
  subject: 'Invoice',
  text: 'It is blank',
  attachment: null,
  ...over,
});
const fileOf = (size: number) => ({ name: 'a.pdf', size }) as File;

/** A machine whose sender reports the given progress steps, then succeeds or fails. */
const start = (outcome: { progress?: number[]; fail?: unknown } = {}) => {
  const sent: SendInput[] = [];
  const actor = createActor(
    supportMachine.provide({
      actors: {
        send: fromCallback<SupportEvent, SendInput>(({ sendBack, input }) => {
          sent.push(input);
          for (const fraction of outcome.progress ?? []) sendBack({ type: 'PROGRESS', fraction });
          if (outcome.fail) setTimeout(() => sendBack({ type: 'FAILED', error: outcome.fail }), 0);
          else if (!outcome.progress?.length || outcome.progress.at(-1) === 1) setTimeout(() => sendBack({ type: 'SENT' }), 0);
        }),
      },
    }),
  ).start();
  return { actor, sent };
};

describe('the contact-support dialog', () => {
  it('refuses to send without a subject or a message, with the spec messages', () => {
    const { actor, sent } = start();
    actor.send({ type: 'SUBMIT', form: form({ subject: '  ', text: '' }) });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ subject: 'support.validation.subjectRequired', text: 'support.validation.textRequired' });
    expect(sent).toEqual([]);
  });

  it('refuses an attachment over 15 MB before sending anything; exactly 15 MB is sent', async () => {
    const { actor, sent } = start();
    actor.send({ type: 'SUBMIT', form: form({ attachment: fileOf(SUPPORT_ATTACHMENT_MAX_BYTES + 1) }) });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ attachment: 'support.validation.attachmentTooLarge' });
    expect(sent).toEqual([]);
    actor.send({ type: 'SUBMIT', form: form({ attachment: fileOf(SUPPORT_ATTACHMENT_MAX_BYTES) }) });
    await waitFor(actor, (s) => s.matches('sent'));
    expect(sent[0]?.attachment?.size).toBe(SUPPORT_ATTACHMENT_MAX_BYTES);
  });

  it('shows the progress while sending, then the confirmation; the texts are sent trimmed', async () => {
    const { actor, sent } = start({ progress: [0.25, 0.5] });
    actor.send({ type: 'SUBMIT', form: form({ subject: ' Invoice ', text: ' It is blank\n' }) });
    expect(actor.getSnapshot().value).toBe('sending');
    expect(actor.getSnapshot().context.progress).toBe(0.5);
    expect(sent).toEqual([{ to: 'support', email: '', subject: 'Invoice', text: 'It is blank', attachment: null }]);
    actor.send({ type: 'SENT' });
    expect(actor.getSnapshot().value).toBe('sent');
    expect(actor.getSnapshot().context).toMatchObject({ progress: 1, sentTo: 'support' });
    actor.send({ type: 'AGAIN' });
    expect(actor.getSnapshot().context).toMatchObject({ progress: 0, sentTo: null });
  });

  it('a message to the team owner carries no attachment', async () => {
    const { actor, sent } = start();
    actor.send({ type: 'SUBMIT', form: form({ to: 'owner', attachment: fileOf(10) }) });
    await waitFor(actor, (s) => s.matches('sent'));
    expect(sent[0]).toMatchObject({ to: 'owner', attachment: null });
    expect(actor.getSnapshot().context.sentTo).toBe('owner');
  });

  it("puts the server's refusals where they belong: a too large attachment on its field, anything else above the form", async () => {
    const tooLarge = start({ fail: new ApiError('ATTACHMENT_TOO_LARGE', 'The attachment is larger than 15 MB', null, 413) });
    tooLarge.actor.send({ type: 'SUBMIT', form: form() });
    await waitFor(tooLarge.actor, (s) => s.matches('editing'));
    expect(tooLarge.actor.getSnapshot().context).toMatchObject({ fieldErrors: { attachment: 'support.validation.attachmentTooLarge' }, error: null });

    const blank = start({ fail: new ApiError('VALIDATION_FAILED', 'invalid', { fields: { subject: 'validation.required' } }, 400) });
    blank.actor.send({ type: 'SUBMIT', form: form() });
    await waitFor(blank.actor, (s) => s.matches('editing'));
    expect(blank.actor.getSnapshot().context.fieldErrors).toEqual({ subject: 'support.validation.subjectRequired' });

    const limited = start({ fail: new ApiError('RATE_LIMITED', 'Too many', null, 429) });
    limited.actor.send({ type: 'SUBMIT', form: form() });
    await waitFor(limited.actor, (s) => s.matches('editing'));
    expect(limited.actor.getSnapshot().context.error?.code).toBe('RATE_LIMITED');
  });
});
