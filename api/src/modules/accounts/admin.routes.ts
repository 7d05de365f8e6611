import { adminCreateUserSchema, AccountErrors, DomainError, ROLES, type Role } from '@axel/domain';
import { ACTIVITY_LOCALES, activityLocaleOf } from '@axel/domain/audit/describe-event';
import { storageSizesOf } from '@axel/projections/storage/storage.queries';
import {
  DBS_SORT_COLUMNS,
  emailsOfUsers,
  findUser,
  hasDbsAccess,
  listDbsAccounts,
  listUsers,
  USER_SORT_COLUMNS,
  type UserRow,
} from '@axel/projections/users/users.queries';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { contentRange, ListQuerySchema, parseListQuery } from '../admin/list-query';
import { requestMeta } from '../../http/request-meta';
import { freshUser } from './accounts.routes';
import { assertStaffMay, FEATURES_BY_ROLE, requireStaff, type Authenticated } from '../../http/auth';
import { toProfile, type PlanOf } from './user-info';
import { deleteAccount } from './use-cases/delete-account';
import { registerUser } from './use-cases/register-user';
import { requestPasswordReset } from './use-cases/request-password-reset';
import { userCommand } from './use-cases/account-store';
import { staffAction } from './use-cases/staff-action';

const tags = ['admin'];
const IdParams = z.object({ id: z.string().min(1).max(64) });

/** A suspension's optional reason (spec §4 names no rule for it): staff's words, kept in the user's activity. */
const SuspendBody = z
  .object({ reason: z.string().trim().max(500).nullable().optional() })
  .nullable()
  .optional();

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Every admin-view field of the specification the product has so far. */
export const toAdminUser = (u: UserRow) => {
  const p = toProfile(u);
  return {
    id: u.id,
    role: u.role,
    status: u.status,
    // the account's own status stays as it was when it was deleted; the page's status reads the deletion
    statusId: u.deleted_at ? 'deleted' : u.status,
    username: u.username,
    name: [p.firstName, p.lastName].filter(Boolean).join(' ') || null,
    firstName: p.firstName,
    lastName: p.lastName,
    email: u.email,
    loginEmail: u.email,
    registrationApp: u.registration_app,
    createdByStaff: u.created_by_staff_id !== null,
    authMethods: u.auth_methods,
    registrationUserAgent: u.registration_user_agent,
    firstLoginAt: iso(u.first_login_at),
    lastLoginAt: iso(u.last_login_at),
    emailVerified: u.email_verified,
    blocked: u.blocked,
    blockedUntil: iso(u.blocked_until),
    lockedUntil: iso(u.locked_until),
    suspensionReason: u.suspension_reason,
    registeredAt: iso(u.created_at),
    createdAt: iso(u.created_at),
    modifiedAt: iso(u.modified_at),
    statusUpdatedAt: iso(u.status_updated_at),
    deletedAt: iso(u.deleted_at),
    deleterId: u.deleter_id,
    deletedBy: u.deleted_by,
    purgedAt: iso(u.purged_at),
    phones: { home: null, mobile: p.phone, work: null, business: p.businessPhone },
    addresses: { line1: p.addressLine1, line2: p.addressLine2, city: p.city, state: p.state, country: null, zip: p.zip },
    company: p.company,
    vatNumber: p.vatNumber,
    website: p.website,
    twitter: p.twitter,
    telegram: p.telegram,
    discord: p.discord,
    contactEmail: p.contactEmail,
    locale: u.locale,
    sessionTimeout: u.session_timeout,
    twoFactorEnabled: u.two_factor_enabled,
    twoFactorMethod: u.two_factor_method,
    passphraseSet: false,
    passphraseHint: null,
    defaultIpfsGateway: null,
    encryptionDefault: false,
    signupBonus: null,
    partners: [],
    plan: null,
    storages: [],
    paymentFrequency: null,
  };
};

export const adminRoutes = (ctx: AppContext, planOf: PlanOf) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  const list = async (query: z.infer<typeof ListQuerySchema>, deleted: boolean, resource: string, reply: { header(k: string, v: string): unknown }) => {
    const params = parseListQuery(query, { sortField: deleted ? 'deletedAt' : 'createdAt', sortDir: 'desc', perPage: 10 }, Object.keys(USER_SORT_COLUMNS));
    const filter = (key: 'status' | 'role' | 'registrationApp') => (typeof params.filter[key] === 'string' ? params.filter[key] : null);
    const { rows, total } = await listUsers(ctx.pool, {
      deleted,
      search: params.search,
      status: filter('status'),
      role: filter('role'),
      registrationApp: filter('registrationApp'),
      sortField: params.sortField as keyof typeof USER_SORT_COLUMNS,
      sortDir: params.sortDir,
      limit: params.limit,
      offset: params.offset,
    });
    reply.header('content-range', contentRange(resource, params.offset, rows.length, total));
    reply.header('x-total-count', String(total));
    const emails = await deleterEmails(rows);
    return rows.map((u) => ({ ...toAdminUser(u), deleterEmail: (u.deleter_id && emails.get(u.deleter_id)) || null }));
  };

  /** Who deleted these accounts, by e-mail: one query for the page. */
  const deleterEmails = async (users: readonly UserRow[]): Promise<Map<string, string>> => {
    const ids = [...new Set(users.map((u) => u.deleter_id).filter((id): id is string => !!id))];
    return emailsOfUsers(ctx.pool, ids);
  };

  const AdminUserSchema = z.record(z.string(), z.unknown());

  app.get(
    '/api/admin/users/',
    {
      schema: {
        tags,
        summary: 'Active users (search, sort, paging; ra-data-simple-rest compatible)',
        querystring: ListQuerySchema,
        response: { 200: z.array(AdminUserSchema) },
      },
    },
    async (request, reply) => {
      await requireStaff(ctx, request);
      return list(request.query, false, 'users', reply);
    },
  );

  app.get(
    '/api/admin/deleted-users/',
    { schema: { tags, summary: 'Deleted users, newest deletion first', querystring: ListQuerySchema, response: { 200: z.array(AdminUserSchema) } } },
    async (request, reply) => {
      await requireStaff(ctx, request);
      return list(request.query, true, 'deleted-users', reply);
    },
  );

  const load = async (id: string) => {
    const user = await findUser(ctx.pool, id);
    if (!user) throw new DomainError(AccountErrors.userNotFound);
    return user;
  };

  /**
   * One user's page: the admin view with the figures the list leaves out, read where they live
   * (the plan and its payment frequency from billing, the storages from the storage slice) and
   * who deleted the account by e-mail, so the page never shows a blank beside a figure it has.
   */
  const adminUserPage = async (u: UserRow) => {
    const { entitlements } = await planOf(ctx, u.id);
    const plan = { productName: entitlements.plan.name, cycle: entitlements.plan.cycle, quotaBytes: entitlements.quotaBytes };
    const storages = (await storageSizesOf(ctx.pool, u.id)).map((r) => ({
      id: r.id,
      type: r.type,
      sizeUsed: Number(r.size_used),
      // the online storage takes its plan's quota at its next use: the page shows the quota in effect, as billing does
      sizeTotal: r.type === 'online' ? plan.quotaBytes : Number(r.size_total),
    }));
    const [deleters, dbsAccess] = await Promise.all([deleterEmails([u]), hasDbsAccess(ctx.pool, u.id)]);
    return {
      ...toAdminUser(u),
      hasDbsAccess: dbsAccess,
      plan: plan.productName,
      paymentFrequency: plan.cycle,
      storages,
      deleterEmail: (u.deleter_id && deleters.get(u.deleter_id)) || null,
    };
  };

  app.get('/api/admin/users/:id', { schema: { tags, params: IdParams, response: { 200: AdminUserSchema } } }, async (request) => {
    await requireStaff(ctx, request);
    return adminUserPage(await load(request.params.id));
  });
  app.get('/api/admin/deleted-users/:id', { schema: { tags, params: IdParams, response: { 200: AdminUserSchema } } }, async (request) => {
    await requireStaff(ctx, request);
    return adminUserPage(await load(request.params.id));
  });

  app.get('/api/admin/users/:id/features/', { schema: { tags, params: IdParams, response: { 200: z.array(z.string()) } } }, async (request) => {
    await requireStaff(ctx, request);
    const user = await load(request.params.id);
    return [...(FEATURES_BY_ROLE[user.role as Role] ?? [])];
  });

  app.get(
    '/api/admin/me',
    {
      schema: {
        tags,
        summary: "The signed-in staff member, their features, and the console's language they chose (saved with PUT /api/users/:id/account)",
        response: { 200: z.object({ id: z.string(), email: z.string(), role: z.string(), features: z.array(z.string()), locale: z.enum(ACTIVITY_LOCALES) }) },
      },
    },
    async (request) => {
      const { user } = await requireStaff(ctx, request);
      return {
        id: user.id,
        email: user.email ?? '',
        role: user.role,
        features: [...FEATURES_BY_ROLE[user.role as Role]],
        locale: activityLocaleOf(user.locale),
      };
    },
  );

  app.post(
    '/api/admin/users/',
    { schema: { tags, summary: 'Create a user (confirmed and active)', body: adminCreateUserSchema, response: { 201: AdminUserSchema } } },
    async (request, reply) => {
      const { user: staff } = await requireStaff(ctx, request);
      assertStaffMay(staff, { kind: 'create', role: request.body.role });
      const { userId, position } = await registerUser(
        ctx,
        { email: request.body.email, password: request.body.password, locale: 'en_us', role: request.body.role, termsAccepted: false },
        requestMeta(request),
        { id: staff.id },
      );
      return reply.status(201).send(toAdminUser(await freshUser(ctx, userId, position)));
    },
  );

  const action = (
    name: string,
    summary: string,
    run: (staffId: string, userId: string, meta: ReturnType<typeof requestMeta>, body: unknown) => Promise<{ position: number }>,
    after?: (userId: string) => Promise<void>,
    body?: z.ZodType,
  ) =>
    app.post(
      `/api/admin/users/:id/${name}`,
      { schema: { tags, summary, params: IdParams, ...(body ? { body } : {}), response: { 200: AdminUserSchema } } },
      async (request) => {
        const { user: staff } = await requireStaff(ctx, request);
        const target = await load(request.params.id);
        assertStaffMay(staff, { kind: 'manage', target });
        const result = await run(staff.id, target.id, requestMeta(request), request.body);
        await after?.(target.id);
        return toAdminUser(await freshUser(ctx, target.id, result.position));
      },
    );

  action(
    'suspend',
    "Suspend: signs the user out everywhere; an optional reason goes into the user's activity",
    (staffId, userId, meta, body) =>
      staffAction(ctx, staffId, userId, userCommand(ctx, 'SuspendUser', { reason: SuspendBody.parse(body)?.reason || null }), meta),
    async (userId) => {
      await ctx.sessions.revokeAllFor(userId, 'suspended');
      await ctx.push.publish({ userId, event: 'user.suspended', data: { code: AccountErrors.userSuspended.code } });
    },
    SuspendBody,
  );
  action('unsuspend', 'Lift a suspension', (staffId, userId, meta) => staffAction(ctx, staffId, userId, userCommand(ctx, 'UnsuspendUser', {}), meta));
  action(
    'block',
    'Block sign-in until unblocked',
    (staffId, userId, meta) => staffAction(ctx, staffId, userId, userCommand(ctx, 'BlockUser', { until: null }), meta),
    async (userId) => {
      await ctx.sessions.revokeAllFor(userId, 'blocked');
      await ctx.push.publish({ userId, event: 'user.suspended', data: { code: AccountErrors.userBlocked.code } });
    },
  );
  action('unblock', 'Lift a block', (staffId, userId, meta) => staffAction(ctx, staffId, userId, userCommand(ctx, 'UnblockUser', {}), meta));

  // Databases (spec §2 menu, §4 "activate or cancel DBS access", §6 `ddbaas`): who has the offer, and staff with the feature give or take it
  app.get(
    '/api/admin/databases/',
    { schema: { tags, summary: 'Accounts with database access (search, sort, paging; ra-data-simple-rest compatible)', querystring: ListQuerySchema } },
    async (request, reply) => {
      await requireStaff(ctx, request);
      const params = parseListQuery(request.query, { sortField: 'activatedAt', sortDir: 'desc', perPage: 10 }, Object.keys(DBS_SORT_COLUMNS));
      const { rows, total } = await listDbsAccounts(ctx.pool, {
        search: params.search,
        sortField: params.sortField as keyof typeof DBS_SORT_COLUMNS,
        sortDir: params.sortDir,
        limit: params.limit,
        offset: params.offset,
      });
      reply.header('content-range', contentRange('databases', params.offset, rows.length, total));
      reply.header('x-total-count', String(total));
      return rows.map((r) => ({
        id: r.id,
        email: r.email,
        username: r.username,
        role: r.role,
        status: r.status,
        activatedAt: iso(r.activated_at),
        activatedBy: r.activated_by,
        activatedByEmail: r.activated_by_email,
      }));
    },
  );

  const dbsAccess = (method: 'POST' | 'DELETE', command: 'ActivateDbsAccess' | 'CancelDbsAccess', summary: string) =>
    app.route({
      method,
      url: '/api/admin/users/:id/dbs-access',
      schema: { tags, summary, params: IdParams, response: { 200: AdminUserSchema } },
      handler: async (request) => {
        const { user: staff } = await requireStaff(ctx, request, 'ddbaas');
        const target = await load(request.params.id);
        assertStaffMay(staff, { kind: 'manage', target });
        const result = await staffAction(ctx, staff.id, target.id, userCommand(ctx, command, {}), requestMeta(request));
        return adminUserPage(await freshUser(ctx, target.id, result.position));
      },
    });
  dbsAccess('POST', 'ActivateDbsAccess', "Activate the user's database access (the ddbaas feature)");
  dbsAccess('DELETE', 'CancelDbsAccess', "Cancel the user's database access (the ddbaas feature)");

  const signedInStaff = new WeakMap<FastifyRequest, Authenticated>();
  app.post(
    '/api/admin/users/:id/role',
    {
      schema: {
        tags,
        summary: 'Give the user another role (super_admin only)',
        params: IdParams,
        body: z.object({ role: z.enum(ROLES) }),
        response: { 200: AdminUserSchema },
      },
      // strangers and non-staff learn nothing about the body's rules
      preValidation: async (request) => {
        signedInStaff.set(request, await requireStaff(ctx, request));
      },
    },
    async (request) => {
      const { user: staff } = signedInStaff.get(request)!;
      const target = await load(request.params.id);
      assertStaffMay(staff, { kind: 'changeRole', target, role: request.body.role });
      const result = await staffAction(ctx, staff.id, target.id, userCommand(ctx, 'ChangeRole', { role: request.body.role }), requestMeta(request));
      return toAdminUser(await freshUser(ctx, target.id, result.position));
    },
  );

  app.post(
    '/api/admin/users/:id/password-reset',
    { schema: { tags, summary: 'Mail the user a password reset link', params: IdParams } },
    async (request, reply) => {
      const { user: staff } = await requireStaff(ctx, request, 'admin:user:password:reset');
      const target = await load(request.params.id);
      assertStaffMay(staff, { kind: 'manage', target });
      if (!target.email || target.deleted_at) throw new DomainError(AccountErrors.alreadyDeleted);
      await requestPasswordReset(ctx, target.email, requestMeta(request), { id: staff.id });
      return reply.status(202).send();
    },
  );

  app.delete('/api/admin/users/:id', { schema: { tags, summary: 'Delete a user account', params: IdParams } }, async (request, reply) => {
    const { user: staff } = await requireStaff(ctx, request, 'admin:user:delete');
    const target = await load(request.params.id);
    assertStaffMay(staff, { kind: 'manage', target });
    const result = await deleteAccount(ctx, target.id, { by: 'staff', staffId: staff.id }, requestMeta(request));
    await ctx.caughtUp(result.position);
    await ctx.push.publish({ userId: target.id, event: 'user.suspended', data: { code: 'USER_DELETED' } });
    return reply.status(204).send();
  });

  const ActivitySchema = z.object({
    id: z.string(),
    event: z.string(),
    client: z.string().nullable(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    actorId: z.string().nullable(),
    /** The acting staff member's or user's e-mail, when the actor is an account. */
    actorEmail: z.string().nullable(),
    actorKind: z.string(),
    data: z.record(z.string(), z.unknown()),
    timestamp: z.string(),
  });

  /** One query for the whole page, however many rows name an actor. */
  const actorEmails = async (entries: readonly { actorId: string | null; actorKind: string }[]): Promise<Map<string, string>> => {
    const ids = [...new Set(entries.filter((e) => e.actorId && (e.actorKind === 'staff' || e.actorKind === 'user')).map((e) => e.actorId!))];
    return emailsOfUsers(ctx.pool, ids);
  };

  app.get(
    '/api/admin/users/:id/activity',
    {
      schema: {
        tags,
        summary: "The user's activity log, read from the event metadata (newest first)",
        params: IdParams,
        querystring: ListQuerySchema,
        response: { 200: z.array(ActivitySchema) },
      },
    },
    async (request, reply) => {
      await requireStaff(ctx, request);
      const user = await load(request.params.id);
      const params = parseListQuery(request.query, { sortField: 'timestamp', sortDir: 'desc', perPage: 10 }, ['timestamp']);
      const { events: own } = await ctx.store.readStream(`user-${user.id}`);
      // what staff did to the user elsewhere: a plan change lives in the billing stream
      const billing = (await ctx.store.readStream(`billing-${user.id}`)).events.filter((e) => ACTIVITY_FROM_BILLING.has(e.type));
      const events = [...own, ...billing].sort((a, b) => a.position - b.position);
      const entries = events.map((e) => ({
        id: e.id,
        event: e.type,
        client: e.metadata.client,
        ip: e.metadata.ip,
        userAgent: e.metadata.userAgent,
        actorId: e.metadata.actorId,
        actorKind: e.metadata.actorKind,
        data: redact(e.data as Record<string, unknown>),
        timestamp: e.metadata.time,
      }));
      if (params.sortDir === 'desc') entries.reverse();
      const page = entries.slice(params.offset, params.offset + params.limit);
      const emails = await actorEmails(page);
      reply.header('content-range', contentRange('activity', params.offset, page.length, entries.length));
      return page.map((entry) => ({ ...entry, actorEmail: (entry.actorId && emails.get(entry.actorId)) || null }));
    },
  );
};

/** Billing events that belong in a user's activity log beside their account's own. */
const ACTIVITY_FROM_BILLING = new Set(['PlanChangedByStaff']);

const SECRET_KEYS = /hash|secret|ciphertext|token/i;
/** Credential material never reaches the console, even hashed or sealed. */
const redact = (data: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [k, SECRET_KEYS.test(k) ? '[redacted]' : v]));
