import { AccountErrors, DomainError, type UserEvent, type UserState } from '@axel/domain';
import type { MailTemplate } from '@axel/domain/mail/mail.events';
import type { CommandContext } from '@axel/platform';
import type { AppContext } from '../../../context';
import { randomToken, sha256 } from '../../../secrets';
import { hasAccountState } from './account-store';

/** Mailed links carry the user id before the secret part, so the link finds its stream. */
export const linkToken = (userId: string) => {
  const token = `${userId}.${randomToken()}`;
  return { token, tokenHash: sha256(token) };
};

export const parseLinkToken = (token: string): { userId: string; tokenHash: string } => {
  const dot = token.indexOf('.');
  if (dot <= 0 || !/^[\w.-]{20,200}$/.test(token)) throw new DomainError(AccountErrors.linkInvalid);
  return { userId: token.slice(0, dot), tokenHash: sha256(token) };
};

/** A link whose user does not exist is simply an invalid link. */
export const rethrowMissingAsInvalid = (error: unknown): never => {
  if (error instanceof DomainError && (error.code === AccountErrors.userNotFound.code || error.code === AccountErrors.alreadyDeleted.code)) {
    throw new DomainError(AccountErrors.linkInvalid);
  }
  throw error;
};

/** A page of the web app, as a mailed link opens it. */
export const appLink = (ctx: AppContext, path: string) => `${ctx.config.publicUrl}${path}`;

export const mailUser = async (
  ctx: AppContext,
  to: string,
  template: MailTemplate,
  locale: string,
  params: Record<string, unknown>,
  userId: string | null,
  cc: CommandContext,
) => {
  await ctx.mailer.request({ to, template, locale, params, userId }, cc);
};

/**
 * Tells the account's own address of a security change, in the account's language: a change its
 * owner did not make is how a takeover shows itself. Only when the command changed something, so
 * a repeated call mails nothing. `to` is the address to tell when it is not the account's current
 * one (the old address after an e-mail change).
 */
export const securityMail = async (
  ctx: AppContext,
  result: { events: readonly { type: string }[]; state: UserState },
  changed: UserEvent['type'],
  template: MailTemplate,
  userId: string,
  cc: CommandContext,
  extra: { to?: string; params?: Record<string, unknown> } = {},
) => {
  if (!result.events.some((e) => e.type === changed) || !hasAccountState(result.state)) return;
  await mailUser(ctx, extra.to ?? result.state.email, template, result.state.locale, extra.params ?? {}, userId, cc);
};
