import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  AccountErrors,
  AVATAR_MAX_BYTES,
  AVATAR_MIME_TYPES,
  accountSettingsSchema,
  changeEmailSchema,
  changePasswordSchema,
  CommonErrors,
  DEFAULT_SESSION_TIMEOUT,
  deleteAccountSchema,
  DomainError,
  emailSchema,
  mayViewAvatar,
  passwordInputSchema,
  passwordResetSchema,
  profileSchema,
  signInSchema,
  signUpSchema,
  TWO_FACTOR_METHODS,
  verificationCodeSchema,
  type Profile,
} from '@axel/domain';
import { newId } from '@axel/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { requestMeta } from '../../http/request-meta';
import { POSITION_HEADER } from '../../http/read-your-writes';
import { clearSessionCookie, readSessionToken, SESSION_COOKIE, sessionCookieOptions } from '../../http/sessions';
import { readDeviceCookie, setDeviceCookie } from './device-cookie';
import { requireSelf, requireUser } from '../../http/auth';
import { avatarUrlOf, toProfile, UserInfoSchema, userInfo, type PlanOf } from './user-info';
import { findUser } from '@axel/projections/users/users.queries';
import type { UnknownAddressGuards } from './unknown-address-guard';
import { acceptTerms } from './use-cases/accept-terms';
import { userIdByEmail } from './use-cases/account-store';
import { changeAccountSettings } from './use-cases/change-account-settings';
import { changePassword } from './use-cases/change-password';
import { checkLink } from './use-cases/check-link';
import { confirmEmail } from './use-cases/confirm-email';
import { confirmEmailChange } from './use-cases/confirm-email-change';
import { deleteAccount } from './use-cases/delete-account';
import { disableTwoFactor } from './use-cases/disable-two-factor';
import { enableTwoFactor } from './use-cases/enable-two-factor';
import { registerUser } from './use-cases/register-user';
import { requestEmailChange } from './use-cases/request-email-change';
import { requestPasswordReset } from './use-cases/request-password-reset';
import { requestTwoFactorReset } from './use-cases/request-two-factor-reset';
import { resendConfirmation } from './use-cases/resend-confirmation';
import { resetPassword } from './use-cases/reset-password';
import { resetTwoFactor } from './use-cases/reset-two-factor';
import { later } from './use-cases/run-later';
import { sendEmailCode } from './use-cases/send-email-code';
import { setAvatar } from './use-cases/set-avatar';
import { signIn } from './use-cases/sign-in';
import { startTotp } from './use-cases/start-totp';
import { updateProfile } from './use-cases/update-profile';

const ErrorSchema = z.object({ code: z.union([z.string(), z.number()]), message: z.string(), data: z.unknown() });
const IdParams = z.object({ id: z.string().min(1).max(64) });
/** Any string: a malformed link is answered LINK_INVALID by its use case, never VALIDATION_FAILED. */
const TokenParams = z.object({ token: z.string() });
const tags = ['accounts'];

/** Read-your-writes, then the user as the read model has them. */
export const freshUser = async (ctx: AppContext, userId: string, position: number) => {
  await ctx.caughtUp(position);
  const user = await findUser(ctx.pool, userId);
  if (!user) throw new DomainError(AccountErrors.userNotFound);
  return user;
};

export const accountsRoutes = (ctx: AppContext, planOf: PlanOf, unknownAddresses: UnknownAddressGuards) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const secureCookie = ctx.config.publicUrl.startsWith('https://');
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  /** A call that checks a credential, code or link: `max` per account, three times that per client address. */
  const strict = (max: number) => limit({ perIp: max * 3, perAccount: max });
  /** A browser that signed in to the account before is not held back by strangers using up its cap. */
  const signedInHereBefore = async (request: FastifyRequest, email: string) => {
    const device = readDeviceCookie(request, ctx.secrets);
    return device !== null && (await userIdByEmail(ctx, email)) === device.userId;
  };

  // ---- sign-up --------------------------------------------------------------------------------
  app.post(
    '/api/users/',
    {
      schema: { tags, summary: 'Sign up', body: signUpSchema, response: { 201: z.object({ id: z.string(), email: z.string() }), 409: ErrorSchema } },
      config: limit({ perIp: 20, perAccount: 5 }),
    },
    async (request, reply) => {
      const b = request.body;
      const { userId, position } = await registerUser(
        ctx,
        { email: b.email, password: b.password, locale: b.locale ?? 'en_us', termsAccepted: b.termsAccepted },
        requestMeta(request),
      );
      await ctx.caughtUp(position);
      return reply.status(201).send({ id: userId, email: b.email });
    },
  );

  app.post(
    '/api/email-confirmations/',
    {
      schema: {
        tags,
        summary: 'Confirm an e-mail address with the mailed token',
        body: z.object({ token: z.string() }),
        response: { 200: z.object({ email: z.string() }) },
      },
      config: strict(10),
    },
    async (request) => {
      const { email, position } = await confirmEmail(ctx, request.body.token, requestMeta(request));
      await ctx.caughtUp(position);
      return { email };
    },
  );

  app.post(
    '/api/email-confirmations/resend',
    { schema: { tags, summary: 'Send the confirmation mail again', body: z.object({ email: emailSchema }) }, config: limit({ perIp: 10, perAccount: 3 }) },
    async (request, reply) => {
      const meta = requestMeta(request);
      later(ctx, 'resend-confirmation', () => resendConfirmation(ctx, request.body.email, meta));
      return reply.status(202).send();
    },
  );

  // ---- sessions -------------------------------------------------------------------------------
  app.post(
    '/api/sessions/',
    {
      schema: {
        tags,
        summary: 'Sign in (asks for a two-factor code when the account has 2FA on)',
        body: signInSchema,
        response: {
          200: z.union([z.object({ user: UserInfoSchema }), z.object({ twoFactorRequired: z.literal(true), method: z.enum(TWO_FACTOR_METHODS) })]),
          401: ErrorSchema,
          403: ErrorSchema,
          423: ErrorSchema,
        },
      },
      config: limit({ perIp: 30, perAccount: 20, accountTrusted: signedInHereBefore }),
      // a failed sign-in of a real account writes events and one of an unknown address does not:
      // the position of those writes must not tell them apart
      onSend: async (_request, reply, payload) => {
        if (reply.statusCode >= 400) reply.removeHeader(POSITION_HEADER);
        return payload;
      },
    },
    async (request, reply) => {
      const result = await signIn(ctx, unknownAddresses, request.body, requestMeta(request), readDeviceCookie(request, ctx.secrets));
      if (result.kind === 'two_factor_required') return { twoFactorRequired: true as const, method: result.method };
      const user = await freshUser(ctx, result.userId, result.position);
      reply.setCookie(SESSION_COOKIE, result.token, sessionCookieOptions(secureCookie));
      setDeviceCookie(reply, ctx.secrets, result.device, secureCookie);
      return { user: await userInfo(ctx, planOf, user) };
    },
  );

  app.get(
    '/api/sessions/this/',
    {
      schema: {
        tags,
        summary: 'The current session and its user',
        response: {
          200: z.object({ user: UserInfoSchema, session: z.object({ id: z.string(), timeout: z.number(), lastSeenAt: z.string() }) }),
          401: ErrorSchema,
        },
      },
    },
    async (request) => {
      const { user, session } = await requireUser(ctx, request);
      return {
        user: await userInfo(ctx, planOf, user),
        session: { id: session.id.slice(0, 16), timeout: user.session_timeout, lastSeenAt: session.lastSeenAt.toISOString() },
      };
    },
  );

  app.delete('/api/sessions/this/', { schema: { tags, summary: 'Sign out' } }, async (request, reply) => {
    const token = readSessionToken(request);
    if (token) {
      const touched = await ctx.sessions.touch(token, async () => DEFAULT_SESSION_TIMEOUT * 10_000);
      if (touched.ok) await ctx.sessions.revoke(touched.session.id, 'sign-out');
    }
    clearSessionCookie(reply, secureCookie);
    return reply.status(204).send();
  });

  // ---- resets ---------------------------------------------------------------------------------
  app.post(
    '/api/password-resets/',
    { schema: { tags, summary: 'Mail a password reset link', body: z.object({ email: emailSchema }) }, config: limit({ perIp: 10, perAccount: 3 }) },
    async (request, reply) => {
      const meta = requestMeta(request);
      later(ctx, 'password-reset-request', () => requestPasswordReset(ctx, request.body.email, meta));
      return reply.status(202).send();
    },
  );

  app.post(
    '/api/password-resets/:token',
    { schema: { tags, summary: 'Set a new password with a mailed token', params: TokenParams, body: passwordResetSchema }, config: strict(10) },
    async (request, reply) => {
      await resetPassword(ctx, request.params.token, request.body.password, requestMeta(request));
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/password-resets/:token',
    { schema: { tags, summary: 'Check a password reset link without using it: 204 when it can still be used', params: TokenParams }, config: strict(30) },
    async (request, reply) => {
      await checkLink(ctx, 'password-reset', request.params.token);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/two-factor-resets/',
    {
      schema: { tags, summary: 'Mail a link that turns two-factor authentication off', body: z.object({ email: emailSchema, password: passwordInputSchema }) },
      config: limit({ perIp: 10, perAccount: 5 }),
    },
    async (request, reply) => {
      const meta = requestMeta(request);
      const { email, password } = request.body;
      later(ctx, 'two-factor-reset-request', () => requestTwoFactorReset(ctx, email, password, meta));
      return reply.status(202).send();
    },
  );

  app.post(
    '/api/two-factor-resets/:token',
    { schema: { tags, summary: 'Turn two-factor authentication off with a mailed token', params: TokenParams }, config: strict(10) },
    async (request, reply) => {
      await resetTwoFactor(ctx, request.params.token, requestMeta(request));
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/two-factor-resets/:token',
    { schema: { tags, summary: 'Check a two-factor reset link without using it: 204 when it can still be used', params: TokenParams }, config: strict(30) },
    async (request, reply) => {
      await checkLink(ctx, 'two-factor-reset', request.params.token);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/change-email-confirmations/:token',
    { schema: { tags, summary: 'Confirm a new e-mail address', params: TokenParams, response: { 200: z.object({ email: z.string() }) } }, config: strict(10) },
    async (request) => {
      const { email, position } = await confirmEmailChange(ctx, request.params.token, requestMeta(request));
      await ctx.caughtUp(position);
      return { email };
    },
  );

  // ---- the signed-in user ---------------------------------------------------------------------
  app.get('/api/users/:id/', { schema: { tags, params: IdParams, response: { 200: UserInfoSchema } } }, async (request) => {
    const { user } = await requireSelf(ctx, request, request.params.id);
    return userInfo(ctx, planOf, user);
  });

  app.get('/api/users/:id/features/', { schema: { tags, params: IdParams, response: { 200: z.array(z.string()) } } }, async (request) => {
    const { user } = await requireSelf(ctx, request, request.params.id);
    const info = await userInfo(ctx, planOf, user);
    // staff features, then what the plan grants
    return [...info.features, ...info.permissions, ...info.planFeatures];
  });

  const ProfileOut = z.object(Object.fromEntries(Object.keys(profileSchema.shape).map((k) => [k, z.string().nullable()])));
  app.get('/api/users/:id/profile', { schema: { tags, params: IdParams, response: { 200: ProfileOut } } }, async (request) => {
    const { user } = await requireSelf(ctx, request, request.params.id);
    return toProfile(user);
  });

  app.put(
    '/api/users/:id/profile',
    {
      schema: { tags, summary: 'Update profile fields (only the given ones)', params: IdParams, body: profileSchema.partial(), response: { 200: ProfileOut } },
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const result = await updateProfile(ctx, user.id, request.body as Partial<Profile>, requestMeta(request));
      return toProfile(await freshUser(ctx, user.id, result.position));
    },
  );

  const avatarDir = path.join(ctx.config.dataDir, 'avatars');
  fastify.addContentTypeParser([...AVATAR_MIME_TYPES], { parseAs: 'buffer', bodyLimit: AVATAR_MAX_BYTES * 2 }, (_req, body, done) => done(null, body));
  app.post(
    '/api/users/:id/avatar',
    {
      schema: {
        tags,
        summary: 'Upload an avatar image (PNG, JPEG, GIF or WebP, at most 3 MB)',
        params: IdParams,
        response: { 200: z.object({ avatarUrl: z.string() }) },
      },
      bodyLimit: AVATAR_MAX_BYTES * 2,
      // body errors of this route in the product's terms; the app's error handler answers them
      errorHandler: (error) => {
        const code = (error as { code?: string }).code;
        if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new DomainError(AccountErrors.avatarTooLarge);
        if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw new DomainError(AccountErrors.avatarInvalid);
        throw error;
      },
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const mime = String(request.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim();
      const body = request.body as Buffer | undefined;
      if (!Buffer.isBuffer(body) || body.length === 0 || !looksLikeImage(body, mime)) throw new DomainError(AccountErrors.avatarInvalid);
      if (body.length > AVATAR_MAX_BYTES) throw new DomainError(AccountErrors.avatarTooLarge);
      const avatarId = newId();
      await mkdir(avatarDir, { recursive: true });
      await writeFile(path.join(avatarDir, avatarId), body);
      const result = await setAvatar(ctx, user.id, { avatarId, mime, size: body.length }, requestMeta(request));
      const fresh = await freshUser(ctx, user.id, result.position);
      return { avatarUrl: avatarUrlOf(fresh)! };
    },
  );

  app.get(
    '/api/users/:id/avatar',
    { schema: { tags, summary: 'The avatar image: for its owner and staff only', params: IdParams } },
    async (request, reply) => {
      const { user: viewer } = await requireUser(ctx, request);
      // refused before the lookup, so a stranger learns nothing about the account either way
      if (!mayViewAvatar(viewer, request.params.id)) throw new DomainError(CommonErrors.forbidden);
      const target = await findUser(ctx.pool, request.params.id);
      if (!target?.avatar_id || !target.avatar_mime) return reply.status(404).send({ code: 'NOT_FOUND', message: 'No avatar', data: null });
      reply.header('cache-control', 'private, max-age=86400').type(target.avatar_mime);
      return readFile(path.join(avatarDir, target.avatar_id));
    },
  );

  app.put(
    '/api/users/:id/account',
    { schema: { tags, summary: 'Username, session timeout, language', params: IdParams, body: accountSettingsSchema, response: { 200: UserInfoSchema } } },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const result = await changeAccountSettings(ctx, user.id, request.body as never, requestMeta(request));
      return userInfo(ctx, planOf, await freshUser(ctx, user.id, result.position));
    },
  );

  app.put(
    '/api/users/:id/password',
    { schema: { tags, summary: 'Change the password (other sessions are signed out)', params: IdParams, body: changePasswordSchema }, config: strict(10) },
    async (request, reply) => {
      const { user, session } = await requireSelf(ctx, request, request.params.id);
      await changePassword(ctx, user.id, request.body, requestMeta(request), session.id);
      return reply.status(204).send();
    },
  );

  app.put(
    '/api/users/:id/email',
    {
      schema: { tags, summary: 'Ask to change the sign-in e-mail; a link goes to the new address', params: IdParams, body: changeEmailSchema },
      config: limit({ perIp: 10, perAccount: 5 }),
    },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      await requestEmailChange(ctx, user.id, request.body, requestMeta(request));
      return reply.status(202).send();
    },
  );

  app.post('/api/users/:id/terms-accepted/', { schema: { tags, params: IdParams } }, async (request, reply) => {
    const { user } = await requireSelf(ctx, request, request.params.id);
    const result = await acceptTerms(ctx, user.id, requestMeta(request));
    await ctx.caughtUp(result.position);
    return reply.status(204).send();
  });

  app.post(
    '/api/users/:id/two-factor/totp',
    {
      schema: {
        tags,
        summary: 'Start authenticator-app enrolment',
        params: IdParams,
        response: { 200: z.object({ secret: z.string(), otpauthUrl: z.string(), qrDataUrl: z.string() }) },
      },
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      return startTotp(ctx, user.id, requestMeta(request));
    },
  );

  app.post(
    '/api/users/:id/two-factor/email-code',
    { schema: { tags, summary: 'Mail a code to turn e-mail two-factor on or off', params: IdParams }, config: limit({ perIp: 10, perAccount: 5 }) },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      await sendEmailCode(ctx, user.id, requestMeta(request));
      return reply.status(202).send();
    },
  );

  app.post(
    '/api/users/:id/two-factor/enable',
    {
      schema: {
        tags,
        params: IdParams,
        body: z.object({ method: z.enum(TWO_FACTOR_METHODS), code: verificationCodeSchema }),
        response: { 200: UserInfoSchema },
      },
      config: strict(10),
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const result = await enableTwoFactor(ctx, user.id, request.body, requestMeta(request));
      return userInfo(ctx, planOf, await freshUser(ctx, user.id, result.position));
    },
  );

  app.post(
    '/api/users/:id/two-factor/disable',
    { schema: { tags, params: IdParams, body: z.object({ code: verificationCodeSchema }), response: { 200: UserInfoSchema } }, config: strict(10) },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const result = await disableTwoFactor(ctx, user.id, request.body.code, requestMeta(request));
      return userInfo(ctx, planOf, await freshUser(ctx, user.id, result.position));
    },
  );

  app.delete(
    '/api/users/:id/',
    { schema: { tags, summary: 'Delete the account (type YES)', params: IdParams, body: deleteAccountSchema }, config: strict(5) },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      await deleteAccount(ctx, user.id, { by: 'user', ...request.body }, requestMeta(request));
      clearSessionCookie(reply, secureCookie);
      return reply.status(204).send();
    },
  );

  app.get('/api/users/:id/push', { schema: { tags, summary: 'Server-sent events for the signed-in user', params: IdParams } }, async (request, reply) => {
    const { user } = await requireSelf(ctx, request, request.params.id);
    ctx.push.attach(user.id, reply);
  });
};

const SIGNATURES: Record<string, (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 4).toString('ascii') === 'GIF8',
  'image/webp': (b) => b.subarray(0, 4).toString('ascii') === 'RIFF' && b.subarray(8, 12).toString('ascii') === 'WEBP',
};

/** The bytes must be the image the content type claims. */
const looksLikeImage = (body: Buffer, mime: string) => SIGNATURES[mime]?.(body) ?? false;
