import { CommonErrors, DomainError } from '@axel/domain';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';

export interface ErrorBody {
  code: string | number;
  message: string;
  data: Record<string, unknown> | null;
}

const interpolate = (message: string, data?: Record<string, unknown>) => message.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(data?.[k] ?? ''));

/** `{ field: messageKey }` from zod issues: what the forms show next to each field. */
export const fieldErrors = (issues: readonly { path: readonly PropertyKey[]; message: string }[]) => {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
};

export const validationError = (fields: Record<string, string>) => new DomainError(CommonErrors.validation, { fields });

/** Errors the framework or Node's HTTP parser raise, in the product's terms. */
const EDGE_ERRORS: Record<number, { code: string; message: string }> = {
  400: { code: 'BAD_REQUEST', message: 'The request is malformed' },
  404: { code: CommonErrors.notFound.code as string, message: CommonErrors.notFound.message },
  405: { code: 'METHOD_NOT_ALLOWED', message: 'This method is not allowed here' },
  406: { code: 'NOT_ACCEPTABLE', message: 'No answer in an accepted format' },
  408: { code: 'REQUEST_TIMEOUT', message: 'The request took too long to arrive' },
  413: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large' },
  414: { code: 'URI_TOO_LONG', message: 'The address is too long' },
  415: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'This content type is not accepted here' },
  431: { code: 'HEADERS_TOO_LARGE', message: 'The request headers are too large' },
};
const edgeError = (status: number): ErrorBody => {
  const known = EDGE_ERRORS[status] ?? { code: 'REQUEST_REFUSED', message: 'The request was refused' };
  return { code: known.code, message: known.message, data: null };
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A browser opening a page (not the app's API calls) is shown a page, not JSON. */
const wantsPage = (request: FastifyRequest) =>
  request.method === 'GET' &&
  !/^\/api(\/|$)/.test(request.url.replace(/^[a-z][a-z\d+.-]*:\/\/[^/]*/i, '')) &&
  String(request.headers.accept ?? '').includes('text/html');

/** A small page in the app's colours, for a link that cannot be opened. */
export const errorPage = (status: number, body: ErrorBody) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${status} · AXEL Drive</title>
<style>body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f5f7fb;font-family:Roboto,Helvetica,Arial,sans-serif;color:#1b2330}main{background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(27,35,48,.08);padding:2rem 2.5rem;max-width:28rem;text-align:center}h1{margin:0 0 .5rem;font-size:1.5rem;color:#1565c0}p{margin:.5rem 0 1.5rem;color:#4a5568}a{display:inline-block;background:#1565c0;color:#fff;text-decoration:none;padding:.6rem 1.4rem;border-radius:6px}</style>
</head><body><main><h1>AXEL Drive</h1><p>${escapeHtml(body.message)}</p><a href="/">Go to the start page</a></main></body></html>`;

/** Errors the router raises before any route runs (`%ff` in the path, a path parameter over 100 characters). */
export const answerFrameworkError = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : (error.statusCode ?? 400);
  const body = edgeError(status);
  if (wantsPage(request)) return reply.status(status).type('text/html; charset=utf-8').send(errorPage(status, body));
  return reply.status(status).send(body);
};

/**
 * Bytes Node's parser refused: there is no request to route, so the answer is written to the
 * socket as it is, in the product's shape (the packet itself is never logged: it may hold a token).
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? 413 : 400;
  this.log.debug({ code: error.code, status }, 'unreadable request');
  if (socket.writable) {
    const body = JSON.stringify(edgeError(status));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
};

/** Every error leaves as `{ code, message, data }` with the right status; unknown ones never leak. */
export const registerErrorHandling = (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof DomainError) {
      const body: ErrorBody = { code: error.code, message: interpolate(error.message, error.data), data: error.data ?? null };
      const retryAfter = error.data?.retryAfter;
      if (error.status === 429 && typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
      return reply.status(error.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: v.instancePath.split('/').filter(Boolean),
        message: v.message ?? 'validation.invalid',
      }));
      return reply.status(400).send({
        code: CommonErrors.validation.code,
        message: CommonErrors.validation.message,
        data: { fields: fieldErrors(issues) },
      } satisfies ErrorBody);
    }
    if (error instanceof ZodError) {
      return reply.status(400).send({
        code: CommonErrors.validation.code,
        message: CommonErrors.validation.message,
        data: { fields: fieldErrors(error.issues) },
      } satisfies ErrorBody);
    }
    const status = (error as FastifyError).statusCode;
    if (status === 429) {
      return reply.status(429).send({ code: CommonErrors.rateLimited.code, message: CommonErrors.rateLimited.message, data: null });
    }
    if (status && status >= 400 && status < 500) {
      // the framework's own codes and messages (FST_ERR_..., quoting the URL) stay inside
      return reply.status(status).send(edgeError(status));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: 'INTERNAL', message: 'Something went wrong on our side', data: null });
  });
};
