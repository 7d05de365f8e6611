import {
  AccountErrors,
  checkMailedLink,
  DomainError,
  emailReservationDecider,
  emailReservationStreamName,
  normalizeEmail,
  signInLockedUntil,
  signInOutcome,
  userDecider,
  userStreamName,
  usernameReservationDecider,
  usernameReservationStreamName,
  type Command,
  type Decider,
  type DomainEvent,
  type Locale,
  type MailedLink,
  type Profile,
  type ReservationState,
  type Role,
  type SessionTimeout,
  type UserCommand,
  type UserEvent,
  type UserState,
  type UserWithAccount,
} from '@axel/domain';
import { handleCommand, loadState, newId, type CommandContext } from '@axel/platform';
import type { MailTemplate } from '@axel/domain/mail/mail.events';
import type { AppContext } from '../../context';
import type { RequestMeta } from '../../http/request-meta';
import { failpoint } from '../../failpoints';
import { randomCode, randomToken, sha256 } from '../../secrets';
import { newDeviceNonce, type DeviceCookie } from './device-cookie';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
import { newTotpSecret, totpEnrolment, verifyTotp } from './totp';
import { UnknownAddressGuards } from './unknown-address-guard';

/** Mailed links carry the user id before the secret part, so the link finds its stream. */
const linkToken = (userId: string) => {
  const token = `${userId}.${randomToken()}`;
  return { token, tokenHash: sha256(token) };
};
const parseLinkToken = (token: string): { userId: string; tokenHash: string } => {
  const dot = token.indexOf('.');
  if (dot <= 0 || !/^[\w.-]{20,200}$/.test(token)) throw new DomainError(AccountErrors.linkInvalid);
  return { userId: token.slice(0, dot), tokenHash: sha256(token) };
};

const hasAccountState = (s: UserState): s is UserWithAccount => s.status !== 'unregistered' && s.status !== 'purged';

export class AccountsService {
  private readonly unknownAddresses = new UnknownAddressGuards();

  constructor(private readonly ctx: AppContext) {}

  /**
   * Runs work after the answer has left: calls that must answer alike for known and unknown
   * addresses (resets, resends) answer 202 at once and look the address up afterwards, so neither
   * their answer nor its timing says whether the address has an account. Errors are logged.
   */
  later(task: string, work: () => Promise<unknown>): void {
    work().catch((error: unknown) => {
      const expected = error instanceof DomainError;
      this.ctx.log[expected ? 'warn' : 'error']({ task, err: expected ? { code: error.code } : error }, 'background work failed');
    });
  }

  private command<T extends string, D>(type: T, data: D): Command<T, D> {
    return { type, data, metadata: { now: this.ctx.now() } };
  }

  private context(meta: RequestMeta, actor: { id: string | null; kind: CommandContext['actorKind'] }): CommandContext {
    return {
      actorId: actor.id,
      actorKind: actor.kind,
      ip: meta.ip,
      userAgent: meta.userAgent,
      client: meta.client,
      correlationId: meta.correlationId,
    };
  }

  async runUser(userId: string, command: UserCommand, cc: CommandContext) {
    return handleCommand(this.ctx.commands, userDecider, userStreamName(userId), command, cc);
  }

  private run<C extends Command, E extends DomainEvent, S>(decider: Decider<C, E, S>, stream: string, command: C, cc: CommandContext) {
    return handleCommand(this.ctx.commands, decider, stream, command, cc);
  }

  /**
   * Reservation streams are named by a keyed hash: stream names stay in the log for ever, and a
   * plain hash of an address or username could be reversed by guessing.
   */
  private emailStream(email: string) {
    return emailReservationStreamName(this.ctx.secrets.mac(`email:${normalizeEmail(email)}`));
  }

  private usernameStream(username: string) {
    return usernameReservationStreamName(this.ctx.secrets.mac(`username:${username}`));
  }

  /** The account an address belongs to, read from its reservation stream (no read-model lag). */
  async userIdByEmail(email: string): Promise<string | null> {
    const { state } = await loadState(this.ctx.commands, emailReservationDecider, this.emailStream(email));
    return (state as ReservationState).status === 'held' ? (state as { userId: string }).userId : null;
  }

  async userState(userId: string): Promise<UserState> {
    return (await loadState(this.ctx.commands, userDecider, userStreamName(userId))).state;
  }

  /**
   * Reserves an address. A sign-up or e-mail change that died between the reservation and its
   * account event leaves the address held by a user who does not use it; that fact goes to the
   * reservation decider, which hands the address over once the reservation is older than
   * ABANDONED_RESERVATION_AFTER_MS (younger ones may still be in flight). No background process is
   * needed: the address is only ever wanted again by someone asking for it.
   */
  private async reserveEmail(email: string, userId: string, cc: CommandContext) {
    const stream = this.emailStream(email);
    const { state } = await loadState(this.ctx.commands, emailReservationDecider, stream);
    const holder = state.status === 'held' && state.userId !== userId ? state.userId : null;
    const abandonedHolderId = holder && !(await this.usesAddress(holder, email)) ? holder : undefined;
    return this.run(emailReservationDecider, stream, this.command('ReserveEmail', { userId, ...(abandonedHolderId ? { abandonedHolderId } : {}) }), cc);
  }

  private async usesAddress(userId: string, email: string): Promise<boolean> {
    const state = await this.userState(userId);
    return hasAccountState(state) && state.status !== 'deleted' && state.email === normalizeEmail(email);
  }

  private async mail(to: string, template: MailTemplate, locale: string, params: Record<string, unknown>, userId: string | null, cc: CommandContext) {
    await this.ctx.mailer.request({ to, template, locale, params, userId }, cc);
  }

  /**
   * Tells the account's own address of a security change, in the account's language: a change its
   * owner did not make is how a takeover shows itself. Only when the command changed something, so
   * a repeated call mails nothing. `to` is the address to tell when it is not the account's current
   * one (the old address after an e-mail change).
   */
  private async securityMail(
    result: { events: readonly { type: string }[]; state: UserState },
    changed: UserEvent['type'],
    template: MailTemplate,
    userId: string,
    cc: CommandContext,
    extra: { to?: string; params?: Record<string, unknown> } = {},
  ) {
    if (!result.events.some((e) => e.type === changed) || !hasAccountState(result.state)) return;
    await this.mail(extra.to ?? result.state.email, template, result.state.locale, extra.params ?? {}, userId, cc);
  }

  private link(path: string) {
    return `${this.ctx.config.publicUrl}${path}`;
  }

  // ---- sign-up ---------------------------------------------------------------------------------

  async register(
    input: { email: string; password: string; locale: Locale; role?: Role; termsAccepted: boolean },
    meta: RequestMeta,
    staff?: { id: string },
  ): Promise<{ userId: string; position: number }> {
    const userId = newId();
    const cc = this.context(meta, staff ? { id: staff.id, kind: 'staff' } : { id: userId, kind: 'anonymous' });
    const passwordHash = await hashPassword(input.password);
    const reservation = this.emailStream(input.email);
    await this.reserveEmail(input.email, userId, cc);
    failpoint('register:after-reserve');
    const { token, tokenHash } = linkToken(userId);
    try {
      const result = await this.runUser(
        userId,
        this.command('RegisterUser', {
          userId,
          email: normalizeEmail(input.email),
          passwordHash,
          locale: input.locale,
          termsAccepted: input.termsAccepted,
          // an account staff create is registered from the console: the staff member's browser and
          // address are the actor's (in the event's metadata), not the new user's own
          registrationApp: staff ? 'console' : meta.client,
          userAgent: staff ? null : meta.userAgent,
          ip: staff ? null : meta.ip,
          role: input.role,
          createdByStaffId: staff?.id ?? null,
          confirmTokenHash: staff ? null : tokenHash,
        }),
        cc,
      );
      if (!staff) {
        await this.mail(input.email, 'email-confirmation', input.locale, { link: this.link(`/email-confirmation/${token}`) }, userId, cc);
      }
      return { userId, position: result.position };
    } catch (error) {
      // the address must not stay held by an account that was never created
      await this.run(emailReservationDecider, reservation, this.command('ReleaseEmail', { userId }), cc).catch(() => undefined);
      throw error;
    }
  }

  async resendConfirmation(email: string, meta: RequestMeta): Promise<void> {
    const userId = await this.userIdByEmail(email);
    if (!userId) return;
    const state = await this.userState(userId);
    if (!hasAccountState(state) || state.status === 'deleted' || state.emailVerified) return;
    const cc = this.context(meta, { id: userId, kind: 'anonymous' });
    const { token, tokenHash } = linkToken(userId);
    await this.runUser(userId, this.command('ResendConfirmation', { tokenHash }), cc);
    await this.mail(state.email, 'email-confirmation', state.locale, { link: this.link(`/email-confirmation/${token}`) }, userId, cc);
  }

  async confirmEmail(token: string, meta: RequestMeta): Promise<{ email: string; position: number }> {
    const { userId, tokenHash } = parseLinkToken(token);
    const cc = this.context(meta, { id: userId, kind: 'anonymous' });
    const result = await this.runUser(userId, this.command('ConfirmEmail', { tokenHash }), cc).catch(rethrowMissingAsInvalid);
    return { email: (result.state as UserWithAccount).email, position: result.position };
  }

  // ---- sessions --------------------------------------------------------------------------------

  async signIn(
    input: { email: string; password: string; code?: string },
    meta: RequestMeta,
    deviceCookie: DeviceCookie | null = null,
  ): Promise<
    { kind: 'signed_in'; userId: string; token: string; position: number; device: DeviceCookie } | { kind: 'two_factor_required'; method: 'email' | 'totp' }
  > {
    const userId = await this.userIdByEmail(input.email);
    const state = userId ? await this.userState(userId) : null;
    if (!userId || !state || !hasAccountState(state) || state.status === 'deleted') return this.refuseUnknownAddress(input);
    const deviceId = deviceCookie?.userId === userId ? deviceCookie.nonce : null;
    // a locked guard answers before any argon2 work, as an unknown address's does
    const lockedUntil = signInLockedUntil(state, this.ctx.now(), 'password', deviceId);
    if (lockedUntil !== null) throw new DomainError(AccountErrors.userLocked, { lockedUntil: new Date(lockedUntil).toISOString() });
    const passwordValid = await verifyPassword(state.passwordHash, input.password, deviceId ? 'trusted' : 'normal');
    let twoFactorCodeValid: boolean | undefined;
    let totpStep: number | undefined;
    let emailCode: string | undefined;
    if (state.twoFactor.enabled && input.code !== undefined) {
      if (state.twoFactor.method === 'totp') {
        const sealed = state.twoFactor.totpSecretCiphertext;
        const step = sealed ? await verifyTotp(this.ctx.secrets.decrypt(sealed), input.code, this.ctx.now()) : null;
        twoFactorCodeValid = step !== null;
        totpStep = step ?? undefined;
      } else {
        twoFactorCodeValid = state.twoFactor.emailCodes.sign_in?.codeHash === sha256(input.code);
      }
    } else if (state.twoFactor.enabled && state.twoFactor.method === 'email' && passwordValid) {
      emailCode = randomCode();
    }
    const token = randomToken();
    const sessionId = sha256(token);
    const cc = this.context(meta, { id: userId, kind: 'user' });
    const result = await this.runUser(
      userId,
      this.command('SignIn', {
        passwordValid,
        twoFactorCodeValid,
        emailCodeHash: emailCode ? sha256(emailCode) : undefined,
        sessionId,
        ip: meta.ip,
        userAgent: meta.userAgent,
        deviceId,
        totpStep,
      }),
      cc,
    );
    const outcome = signInOutcome(result.events);
    if (outcome.kind === 'rejected') throw outcome.error;
    if (outcome.kind === 'two_factor_required') {
      if (outcome.method === 'email' && emailCode) {
        await this.mail(state.email, 'two-factor-code', state.locale, { code: emailCode }, userId, cc);
      }
      return outcome;
    }
    await this.ctx.sessions.create(userId, { ip: meta.ip, userAgent: meta.userAgent }, token);
    return { kind: 'signed_in', userId, token, position: result.position, device: { userId, nonce: deviceId ?? newDeviceNonce() } };
  }

  /** An address without an account spends a full check and locks like an account (see UnknownAddressGuards). */
  private async refuseUnknownAddress(input: { email: string; password: string }): Promise<never> {
    const key = sha256(normalizeEmail(input.email));
    const lockedUntil = this.unknownAddresses.lockedUntil(key, this.ctx.now().getTime());
    if (lockedUntil !== null) throw new DomainError(AccountErrors.userLocked, { lockedUntil: new Date(lockedUntil).toISOString() });
    await burnPasswordCheck(input.password);
    const locks = this.unknownAddresses.fail(key, this.ctx.now().getTime());
    if (locks !== null) throw new DomainError(AccountErrors.userLocked, { lockedUntil: new Date(locks).toISOString() });
    throw new DomainError(AccountErrors.wrongCredentials);
  }

  // ---- password and two-factor resets ------------------------------------------------------------

  async requestPasswordReset(email: string, meta: RequestMeta, staff?: { id: string }): Promise<void> {
    const userId = await this.userIdByEmail(email);
    if (!userId) return;
    const state = await this.userState(userId);
    if (!hasAccountState(state) || state.status === 'deleted') return;
    const cc = this.context(meta, staff ? { id: staff.id, kind: 'staff' } : { id: null, kind: 'anonymous' });
    const { token, tokenHash } = linkToken(userId);
    await this.runUser(userId, this.command('RequestPasswordReset', { tokenHash }), cc);
    await this.mail(state.email, 'password-reset', state.locale, { link: this.link(`/reset-password/${token}`) }, userId, cc);
  }

  /** Whether a mailed link can still be used, answered with the error its own call would give. */
  async checkLink(link: MailedLink, token: string): Promise<void> {
    const { userId, tokenHash } = parseLinkToken(token);
    const state = await this.userState(userId);
    try {
      checkMailedLink(state, link, tokenHash, this.ctx.now());
    } catch (error) {
      rethrowMissingAsInvalid(error);
    }
  }

  async resetPassword(token: string, password: string, meta: RequestMeta): Promise<void> {
    const { userId, tokenHash } = parseLinkToken(token);
    const cc = this.context(meta, { id: userId, kind: 'anonymous' });
    const passwordHash = await hashPassword(password);
    const result = await this.runUser(userId, this.command('ResetPassword', { tokenHash, passwordHash }), cc).catch(rethrowMissingAsInvalid);
    await this.ctx.sessions.revokeAllFor(userId, 'password-reset');
    await this.securityMail(result, 'PasswordChanged', 'password-changed', userId, cc);
  }

  async requestTwoFactorReset(email: string, password: string, meta: RequestMeta): Promise<void> {
    const userId = await this.userIdByEmail(email);
    // runs after the answer (see `later`): no time needs spending to hide a missing account
    if (!userId) return;
    const state = await this.userState(userId);
    if (!hasAccountState(state) || state.status === 'deleted' || !state.twoFactor.enabled) return;
    const passwordValid = await verifyPassword(state.passwordHash, password);
    if (!passwordValid) return;
    const cc = this.context(meta, { id: userId, kind: 'anonymous' });
    const { token, tokenHash } = linkToken(userId);
    await this.runUser(userId, this.command('RequestTwoFactorReset', { tokenHash, passwordValid }), cc);
    await this.mail(state.email, 'two-factor-reset', state.locale, { link: this.link(`/reset2fa/?token=${encodeURIComponent(token)}`) }, userId, cc);
  }

  async resetTwoFactor(token: string, meta: RequestMeta): Promise<void> {
    const { userId, tokenHash } = parseLinkToken(token);
    const cc = this.context(meta, { id: userId, kind: 'anonymous' });
    const result = await this.runUser(userId, this.command('ResetTwoFactor', { tokenHash }), cc).catch(rethrowMissingAsInvalid);
    await this.securityMail(result, 'TwoFactorDisabled', 'two-factor-disabled', userId, cc);
  }

  // ---- the signed-in user ----------------------------------------------------------------------

  async updateProfile(userId: string, profile: Partial<Profile>, meta: RequestMeta) {
    return this.runUser(userId, this.command('UpdateProfile', profile), this.context(meta, { id: userId, kind: 'user' }));
  }

  async setAvatar(userId: string, avatar: { avatarId: string; mime: string; size: number }, meta: RequestMeta) {
    return this.runUser(userId, this.command('SetAvatar', avatar), this.context(meta, { id: userId, kind: 'user' }));
  }

  async changeAccountSettings(userId: string, input: { username?: string; sessionTimeout?: SessionTimeout; locale?: Locale }, meta: RequestMeta) {
    const cc = this.context(meta, { id: userId, kind: 'user' });
    const state = await this.userState(userId);
    const previous = hasAccountState(state) ? state.username : null;
    const changesUsername = input.username !== undefined && input.username !== previous;
    if (changesUsername) {
      await this.run(usernameReservationDecider, this.usernameStream(input.username!), this.command('ReserveUsername', { userId }), cc);
    }
    const result = await this.runUser(userId, this.command('ChangeAccountSettings', input), cc);
    if (changesUsername && previous) {
      await this.run(usernameReservationDecider, this.usernameStream(previous), this.command('ReleaseUsername', { userId }), cc);
    }
    return result;
  }

  async changePassword(userId: string, input: { currentPassword: string; password: string }, meta: RequestMeta, sessionId: string) {
    const state = await this.userState(userId);
    if (!hasAccountState(state)) throw new DomainError(AccountErrors.userNotFound);
    const [currentPasswordValid, sameAsCurrent, newPasswordHash] = await Promise.all([
      verifyPassword(state.passwordHash, input.currentPassword),
      verifyPassword(state.passwordHash, input.password),
      hashPassword(input.password),
    ]);
    const cc = this.context(meta, { id: userId, kind: 'user' });
    const result = await this.runUser(userId, this.command('ChangePassword', { currentPasswordValid, newPasswordHash, sameAsCurrent }), cc);
    await this.ctx.sessions.revokeAllFor(userId, 'password-changed', sessionId);
    await this.securityMail(result, 'PasswordChanged', 'password-changed', userId, cc);
    return result;
  }

  async requestEmailChange(userId: string, input: { newEmail: string; password: string }, meta: RequestMeta) {
    const state = await this.userState(userId);
    if (!hasAccountState(state)) throw new DomainError(AccountErrors.userNotFound);
    const passwordValid = await verifyPassword(state.passwordHash, input.password);
    const owner = await this.userIdByEmail(input.newEmail);
    // an address left reserved by a crashed sign-up is not taken: confirming the change takes it over
    if (passwordValid && owner && owner !== userId && (await this.usesAddress(owner, input.newEmail))) throw new DomainError(AccountErrors.emailExists);
    const cc = this.context(meta, { id: userId, kind: 'user' });
    const { token, tokenHash } = linkToken(userId);
    const result = await this.runUser(userId, this.command('RequestEmailChange', { newEmail: normalizeEmail(input.newEmail), passwordValid, tokenHash }), cc);
    await this.mail(
      input.newEmail,
      'email-change',
      state.locale,
      { link: this.link(`/change-email-confirmations/${token}`), email: input.newEmail },
      userId,
      cc,
    );
    return result;
  }

  async confirmEmailChange(token: string, meta: RequestMeta): Promise<{ email: string; position: number }> {
    const { userId, tokenHash } = parseLinkToken(token);
    const state = await this.userState(userId);
    if (!hasAccountState(state) || !state.emailChange || state.emailChange.tokenHash !== tokenHash) {
      throw new DomainError(AccountErrors.linkInvalid);
    }
    const cc = this.context(meta, { id: userId, kind: 'user' });
    const newEmail = state.emailChange.newEmail;
    const oldEmail = state.email;
    const reservation = this.emailStream(newEmail);
    await this.reserveEmail(newEmail, userId, cc);
    try {
      const result = await this.runUser(userId, this.command('ConfirmEmailChange', { tokenHash }), cc);
      await this.run(emailReservationDecider, this.emailStream(oldEmail), this.command('ReleaseEmail', { userId }), cc);
      await this.securityMail(result, 'EmailChanged', 'email-changed', userId, cc, { to: oldEmail, params: { email: newEmail } });
      return { email: newEmail, position: result.position };
    } catch (error) {
      await this.run(emailReservationDecider, reservation, this.command('ReleaseEmail', { userId }), cc).catch(() => undefined);
      throw error;
    }
  }

  async acceptTerms(userId: string, meta: RequestMeta) {
    return this.runUser(userId, this.command('AcceptTerms', {}), this.context(meta, { id: userId, kind: 'user' }));
  }

  async startTotp(userId: string, meta: RequestMeta) {
    const state = await this.userState(userId);
    if (!hasAccountState(state)) throw new DomainError(AccountErrors.userNotFound);
    const secret = newTotpSecret();
    await this.runUser(
      userId,
      this.command('StartTotpEnrolment', { secretCiphertext: this.ctx.secrets.encrypt(secret) }),
      this.context(meta, { id: userId, kind: 'user' }),
    );
    return totpEnrolment(secret, state.email);
  }

  async sendEmailCode(userId: string, meta: RequestMeta) {
    const state = await this.userState(userId);
    if (!hasAccountState(state)) throw new DomainError(AccountErrors.userNotFound);
    const purpose = state.twoFactor.enabled ? ('disable' as const) : ('enable' as const);
    const code = randomCode();
    const cc = this.context(meta, { id: userId, kind: 'user' });
    await this.runUser(userId, this.command('IssueEmailCode', { codeHash: sha256(code), purpose }), cc);
    await this.mail(state.email, 'two-factor-code', state.locale, { code }, userId, cc);
  }

  private async checkCode(state: UserWithAccount, method: 'email' | 'totp', purpose: 'enable' | 'disable', code: string) {
    const now = this.ctx.now();
    if (method === 'totp') {
      const sealed = purpose === 'enable' ? state.twoFactor.pendingTotpSecretCiphertext : state.twoFactor.totpSecretCiphertext;
      if (!sealed) return { codeValid: false };
      const step = await verifyTotp(this.ctx.secrets.decrypt(sealed), code, now);
      return step === null ? { codeValid: false } : { codeValid: true, totpStep: step };
    }
    const pending = state.twoFactor.emailCodes[purpose];
    return {
      codeValid: !!pending && pending.codeHash === sha256(code),
      codeExpired: !!pending && now.getTime() >= pending.expiresAt,
    };
  }

  async enableTwoFactor(userId: string, input: { method: 'email' | 'totp'; code: string }, meta: RequestMeta) {
    const state = await this.userState(userId);
    if (!hasAccountState(state)) throw new DomainError(AccountErrors.userNotFound);
    const check = await this.checkCode(state, input.method, 'enable', input.code);
    return this.runUser(userId, this.command('EnableTwoFactor', { method: input.method, ...check }), this.context(meta, { id: userId, kind: 'user' })).catch(
      wrongCodeIsBadRequest,
    );
  }

  async disableTwoFactor(userId: string, code: string, meta: RequestMeta) {
    const state = await this.userState(userId);
    if (!hasAccountState(state)) throw new DomainError(AccountErrors.userNotFound);
    const check = await this.checkCode(state, state.twoFactor.method ?? 'email', 'disable', code);
    const cc = this.context(meta, { id: userId, kind: 'user' });
    const result = await this.runUser(userId, this.command('DisableTwoFactor', check), cc).catch(wrongCodeIsBadRequest);
    await this.securityMail(result, 'TwoFactorDisabled', 'two-factor-disabled', userId, cc);
    return result;
  }

  async deleteAccount(userId: string, input: { by: 'user'; confirmation: string; password: string } | { by: 'staff'; staffId: string }, meta: RequestMeta) {
    const state = await this.userState(userId);
    if (!hasAccountState(state)) throw new DomainError(AccountErrors.userNotFound);
    const cc = this.context(meta, input.by === 'user' ? { id: userId, kind: 'user' } : { id: input.staffId, kind: 'staff' });
    const data =
      input.by === 'user'
        ? { by: 'user' as const, confirmation: input.confirmation, passwordValid: await verifyPassword(state.passwordHash, input.password) }
        : { by: 'staff' as const, staffId: input.staffId };
    const result = await this.runUser(userId, this.command('DeleteAccount', data), cc);
    await this.ctx.sessions.revokeAllFor(userId, 'deleted');
    await this.run(emailReservationDecider, this.emailStream(state.email), this.command('ReleaseEmail', { userId }), cc).catch(() => undefined);
    if (state.username) {
      await this.run(usernameReservationDecider, this.usernameStream(state.username), this.command('ReleaseUsername', { userId }), cc).catch(() => undefined);
    }
    await this.mail(state.email, 'account-deleted', state.locale, { days: this.ctx.config.ACCOUNT_RETENTION_DAYS }, userId, cc);
    return result;
  }

  async staffAction(staffId: string, userId: string, command: UserCommand, meta: RequestMeta) {
    return this.runUser(userId, command, this.context(meta, { id: staffId, kind: 'staff' }));
  }

  newCommand<T extends UserCommand['type']>(type: T, data: Extract<UserCommand, { type: T }>['data']) {
    return this.command(type, data) as unknown as Extract<UserCommand, { type: T }>;
  }
}

/**
 * In settings a wrong code is a form error (400), not a failed authentication: a 401 would sign the
 * browser out.
 */
const wrongCodeIsBadRequest = (error: unknown): never => {
  if (error instanceof DomainError && error.code === AccountErrors.twoFactorIncorrect.code) {
    throw new DomainError({ ...AccountErrors.twoFactorIncorrect, status: 400 });
  }
  throw error;
};

/** A link whose user does not exist is simply an invalid link. */
const rethrowMissingAsInvalid = (error: unknown): never => {
  if (error instanceof DomainError && (error.code === AccountErrors.userNotFound.code || error.code === AccountErrors.alreadyDeleted.code)) {
    throw new DomainError(AccountErrors.linkInvalid);
  }
  throw error;
};
