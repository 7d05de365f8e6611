import { checkSupportMessage, DomainError, SUPPORT_ATTACHMENT_MAX_BYTES, SupportErrors } from '@axel/domain';
import { findUser } from '@axel/projections/users/users.queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { requireSelf } from '../../http/auth';
import { validationError } from '../../http/errors';
import { limitsFor } from '../../http/rate-limits';
import { userActor } from '../../http/request-meta';
import { ownsTeamOf } from './contact.queries';
import { parseMultipart, type ParsedForm } from './multipart';
import { ContactBody, ErrorSchema, IdParams, QueuedSchema, SupportFields } from './support.schema';

const tags = ['support'];
/** The form's fields and boundaries around a 15 MB attachment. */
const SUPPORT_BODY_LIMIT = SUPPORT_ATTACHMENT_MAX_BYTES + 1_048_576;

/**
 * `POST /users/{id}/support/`: the contact-support form, mailed to support with its attachment;
 * `POST /users/{id}/emails/`: a member's message to the owner of their team or group (spec §6).
 * Both are mails, so each is an event of the mail log with the sender as its actor.
 */
export const supportRoutes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);

  fastify.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: SUPPORT_BODY_LIMIT }, (_request, body, done) => done(null, body));

  app.post(
    '/api/users/:id/support/',
    {
      schema: {
        tags,
        summary: 'Send a message to support (multipart: email, subject, text, support_attachment at most 15 MB)',
        consumes: ['multipart/form-data', 'application/json'],
        params: IdParams,
        response: { 202: QueuedSchema, 400: ErrorSchema, 413: ErrorSchema },
      },
      bodyLimit: SUPPORT_BODY_LIMIT,
      config: limit({ perAccount: 10, window: 'hour' }),
      errorHandler: (error) => {
        if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
          throw new DomainError(SupportErrors.attachmentTooLarge, { maxBytes: SUPPORT_ATTACHMENT_MAX_BYTES });
        }
        throw error;
      },
    },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const raw = request.body;
      const form: { fields: Record<string, unknown>; files: ParsedForm['files'] } = Buffer.isBuffer(raw)
        ? await parseMultipart(raw, String(request.headers['content-type'] ?? ''))
        : { fields: (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>, files: {} };
      const parsed = SupportFields.safeParse(form.fields);
      if (!parsed.success) throw validationError(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? 'body'), i.message])));
      const file = form.files.support_attachment;
      const { subject, text } = checkSupportMessage({ ...parsed.data, attachmentBytes: file?.content.length ?? null });
      const from = parsed.data.email ?? user.email ?? '';
      const { mailId, position } = await ctx.mailer.request(
        {
          to: ctx.config.SUPPORT_EMAIL,
          template: 'support-request',
          // support reads English; the sender's own words are kept as written
          locale: 'en_us',
          params: { email: `${from} (account ${user.id})`, title: subject, message: text },
          userId: user.id,
          attachments: file && file.content.length > 0 ? [file] : [],
        },
        userActor(request, user.id),
      );
      await ctx.caughtUp(position);
      return reply.status(202).send({ mailId });
    },
  );

  app.post(
    '/api/users/:id/emails/',
    {
      schema: {
        tags,
        summary: "Write to the owner of one's team or group (receiverId, subject, text)",
        params: IdParams,
        body: ContactBody,
        response: { 202: QueuedSchema, 400: ErrorSchema, 403: ErrorSchema },
      },
      config: limit({ perAccount: 20, window: 'hour' }),
    },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const { subject, text } = checkSupportMessage(request.body);
      const receiverId = request.body.receiverId;
      // the same answer whether the receiver exists or not: nobody learns of accounts this way
      if (receiverId === user.id || !(await ownsTeamOf(ctx.pool, receiverId, user.id))) {
        throw new DomainError(SupportErrors.receiverNotYourAdmin);
      }
      const receiver = await findUser(ctx.pool, receiverId);
      if (!receiver?.email || receiver.deleted_at) throw new DomainError(SupportErrors.receiverNotYourAdmin);
      const { mailId, position } = await ctx.mailer.request(
        {
          to: receiver.email,
          template: 'contact-message',
          locale: receiver.locale,
          params: { email: user.email ?? undefined, title: subject, message: text },
          userId: receiver.id,
        },
        userActor(request, user.id),
      );
      await ctx.caughtUp(position);
      return reply.status(202).send({ mailId });
    },
  );
};
