import { CommonErrors, DomainError } from '@axel/domain';
import type { FastifyInstance } from 'fastify';

/**
 * Text PostgreSQL cannot store (a NUL in `text` or `jsonb`, a lone UTF-16 surrogate that has no
 * UTF-8 form) and numbers no column can hold are refused once, here, for every route: a route's
 * own schema then only has to say what its fields mean.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const isUnsafeText = (text: string): boolean => text.includes('\u0000') || LONE_SURROGATE.test(text);

const isUnsafeNumber = (n: number) => !Number.isFinite(n) || Math.abs(n) > Number.MAX_SAFE_INTEGER;

/**
 * The path (`a.b.0`) of the first string, key or number in a parsed JSON value that cannot be
 * stored, or null. Iterative: a deeply nested body must not overflow the stack.
 */
export const findUnsafeValue = (value: unknown, root = ''): string | null => {
  const stack: { value: unknown; path: string }[] = [{ value, path: root }];
  while (stack.length) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (isUnsafeText(current)) return path || '_';
    } else if (typeof current === 'number') {
      if (isUnsafeNumber(current)) return path || '_';
    } else if (Array.isArray(current)) {
      for (const [i, item] of current.entries()) stack.push({ value: item, path: path ? `${path}.${i}` : String(i) });
    } else if (current && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [key, item] of Object.entries(current)) {
        const itemPath = path ? `${path}.${key}` : key;
        if (isUnsafeText(key)) return path || '_';
        stack.push({ value: item, path: itemPath });
      }
    }
  }
  return null;
};

const invalid = (field: string) => new DomainError(CommonErrors.validation, { fields: { [field]: 'validation.invalid' } });

/** True when every `%xx` escape of a raw query string decodes to well-formed, storable text. */
const queryDecodes = (rawQuery: string) => {
  for (const part of rawQuery.split(/[&=]/)) {
    if (!part.includes('%')) continue;
    try {
      if (isUnsafeText(decodeURIComponent(part.replace(/\+/g, ' ')))) return false;
    } catch {
      return false;
    }
  }
  return true;
};

export const registerInputHygiene = (app: FastifyInstance) => {
  // a malformed escape in the query is left undecoded by the parser: refuse it like one in the path
  app.addHook('onRequest', async (request) => {
    const q = request.url.indexOf('?');
    if (q >= 0 && !queryDecodes(request.url.slice(q + 1))) throw invalid('query');
  });
  app.addHook('preValidation', async (request) => {
    const field = findUnsafeValue(request.params, 'params') ?? findUnsafeValue(request.query, 'query') ?? findUnsafeValue(request.body);
    if (field !== null) throw invalid(field);
  });
};
