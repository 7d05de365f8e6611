import { CommonErrors, DomainError } from '@axel/domain';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';

export interface ErrorBody {
  code: string | number;
  message: string;
  data: Record<string, unknown> | null;
}

const interpolate = (message: string, data?: Record<string, unknown>) =>
  message.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(data?.[k] ?? ''));

/** `{ field: messageKey }` from zod issues: what the forms show next to each field. */
export const fieldErrors = (issues: readonly { path: readonly PropertyKey[]; message: string }[]) => {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
};

export const validationError = (fields: Record<string, string>) =>
  new DomainError(CommonErrors.validation, { fields });

/** Every error leaves as `{ code, message, data }` with the right status; unknown ones never leak. */
export const registerErrorHandling = (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof DomainError) {
      const body: ErrorBody = { code: error.code, message: interpolate(error.message, error.data), data: error.data ?? null };
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
      const code = (error as FastifyError).code ?? 'BAD_REQUEST';
      return reply.status(status).send({ code, message: error.message, data: null } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: 'INTERNAL', message: 'Something went wrong on our side', data: null });
  });
};
