import { CommonErrors } from '@axel/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Rate limits as routes declare them: `config: limit({ perIp, perAccount, window })`.
 *
 * - `perIp` caps one client address across every account it names (one address trying many
 *   e-mails), `perAccount` caps one account across every client address (many addresses trying one
 *   account). Both are scaled by RATE_LIMIT_FACTOR (many users behind one address).
 * - The account is what the request names: the `email` of the body, else a mailed token's account,
 *   else the `:id` of a signed-in route (`accountOfRequest`; a route may name another `account`).
 * - `accountTrusted` may exempt a request from the per-account cap (a browser that signed in to
 *   that account before), so that strangers exhausting it cannot keep the owner out.
 * - Over a cap the answer is 429 RATE_LIMITED with Retry-After.
 *
 * Counters are fixed windows in this process's memory, which is exact for the embedded default and
 * the compose file (one `api` process). Behind several API processes each counts on its own, so
 * the caps become N times looser; a shared store (a PostgreSQL table with an upsert per hit) can
 * replace `MemoryCounters` behind the same `Counters` interface when that deployment exists.
 */
export type AccountKey = (request: FastifyRequest) => string | null;

export interface RouteLimits {
  readonly perIp?: number;
  readonly perAccount?: number;
  /** Window of both caps, in milliseconds. */
  readonly windowMs: number;
  readonly account?: AccountKey;
  readonly accountTrusted?: (request: FastifyRequest, account: string) => Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    limits?: RouteLimits;
  }
}

export interface Counters {
  /** Counts one hit; answers the count within the current window and when that window ends. */
  hit(key: string, windowMs: number, now: number): { count: number; resetAt: number };
}

export class MemoryCounters implements Counters {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private hitsSinceSweep = 0;

  hit(key: string, windowMs: number, now: number) {
    if (++this.hitsSinceSweep >= 10_000) this.sweep(now);
    const current = this.windows.get(key);
    if (current && current.resetAt > now) {
      current.count++;
      return current;
    }
    const fresh = { count: 1, resetAt: now + windowMs };
    this.windows.set(key, fresh);
    return fresh;
  }

  private sweep(now: number) {
    this.hitsSinceSweep = 0;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

// ---- what a request names as its account ----------------------------------------------------

const lower = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value.trim().toLowerCase() : null);

/** The `email` field of the body. */
export const accountFromEmail: AccountKey = (request) => lower((request.body as { email?: unknown } | undefined)?.email);

/** The account of a mailed link token (`<userId>.<secret>`), in the path or the body. */
export const accountFromToken: AccountKey = (request) => {
  const token = (request.params as { token?: unknown } | undefined)?.token ?? (request.body as { token?: unknown } | undefined)?.token;
  if (typeof token !== 'string') return null;
  const dot = token.indexOf('.');
  return dot > 0 ? `user:${token.slice(0, dot)}` : null;
};

/** The `:id` of a route about one user. */
export const accountFromUserId: AccountKey = (request) => {
  const id = (request.params as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && id.length > 0 ? `user:${id}` : null;
};

/** The body's e-mail, else a mailed token's account, else the route's user. */
export const accountOfRequest: AccountKey = (request) => accountFromEmail(request) ?? accountFromToken(request) ?? accountFromUserId(request);

// ---- declaring and enforcing -------------------------------------------------------------------

/** Route config for limits, scaled by the factor once here so routes state the base numbers. */
export const limitsFor =
  (factor: number) =>
  (spec: {
    perIp?: number;
    perAccount?: number;
    window?: 'minute' | '15 minutes' | 'hour';
    account?: AccountKey;
    accountTrusted?: RouteLimits['accountTrusted'];
  }): { limits: RouteLimits } => {
    const scale = (n: number | undefined) => (n === undefined ? undefined : Math.max(1, Math.ceil(n * factor)));
    const windowMs = { minute: 60_000, '15 minutes': 15 * 60_000, hour: 3_600_000 }[spec.window ?? 'minute'];
    return {
      limits: {
        perIp: scale(spec.perIp),
        perAccount: scale(spec.perAccount),
        windowMs,
        account: spec.account ?? accountOfRequest,
        accountTrusted: spec.accountTrusted,
      },
    };
  };

const tooMany = (reply: FastifyReply, resetAt: number, now: number) => {
  const retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000));
  return reply
    .status(429)
    .header('retry-after', String(retryAfter))
    .send({ code: CommonErrors.rateLimited.code, message: CommonErrors.rateLimited.message, data: { retryAfter } });
};

/**
 * Enforces every route's `config.limits` before its handler (after validation, so the body's
 * account is known). Also gives every 429 of the app a Retry-After, whoever answered it.
 */
export const registerRateLimits = (app: FastifyInstance, counters: Counters = new MemoryCounters(), now: () => number = Date.now) => {
  app.addHook('preHandler', async (request, reply) => {
    const limits = request.routeOptions.config.limits;
    if (!limits) return;
    const route = `${request.method} ${request.routeOptions.url}`;
    const at = now();
    if (limits.perIp !== undefined) {
      const hit = counters.hit(`${route}|ip|${request.ip}`, limits.windowMs, at);
      if (hit.count > limits.perIp) return tooMany(reply, hit.resetAt, at);
    }
    const account = limits.perAccount !== undefined ? limits.account?.(request) : null;
    if (account && limits.perAccount !== undefined && !(await limits.accountTrusted?.(request, account))) {
      const hit = counters.hit(`${route}|account|${account}`, limits.windowMs, at);
      if (hit.count > limits.perAccount) return tooMany(reply, hit.resetAt, at);
    }
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '1');
    return payload;
  });
};
