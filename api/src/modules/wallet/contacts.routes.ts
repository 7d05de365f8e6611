import { randomUUID } from 'node:crypto';
import { ContactFields, contactFieldsFrom, contactsDecider, contactsStreamName, type ContactCommand } from '@axel/domain';
import { handleCommand, loadState } from '@axel/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { requestMeta } from '../../http/request-meta';
import { requireSelf } from '../../http/auth';
import { ErrorSchema } from './wallet.schema';
import type { WalletService } from './wallet.service';

const tags = ['wallet'];
const text = z.string().max(300).nullable().optional();
const ContactBody = z.object({
  nickname: text,
  firstName: text,
  middleName: text,
  lastName: text,
  email: text,
  email2: text,
  phone: text,
  phone2: text,
  publicKey: text,
});
const ContactSchema = ContactFields.extend({ id: z.string(), active: z.boolean() });
const Params = z.object({ id: z.string().min(1).max(64) });
const ContactParams = Params.extend({ contactId: z.string().min(1).max(64) });

/** `/users/{id}/contacts/`: the address book the send screen picks from. */
export const contactsRoutes = (ctx: AppContext, wallet: () => Promise<WalletService>) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);

  const load = async (userId: string) => (await loadState(ctx.commands, contactsDecider, contactsStreamName(userId))).state;
  const run = async (request: FastifyRequest, userId: string, command: Omit<ContactCommand, 'metadata'>) => {
    const meta = requestMeta(request);
    const result = await handleCommand(
      ctx.commands,
      contactsDecider,
      contactsStreamName(userId),
      { ...command, metadata: { now: ctx.now() } } as ContactCommand,
      {
        actorId: userId,
        actorKind: 'user',
        ...meta,
      },
    );
    if (result.position) await ctx.caughtUp(result.position);
    return result.state;
  };
  const ownerOf = async (user: { id: string; email: string | null }) => {
    const addresses = await (await wallet()).addresses(user.id);
    return { email: user.email ?? '', keys: addresses ? [addresses.primary, addresses.fuel] : [] };
  };

  app.get(
    '/api/users/:id/contacts/',
    {
      schema: { tags, summary: 'Your contacts, by nickname', params: Params, response: { 200: z.object({ data: z.array(ContactSchema), total: z.number() }) } },
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const data = Object.values((await load(user.id)).contacts).sort((a, b) => a.nickname.localeCompare(b.nickname));
      return { data, total: data.length };
    },
  );

  app.post(
    '/api/users/:id/contacts/',
    {
      schema: {
        tags,
        summary: 'Add a contact (nickname, e-mail and a 34-character public key required)',
        params: Params,
        body: ContactBody,
        response: { 201: ContactSchema, 400: ErrorSchema, 409: ErrorSchema },
      },
      config: limit({ perIp: 60, perAccount: 30 }),
    },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const contact = contactFieldsFrom(request.body);
      const contactId = randomUUID();
      const state = await run(request, user.id, { type: 'AddContact', data: { contactId, contact, owner: await ownerOf(user) } });
      return reply.status(201).send(state.contacts[contactId]!);
    },
  );

  app.put(
    '/api/users/:id/contacts/:contactId',
    {
      schema: {
        tags,
        summary: 'Change a contact',
        params: ContactParams,
        body: ContactBody,
        response: { 200: ContactSchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
      },
      config: limit({ perIp: 60, perAccount: 30 }),
    },
    async (request) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      const contact = contactFieldsFrom(request.body);
      const state = await run(request, user.id, { type: 'ChangeContact', data: { contactId: request.params.contactId, contact, owner: await ownerOf(user) } });
      return state.contacts[request.params.contactId]!;
    },
  );

  app.delete(
    '/api/users/:id/contacts/:contactId',
    {
      schema: { tags, summary: 'Remove a contact', params: ContactParams, response: { 204: z.null(), 404: ErrorSchema } },
      config: limit({ perIp: 60, perAccount: 30 }),
    },
    async (request, reply) => {
      const { user } = await requireSelf(ctx, request, request.params.id);
      await run(request, user.id, { type: 'RemoveContact', data: { contactId: request.params.contactId } });
      return reply.status(204).send(null);
    },
  );
};
