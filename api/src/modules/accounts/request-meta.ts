import type { FastifyRequest } from 'fastify';
import { clientName } from '../../http/client-name';
import type { RequestMeta } from './accounts.service';

/** Who asked, from where and with what: the metadata every command of a request carries into its events. */
export const requestMeta = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip ?? null,
  userAgent: (request.headers['user-agent'] ?? '').slice(0, 500) || null,
  client: clientName(request.headers['x-client']),
  correlationId: request.id,
});
