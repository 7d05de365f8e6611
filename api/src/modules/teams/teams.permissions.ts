import { DomainError, effectiveLevel, indexGrants, StorageErrors, type ExistingTeam, type PermissionLevel, type Principal } from '@axel/domain';
import { itemPath, storageOwner } from '@axel/projections/storage/storage.queries';
import { grantsOn, teamPeople } from '@axel/projections/teams/teams.queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { requireSelf } from '../../http/auth';
import { limitsFor } from '../../http/rate-limits';
import { userActor } from '../../http/request-meta';
import { ensureOwnTeam, runTeamCommand, teamForManager, teamIdOfOwner, type TeamPlanOf } from './teams.commands';
import { ErrorSchema, ItemParams, PermissionsBody, PermissionsSchema, type PermissionsJson } from './teams.schema';

const tags = ['teams'];
const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema };

const grantOut = (p: Principal, level: PermissionLevel) => (p.kind === 'user' ? { userId: p.id, level } : { groupId: p.id, level });

/** The grants on an item and above it, and every member's level with where it comes from. */
const permissionsOf = async (ctx: AppContext, teamId: string, path: readonly string[]): Promise<PermissionsJson> => {
  const itemId = path[path.length - 1]!;
  const index = indexGrants(await grantsOn(ctx.pool, path));
  const people = await teamPeople(ctx.pool, teamId);
  return {
    itemId,
    grants: (index.get(itemId) ?? []).map((g) => grantOut(g.principal, g.level)),
    inherited: path.slice(0, -1).flatMap((from) => (index.get(from) ?? []).map((g) => ({ ...grantOut(g.principal, g.level), from }))),
    effective: people.map((p) => {
      const { level, from } = effectiveLevel(path, { userId: p.user_id, role: p.role, groupIds: p.group_ids }, index);
      return {
        userId: p.user_id,
        level,
        from: from.kind === 'grant' ? from.itemId : null,
        source: from.kind,
        via: from.kind === 'grant' ? from.principal : null,
      };
    }),
  };
};

/**
 * Folder permissions of team storage (spec §3 Storage types and permissions, §6): the team's admin
 * and co-admins grant `full`, `edit`, `download`, `view` or `none` on an item to members and groups;
 * a grant is inherited below and cannot be lowered there. GET answers each member's effective level
 * and the item it comes from.
 */
export const teamPermissionsRoutes = (ctx: AppContext, planOf: TeamPlanOf) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const writes = limit({ perIp: 120 });

  /** The team whose storage holds the item, managed by the signed-in person, and the item's path. */
  const place = async (request: { params: z.infer<typeof ItemParams> } & Parameters<typeof userActor>[0]) => {
    const { id, storageId, itemId } = request.params;
    const { user } = await requireSelf(ctx, request, id);
    const ownerId = await storageOwner(ctx.pool, storageId);
    if (!ownerId) throw new DomainError(StorageErrors.storageNotFound);
    const teamId = teamIdOfOwner(ownerId);
    if (ownerId === user.id) await ensureOwnTeam(ctx, planOf, user.id, userActor(request, user.id));
    const team: ExistingTeam = await teamForManager(ctx, teamId, user.id).catch((error: unknown) => {
      // a storage outside any team the person manages is not theirs to see
      if (error instanceof DomainError && error.status === 404) throw new DomainError(StorageErrors.storageNotFound);
      throw error;
    });
    const path = await itemPath(ctx.pool, storageId, itemId);
    if (path.length === 0) throw new DomainError(StorageErrors.itemNotFound);
    return { user, team, teamId, path };
  };

  for (const path of ['/api/users/:id/storages/:storageId/items/:itemId/permissions', '/api/users/:id/storages/:storageId/items/:itemId/permissions/']) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary: "An item's grants, those it inherits, and each member's effective level with the item it comes from",
          params: ItemParams,
          response: { 200: PermissionsSchema, ...errors },
        },
      },
      async (request) => {
        const { teamId, path: itemIds } = await place(request);
        return permissionsOf(ctx, teamId, itemIds);
      },
    );
    app.put(
      path,
      {
        config: writes,
        schema: {
          tags,
          summary: "Replace an item's grants ({ userId | groupId, level }); an inherited grant cannot be lowered below its folder",
          params: ItemParams,
          body: PermissionsBody,
          response: { 200: PermissionsSchema, ...errors },
        },
      },
      async (request) => {
        const { user, teamId, path: itemIds } = await place(request);
        const grants = request.body.grants.map((g) => ({
          principal: ('userId' in g ? { kind: 'user', id: g.userId } : { kind: 'group', id: g.groupId }) as Principal,
          level: g.level,
        }));
        await runTeamCommand(
          ctx,
          teamId,
          { type: 'SetItemPermissions', data: { actor: { userId: user.id }, storageId: request.params.storageId, path: itemIds, grants } },
          userActor(request, user.id),
        );
        return permissionsOf(ctx, teamId, itemIds);
      },
    );
  }
};
