import type { TwoFactorMethod } from '@axel/domain/accounts/accounts.validation';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import type { TotpEnrolment, UserInfo } from '../../api/types';
import { twoFactorMachine, type TwoFactorInput } from './two-factor.machine';

const enrolment: TotpEnrolment = { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x', qrDataUrl: 'data:image/png;base64,AAAA' };
const userWith = (enabled: boolean, method: TwoFactorMethod | null) => ({ id: 'u1', twoFactor: { enabled, method } }) as UserInfo;

const start = (
  input: TwoFactorInput,
  opts: {
    enable?: (m: TwoFactorMethod, c: string) => Promise<UserInfo>;
    startTotp?: () => Promise<TotpEnrolment>;
    disable?: (c: string) => Promise<UserInfo>;
  } = {},
) => {
  const log: string[] = [];
  const users: UserInfo[] = [];
  const actor = createActor(
    twoFactorMachine.provide({
      actors: {
        startTotp: fromPromise<TotpEnrolment, void>(() => {
          log.push('startTotp');
          return opts.startTotp ? opts.startTotp() : Promise.resolve(enrolment);
        }),
        sendEmailCode: fromPromise<void, void>(async () => {
          log.push('sendEmailCode');
        }),
        enable: fromPromise<UserInfo, { method: TwoFactorMethod; code: string }>(({ input: i }) => {
          log.push(`enable:${i.method}:${i.code}`);
          return opts.enable ? opts.enable(i.method, i.code) : Promise.resolve(userWith(true, i.method));
        }),
        disable: fromPromise<UserInfo, { code: string }>(async ({ input: i }) => {
          log.push(`disable:${i.code}`);
          return opts.disable ? opts.disable(i.code) : userWith(false, null);
        }),
      },
      actions: { userChanged: (_, params) => void users.push(params.user) },
    }),
    { input },
  ).start();
  return { actor, log, users };
};

describe('two-factor enrolment machine', () => {
  it('starts on the method choice when 2FA is off, on enabled when it is on', () => {
    expect(start({ enabled: false, method: null }).actor.getSnapshot().value).toBe('choose');
    expect(start({ enabled: true, method: 'email' }).actor.getSnapshot().value).toBe('enabled');
  });

  it('authenticator app: choose -> totp setup with the QR data URL -> verify code -> enabled', async () => {
    const { actor, log, users } = start({ enabled: false, method: null });
    actor.send({ type: 'CHOOSE', method: 'totp' });
    expect(actor.getSnapshot().value).toBe('startingTotp');
    let snap = await waitFor(actor, (s) => s.matches('totpSetup'));
    expect(snap.context.totp?.qrDataUrl).toBe(enrolment.qrDataUrl);

    actor.send({ type: 'SUBMIT_CODE', code: '12' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ code: 'validation.code' });

    actor.send({ type: 'SUBMIT_CODE', code: ' 123456 ' });
    expect(actor.getSnapshot().value).toBe('verifying');
    snap = await waitFor(actor, (s) => s.matches('enabled'));
    expect(snap.context.enabledMethod).toBe('totp');
    expect(snap.context.totp).toBeNull();
    expect(log).toEqual(['startTotp', 'enable:totp:123456']);
    expect(users).toEqual([userWith(true, 'totp')]);
  });

  it('a wrong code keeps the QR step with TWO_FACTOR_INCORRECT', async () => {
    const { actor } = start(
      { enabled: false, method: null },
      {
        enable: async () => {
          throw new ApiError('TWO_FACTOR_INCORRECT', 'Incorrect 2FA code', null, 400);
        },
      },
    );
    actor.send({ type: 'CHOOSE', method: 'totp' });
    await waitFor(actor, (s) => s.matches('totpSetup'));
    actor.send({ type: 'SUBMIT_CODE', code: '000000' });
    const snap = await waitFor(actor, (s) => s.matches('totpSetup') && s.context.error !== null);
    expect(snap.context.error?.code).toBe('TWO_FACTOR_INCORRECT');
    expect(snap.context.totp).not.toBeNull();
  });

  it('a new attempt clears the previous error: a stale TWO_FACTOR_INCORRECT never stays beside a new error', async () => {
    const { actor } = start(
      { enabled: false, method: null },
      {
        enable: async () => {
          throw new ApiError('TWO_FACTOR_INCORRECT', 'Incorrect 2FA code', null, 401);
        },
      },
    );
    actor.send({ type: 'CHOOSE', method: 'totp' });
    await waitFor(actor, (s) => s.matches('totpSetup'));
    actor.send({ type: 'SUBMIT_CODE', code: '000000' });
    await waitFor(actor, (s) => s.matches('totpSetup') && s.context.error !== null);

    actor.send({ type: 'SUBMIT_CODE', code: '12' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ code: 'validation.code' });
    expect(actor.getSnapshot().context.error).toBeNull();

    actor.send({ type: 'SUBMIT_CODE', code: '111111' });
    expect(actor.getSnapshot().context).toMatchObject({ fieldErrors: {}, error: null });
  });

  it('a stale error is cleared by a new attempt when turning 2FA off too', async () => {
    const { actor } = start(
      { enabled: true, method: 'totp' },
      {
        disable: async () => {
          throw new ApiError('TWO_FACTOR_INCORRECT', 'Incorrect 2FA code', null, 401);
        },
      },
    );
    actor.send({ type: 'DISABLE' });
    actor.send({ type: 'SUBMIT_CODE', code: '000000' });
    await waitFor(actor, (s) => s.matches('disableCode') && s.context.error !== null);
    actor.send({ type: 'SUBMIT_CODE', code: 'abc' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ code: 'validation.code' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('confirms a code mailed again on request (enrolment and turning off), not the first one', async () => {
    const { actor } = start({ enabled: false, method: null });
    actor.send({ type: 'CHOOSE', method: 'email' });
    let snap = await waitFor(actor, (s) => s.matches('emailCode'));
    expect(snap.context.codeResent).toBe(false);
    actor.send({ type: 'RESEND' });
    snap = await waitFor(actor, (s) => s.matches('emailCode'));
    expect(snap.context.codeResent).toBe(true);
    actor.send({ type: 'SUBMIT_CODE', code: '1' });
    expect(actor.getSnapshot().context.codeResent).toBe(false);

    const off = start({ enabled: true, method: 'email' }).actor;
    off.send({ type: 'DISABLE' });
    snap = await waitFor(off, (s) => s.matches('disableCode'));
    expect(snap.context.codeResent).toBe(false);
    off.send({ type: 'RESEND' });
    snap = await waitFor(off, (s) => s.matches('disableCode') && s.context.codeResent);
    expect(snap.context.codeResent).toBe(true);
    off.send({ type: 'CANCEL' });
    expect(off.getSnapshot().context.codeResent).toBe(false);
  });

  it('e-mail: choose -> code mailed -> resend -> verify -> enabled', async () => {
    const { actor, log } = start({ enabled: false, method: null });
    actor.send({ type: 'CHOOSE', method: 'email' });
    await waitFor(actor, (s) => s.matches('emailCode'));
    actor.send({ type: 'RESEND' });
    await waitFor(actor, (s) => s.matches('emailCode'));
    actor.send({ type: 'SUBMIT_CODE', code: '654321' });
    const snap = await waitFor(actor, (s) => s.matches('enabled'));
    expect(snap.context.enabledMethod).toBe('email');
    expect(log).toEqual(['sendEmailCode', 'sendEmailCode', 'enable:email:654321']);
  });

  it('the plan refusing 2FA returns to the choice with NO_2FA_ACCESS', async () => {
    const { actor } = start(
      { enabled: false, method: null },
      {
        startTotp: async () => {
          throw new ApiError('NO_2FA_ACCESS', 'no', null, 403);
        },
      },
    );
    actor.send({ type: 'CHOOSE', method: 'totp' });
    const snap = await waitFor(actor, (s) => s.matches('choose') && s.context.error !== null);
    expect(snap.context.error?.code).toBe('NO_2FA_ACCESS');
  });

  it('cancel on the QR step returns to the choice', async () => {
    const { actor } = start({ enabled: false, method: null });
    actor.send({ type: 'CHOOSE', method: 'totp' });
    await waitFor(actor, (s) => s.matches('totpSetup'));
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('choose');
    expect(actor.getSnapshot().context.totp).toBeNull();
  });

  it('disable with the authenticator: enabled -> code -> disabled (back to the choice)', async () => {
    const { actor, log, users } = start({ enabled: true, method: 'totp' });
    actor.send({ type: 'DISABLE' });
    expect(actor.getSnapshot().value).toBe('disableCode');
    actor.send({ type: 'SUBMIT_CODE', code: '111111' });
    const snap = await waitFor(actor, (s) => s.matches('choose'));
    expect(snap.context.enabledMethod).toBeNull();
    expect(log).toEqual(['disable:111111']);
    expect(users).toEqual([userWith(false, null)]);
  });

  it('disable with e-mail mails a code first', async () => {
    const { actor, log } = start({ enabled: true, method: 'email' });
    actor.send({ type: 'DISABLE' });
    await waitFor(actor, (s) => s.matches('disableCode'));
    actor.send({ type: 'SUBMIT_CODE', code: '222222' });
    await waitFor(actor, (s) => s.matches('choose'));
    expect(log).toEqual(['sendEmailCode', 'disable:222222']);
  });
});
