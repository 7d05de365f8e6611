import { CommonErrors, DomainError } from '@axel/domain';
import { AccountErrors, DEFAULT_SESSION_TIMEOUT, STAFF_REFUSAL_MESSAGES, STAFF_ROLES, staffMay, type Role, type StaffAct } from '@axel/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { readSessionToken, unauthorized, type SessionRecord } from './sessions';
import { findUser, type UserRow } from '@axel/projections/users/users.queries';

/** Auto-pay programs: `edit` covers creating, editing, payees and CSV import; each other action has its own. */
export const AUTOPAY_FEATURES = [
  'admin:autopay:edit',
  'admin:autopay:submit',
  'admin:autopay:approve',
  'admin:autopay:reject',
  'admin:autopay:lock',
  'admin:autopay:unlock',
  'admin:autopay:cancel',
  'admin:autopay:retry',
] as const;

export const FEATURES = [
  'ddbaas',
  'admin:cloudlocker:unbind',
  'admin:user:delete',
  'admin:user:password:reset',
  'admin:promocode:add',
  'admin:promocode:delete',
  /** Mint test AXEL to the treasury, on the development chain only. */
  'admin:treasury:fill',
  /** Take a paid file's pin off IPFS (with a reason). */
  'admin:ipfs:unpin',
  ...AUTOPAY_FEATURES,
] as const;
export type Feature = (typeof FEATURES)[number];

/**
 * Which staff role holds which feature (the specification leaves it open): super_admin holds all;
 * admin runs accounts and devices but cannot delete users; financial_admin runs promo codes, the
 * database-as-a-service offer, auto-pay programs (four eyes: a second one approves) and the
 * development chain's treasury.
 */
export const FEATURES_BY_ROLE: Record<Role, readonly Feature[]> = {
  super_admin: FEATURES,
  admin: ['admin:user:password:reset', 'admin:cloudlocker:unbind', 'admin:promocode:add', 'admin:ipfs:unpin'],
  financial_admin: ['admin:promocode:add', 'admin:promocode:delete', 'ddbaas', 'admin:treasury:fill', ...AUTOPAY_FEATURES],
  auditor: [],
  user: [],
};

export const isStaff = (role: string): boolean => (STAFF_ROLES as readonly string[]).includes(role);

export interface Authenticated {
  readonly session: SessionRecord;
  readonly user: UserRow;
}

/** Each request is authenticated once: the gate below and the handler share the answer. */
const authenticated = new WeakMap<FastifyRequest, Promise<Authenticated>>();

/** The signed-in user of this request, or a 401 that says why (inactivity has its own message). */
export const requireUser = (ctx: AppContext, request: FastifyRequest): Promise<Authenticated> => {
  let found = authenticated.get(request);
  if (!found) {
    found = authenticate(ctx, request);
    authenticated.set(request, found);
  }
  return found;
};

const authenticate = async (ctx: AppContext, request: FastifyRequest): Promise<Authenticated> => {
  const token = readSessionToken(request);
  if (!token) throw unauthorized('none');
  // the timeout check reads the user once; the same row serves the request
  let user: UserRow | undefined;
  const result = await ctx.sessions.touch(token, async (userId) => {
    user = await findUser(ctx.pool, userId);
    return user?.session_timeout ?? DEFAULT_SESSION_TIMEOUT;
  });
  if (!result.ok) throw unauthorized(result.reason);
  if (!user || user.deleted_at) {
    await ctx.sessions.revoke(result.session.id, 'deleted');
    throw new DomainError(CommonErrors.unauthorized);
  }
  if (user.status === 'suspended') {
    await ctx.sessions.revoke(result.session.id, 'suspended');
    throw new DomainError(AccountErrors.userSuspended);
  }
  return { session: result.session, user };
};

/** `/users/:id/...` routes act only on the signed-in user's own account. */
export const requireSelf = async (ctx: AppContext, request: FastifyRequest, id: string): Promise<Authenticated> => {
  const auth = await requireUser(ctx, request);
  if (auth.user.id !== id) throw new DomainError(CommonErrors.forbidden);
  return auth;
};

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A staff member, with the feature when one is named. An auditor passes on reads only, whatever the route. */
export const requireStaff = async (ctx: AppContext, request: FastifyRequest, feature?: Feature): Promise<Authenticated> => {
  const auth = await requireUser(ctx, request);
  if (!isStaff(auth.user.role)) throw new DomainError(CommonErrors.forbidden);
  if (auth.user.role === 'auditor' && !READS.has(request.method)) {
    throw new DomainError(CommonErrors.forbidden, { reason: 'read_only' }, STAFF_REFUSAL_MESSAGES.read_only);
  }
  if (feature && !FEATURES_BY_ROLE[auth.user.role as Role].includes(feature)) {
    throw new DomainError(CommonErrors.forbidden, { feature }, `This needs the ${feature} feature`);
  }
  return auth;
};

/** Who a route serves, known from its path before anything it was sent is read. */
export type RouteAudience = 'staff' | 'user' | 'anyone';

const STAFF_ROUTE = /^\/api\/(admin|wallet\/v1\/admin)\//;
/**
 * A signed-in user's routes: `/users/{id}/...` (and the development stand-ins acting on them), the
 * wallet (but its public explorer, and its development faucet, which first answers 404 to any other
 * machine), the owner's shares (visitors come through `/share-links/`), bookmarks, starting a cart,
 * teams and accepting a team invite, and the Dropbox proxies (they call Dropbox with the user's own token).
 */
const USER_ROUTE =
  /^\/api\/((dev\/)?users\/:id(\/|$)|wallet\/v1\/(?!faucet|explorer\/)|shares\/|bookmarks(\/|$)|carts\/$|teams\/|team-invites\/|dropbox(api|content)\/)/;
/**
 * Calls under those prefixes made without a session: a Secure Fetch link's sender sending the files
 * (under the owner's `/shares/`), and a team's logo, shown on its share pages and custom host.
 */
const ANONYMOUS_CALLS = new Set(['POST /api/shares/:id/', 'GET /api/teams/:teamId/branding/logo']);

export const routeAudience = (url: string, method: string): RouteAudience =>
  STAFF_ROUTE.test(url) ? 'staff' : USER_ROUTE.test(url) && !ANONYMOUS_CALLS.has(`${method} ${url}`) ? 'user' : 'anyone';

/**
 * The session is checked before the request's body is even read: on a user's routes a stranger gets
 * 401 whatever they send (never a 400 that tells them how the route wants its input), and every
 * route under /api/admin is for staff: a non-staff user gets 403 and an auditor 403 `read_only` on
 * every write, on every admin route present and future. Routes still check whose account it is,
 * their own features and the hierarchy.
 */
export const registerStaffGate = (app: FastifyInstance, ctx: AppContext): void => {
  app.addHook('onRequest', async (request) => {
    const audience = routeAudience(request.routeOptions.url ?? '', request.method);
    if (audience === 'staff') await requireStaff(ctx, request);
    else if (audience === 'user') await requireUser(ctx, request);
  });
};

/**
 * The staff hierarchy (`staffMay`), enforced: every admin write calls this before it writes, so a
 * refusal is a 403 with the rule's reason in `data.reason` and its words as the message.
 */
export const assertStaffMay = (staff: Pick<UserRow, 'id' | 'role'>, act: StaffAct): void => {
  const decision = staffMay(staff, act);
  if (!decision.allowed) throw new DomainError(CommonErrors.forbidden, { reason: decision.reason }, STAFF_REFUSAL_MESSAGES[decision.reason]);
};
