import { FORBIDDEN_ACTIONS, MEMBER_ROLES, MEMBER_STATUSES, PERMISSION_LEVELS, PLAN_KINDS } from '@axel/domain';
import { z } from 'zod';
import { TEAM_ACTIVITY_TYPES } from '@axel/projections/teams/team-activity.projection';

export const ErrorSchema = z.object({ code: z.union([z.string(), z.number()]), message: z.string(), data: z.unknown() });

const id = z.string().min(1).max(200);
export const UserParams = z.object({ id });
export const TeamParams = z.object({ teamId: id });
export const MemberParams = z.object({ teamId: id, memberId: id });
export const TokenParams = z.object({ token: z.string().min(1).max(200) });
export const ItemParams = z.object({ id, storageId: id, itemId: id });

export const TeamSchema = z.object({
  id: z.string(),
  ownerId: z.string(),
  plan: z.enum(PLAN_KINDS),
  status: z.enum(['open', 'closed']),
  role: z.enum(MEMBER_ROLES),
  createdAt: z.string(),
});
export type TeamJson = z.infer<typeof TeamSchema>;

export const MemberSchema = z.object({
  memberId: z.string(),
  userId: z.string().nullable(),
  email: z.string().nullable(),
  role: z.enum(MEMBER_ROLES),
  status: z.enum(MEMBER_STATUSES),
  /** The spec's quota in GB, and the exact bytes. */
  quota: z.number(),
  quotaBytes: z.number(),
  forbiddenActions: z.array(z.enum(FORBIDDEN_ACTIONS)),
  groupIds: z.array(z.string()),
  createdAt: z.string(),
});
export type MemberJson = z.infer<typeof MemberSchema>;

export const MembersQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
});
export const MembersPage = z.object({ data: z.array(MemberSchema), total: z.number(), page: z.number(), pageSize: z.number() });

export const InviteBody = z.object({
  /** Up to 10 addresses split by spaces, commas or semicolons (spec §5). */
  emails: z.string().max(10_000),
  /** The quota each new member gets, in GB (none: no storage of their own). */
  quota: z.number().int().min(0).max(1_000_000).optional(),
});
export const InvitedSchema = z.object({ data: z.array(z.object({ memberId: z.string(), email: z.string(), status: z.literal('pending') })) });

export const JoinedSchema = z.object({ teamId: z.string(), memberId: z.string(), role: z.enum(MEMBER_ROLES), status: z.enum(MEMBER_STATUSES) });

const GrantIn = z.union([
  z.object({ userId: id, level: z.enum(PERMISSION_LEVELS) }).strict(),
  z.object({ groupId: id, level: z.enum(PERMISSION_LEVELS) }).strict(),
]);
export const PermissionsBody = z.object({ grants: z.array(GrantIn).max(500) });

const GrantOut = z.object({ userId: z.string().optional(), groupId: z.string().optional(), level: z.enum(PERMISSION_LEVELS) });
export const PermissionsSchema = z.object({
  itemId: z.string(),
  /** The grants made on this item itself. */
  grants: z.array(GrantOut),
  /** Grants this item inherits from the folders above it: they cannot be lowered here. */
  inherited: z.array(GrantOut.extend({ from: z.string() })),
  /** Each member's level on the item and where it comes from: an item id (this one or a folder above), or their role. */
  effective: z.array(
    z.object({
      userId: z.string(),
      level: z.enum(PERMISSION_LEVELS),
      from: z.string().nullable(),
      source: z.enum(['grant', 'role', 'none']),
      via: z.object({ kind: z.enum(['user', 'group']), id: z.string() }).nullable(),
    }),
  ),
});
export type PermissionsJson = z.infer<typeof PermissionsSchema>;

export const ChangeMemberBody = z
  .object({
    role: z.enum(['co_admin_member', 'member']).optional(),
    /** GB. */
    quota: z.number().int().min(0).max(1_000_000).optional(),
    forbiddenActions: z.array(z.enum(FORBIDDEN_ACTIONS)).max(FORBIDDEN_ACTIONS.length).optional(),
    /** Suspend (`suspended`) or give access back (`joined`). */
    status: z.enum(['suspended', 'joined']).optional(),
  })
  .strict();

export const MemberRoleSchema = z.object({
  teamId: z.string().nullable(),
  /** The team's owner (the plan owner), null outside any team. */
  ownerId: z.string().nullable(),
  role: z.enum(MEMBER_ROLES).nullable(),
  status: z.enum(MEMBER_STATUSES).nullable(),
  isCoAdmin: z.boolean(),
  /** Seats of the team's plan (the person's own plan outside any team). */
  freeSeats: z.number(),
});

export const GroupParams = z.object({ teamId: id, groupId: id });
export const GroupBody = z.object({ name: z.string().max(1000) });
export const GroupMembersBody = z.object({ memberIds: z.array(id).max(10_000) });
export const GroupSchema = z.object({ id: z.string(), name: z.string(), memberIds: z.array(z.string()), createdAt: z.string() });

export const LinkParams = z.object({ teamId: id, linkId: id });
export const InviteLinkBody = z.object({ quota: z.number().int().min(0).max(1_000_000).optional() });
export const InviteLinkSchema = z.object({ linkId: z.string(), url: z.string() });

export const TeamStoragesSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      name: z.string().nullable(),
      ownerId: z.string(),
      sizeTotal: z.number(),
      sizeUsed: z.number(),
      sizeTrashed: z.number(),
      isOwner: z.boolean(),
      isAdmin: z.boolean(),
      isCoAdmin: z.boolean(),
      /** Always true here: the storage is the team's, reached as a member. */
      isTeamFolder: z.boolean(),
      /** What the member's role allows at the storage's root (a co-admin: all; a member: what grants below give). */
      permissions: z.object({ edit: z.boolean(), download: z.boolean(), view: z.boolean(), setPermission: z.boolean() }),
    }),
  ),
});

export const ActivityQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  type: z.enum(TEAM_ACTIVITY_TYPES).optional(),
  /** Only what this member did. */
  memberId: id.optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export const ActivityEntrySchema = z.object({
  id: z.string(),
  type: z.enum(TEAM_ACTIVITY_TYPES),
  sourcePath: z.string().nullable(),
  destinationPath: z.string().nullable(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  /** The member an entry about membership is about. */
  memberId: z.string().nullable(),
  at: z.string(),
});
export const ActivityPage = z.object({ data: z.array(ActivityEntrySchema), total: z.number(), page: z.number(), pageSize: z.number() });
