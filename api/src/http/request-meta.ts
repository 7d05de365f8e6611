import type { CommandContext } from '@axel/platform';
import type { FastifyRequest } from 'fastify';
import { clientName } from './client-name';

/** Where a request came from, as the events it causes record it. */
export interface RequestMeta {
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly client: string | null;
  readonly correlationId: string;
}

export const requestMeta = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip ?? null,
  userAgent: (request.headers['user-agent'] ?? '').slice(0, 500) || null,
  client: clientName(request.headers['x-client']),
  correlationId: request.id,
});

/** The signed-in user as the actor of the commands a request runs. */
export const userActor = (request: FastifyRequest, userId: string): CommandContext => {
  const meta = requestMeta(request);
  return { actorId: userId, actorKind: 'user', ip: meta.ip, userAgent: meta.userAgent, client: meta.client, correlationId: meta.correlationId };
};
