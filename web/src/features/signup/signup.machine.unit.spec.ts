import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import { signupMachine, type SignUpRequest } from './signup.machine';

const form = {
  email: 'Ann@Example.com',
  password: 'Secret-123',
  passwordConfirmation: 'Secret-123',
  termsAccepted: true,
  locale: 'nl' as const,
};

const start = (
  opts: { signUp?: (r: SignUpRequest) => Promise<{ id: string; email: string }>; resend?: (email: string) => Promise<void>; pendingEmail?: string } = {},
) => {
  const signUps: SignUpRequest[] = [];
  const resends: string[] = [];
  const actor = createActor(
    signupMachine.provide({
      actors: {
        signUp: fromPromise<{ id: string; email: string }, SignUpRequest>(({ input }) => {
          signUps.push(input);
          return opts.signUp ? opts.signUp(input) : Promise.resolve({ id: 'u1', email: input.email });
        }),
        resend: fromPromise<void, { email: string }>(({ input }) => {
          resends.push(input.email);
          return opts.resend ? opts.resend(input.email) : Promise.resolve();
        }),
      },
    }),
    { input: opts.pendingEmail ? { pendingEmail: opts.pendingEmail } : undefined },
  ).start();
  return { actor, signUps, resends };
};

describe('sign-up machine', () => {
  it('starts on the form', () => {
    expect(start().actor.getSnapshot().value).toBe('form');
  });

  it('shows the shared validation keys and does not call the server for an invalid form', () => {
    const { actor, signUps } = start();
    actor.send({ type: 'SUBMIT', email: 'x', password: 'short', passwordConfirmation: 'other', termsAccepted: false });
    const { context, value } = actor.getSnapshot();
    expect(value).toBe('form');
    expect(context.fieldErrors).toMatchObject({
      email: 'validation.email',
      password: 'validation.passwordLength',
      termsAccepted: 'validation.terms',
    });
    expect(signUps).toHaveLength(0);
  });

  it('rejects mismatching passwords next to the confirmation', () => {
    const { actor } = start();
    actor.send({ type: 'SUBMIT', ...form, passwordConfirmation: 'Secret-124' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ passwordConfirmation: 'validation.passwordConfirmation' });
  });

  it('form -> submitting -> checkInbox with the normalised address', async () => {
    const { actor, signUps } = start();
    actor.send({ type: 'SUBMIT', ...form });
    expect(actor.getSnapshot().value).toBe('submitting');
    const snap = await waitFor(actor, (s) => s.matches('checkInbox'));
    expect(snap.context.email).toBe('ann@example.com');
    expect(signUps).toEqual([{ ...form, email: 'ann@example.com', termsAccepted: true }]);
  });

  it('checkInbox -> resending -> checkInbox counts the resends', async () => {
    const { actor, resends } = start();
    actor.send({ type: 'SUBMIT', ...form });
    await waitFor(actor, (s) => s.matches('checkInbox'));
    actor.send({ type: 'RESEND' });
    expect(actor.getSnapshot().value).toBe('resending');
    const snap = await waitFor(actor, (s) => s.matches('checkInbox') && s.context.resentCount === 1);
    expect(resends).toEqual(['ann@example.com']);
    expect(snap.context.error).toBeNull();
  });

  it('keeps the resend error code on the inbox step (rate limited)', async () => {
    const { actor } = start({
      resend: async () => {
        throw new ApiError('RATE_LIMITED', 'Too many attempts', null, 429);
      },
    });
    actor.send({ type: 'SUBMIT', ...form });
    await waitFor(actor, (s) => s.matches('checkInbox'));
    actor.send({ type: 'RESEND' });
    const snap = await waitFor(actor, (s) => s.matches('checkInbox') && s.context.error !== null);
    expect(snap.context.error?.code).toBe('RATE_LIMITED');
  });

  it('puts EMAIL_EXISTS next to the e-mail field', async () => {
    const { actor } = start({
      signUp: async () => {
        throw new ApiError('EMAIL_EXISTS', 'exists', null, 409);
      },
    });
    actor.send({ type: 'SUBMIT', ...form });
    const snap = await waitFor(actor, (s) => s.matches('form') && Object.keys(s.context.fieldErrors).length > 0);
    expect(snap.context.fieldErrors).toEqual({ email: 'errors.EMAIL_EXISTS' });
  });

  it('shows server field errors (data.fields) next to the fields', async () => {
    const { actor } = start({
      signUp: async () => {
        throw new ApiError('VALIDATION_FAILED', 'invalid', { fields: { password: 'validation.passwordMix' } }, 400);
      },
    });
    actor.send({ type: 'SUBMIT', ...form });
    const snap = await waitFor(actor, (s) => s.matches('form') && Object.keys(s.context.fieldErrors).length > 0);
    expect(snap.context.fieldErrors).toEqual({ password: 'validation.passwordMix' });
    expect(snap.context.error).toBeNull();
  });

  it('can start on the inbox step for an unverified address and resend from there', async () => {
    const { actor, resends } = start({ pendingEmail: 'bob@example.com' });
    expect(actor.getSnapshot().value).toBe('checkInbox');
    actor.send({ type: 'RESEND' });
    await waitFor(actor, (s) => s.context.resentCount === 1);
    expect(resends).toEqual(['bob@example.com']);
    actor.send({ type: 'EDIT' });
    expect(actor.getSnapshot().value).toBe('form');
  });
});
