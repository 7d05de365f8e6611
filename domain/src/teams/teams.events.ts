import { z } from 'zod';
import { PLAN_KINDS } from '../billing/billing.catalogue';
import { defineEvent, erasesOwnStream, type EventOf } from '../shared/events';
import { PERMISSION_LEVELS } from './permissions';

/**
 * One stream per team (`team-<teamId>`): members, invites, groups and folder grants, so a seat, a
 * role or a grant is one decision at the stream's revision. It holds no e-mail address: an invite's
 * address lives in the invite's own stream (`team-invite-<inviteId>`), forgotten once the invite is
 * answered or withdrawn; the team stream names invitees by the keyed hash of their address.
 */
export const teamStreamName = (teamId: string) => `team-${teamId}`;
export const teamIdOfStream = (streamName: string) => streamName.slice('team-'.length);
export const teamInviteStreamName = (inviteId: string) => `team-invite-${inviteId}`;
/** One per person: the team they belong to, so a person joins at most one team (spec §6). */
export const teamMembershipStreamName = (userId: string) => `team-membership-${userId}`;

export const MEMBER_ROLES = ['admin', 'co_admin_member', 'member'] as const;
export const MEMBER_STATUSES = ['pending', 'joined', 'suspended'] as const;
export const FORBIDDEN_ACTIONS = ['dropbox', 'createRootFolder'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
export type MemberStatus = (typeof MEMBER_STATUSES)[number];
export type ForbiddenAction = (typeof FORBIDDEN_ACTIONS)[number];

const principal = z.discriminatedUnion('kind', [z.object({ kind: z.literal('user'), id: z.string() }), z.object({ kind: z.literal('group'), id: z.string() })]);

export const TeamCreated = defineEvent('TeamCreated', z.object({ teamId: z.string(), ownerId: z.string(), planKind: z.enum(PLAN_KINDS) }));
export const TeamPlanChanged = defineEvent('TeamPlanChanged', z.object({ planKind: z.enum(PLAN_KINDS) }));
/** Invited by e-mail: a seat is taken from now on (status pending). `emailKey`: keyed hash of the normalised address. */
export const TeamMemberInvited = defineEvent(
  'TeamMemberInvited',
  z.object({ memberId: z.string(), inviteId: z.string(), emailKey: z.string(), quotaBytes: z.number().int().nonnegative(), invitedBy: z.string() }),
);
/** The link's id travels in the invite link itself: a bearer secret, never shown to staff. */
export const TeamInviteLinkCreated = defineEvent(
  'TeamInviteLinkCreated',
  z.object({ linkId: z.string(), tokenHash: z.string(), quotaBytes: z.number().int().nonnegative() }),
  { secret: ['linkId'] },
);
export const TeamInviteLinkRevoked = defineEvent('TeamInviteLinkRevoked', z.object({ linkId: z.string() }), { secret: ['linkId'] });
/** A person joined: through their e-mail invite (the pending member becomes them) or the team's link (a new member). */
export const TeamMemberJoined = defineEvent(
  'TeamMemberJoined',
  z.object({ memberId: z.string(), userId: z.string(), via: z.enum(['invite', 'link']), quotaBytes: z.number().int().nonnegative() }),
);
export const TeamMemberRemoved = defineEvent('TeamMemberRemoved', z.object({ memberId: z.string(), userId: z.string().nullable() }));
export const TeamMemberSuspended = defineEvent('TeamMemberSuspended', z.object({ memberId: z.string() }));
export const TeamMemberUnsuspended = defineEvent('TeamMemberUnsuspended', z.object({ memberId: z.string() }));
export const TeamMemberQuotaSet = defineEvent('TeamMemberQuotaSet', z.object({ memberId: z.string(), quotaBytes: z.number().int().nonnegative() }));
export const TeamMemberRoleChanged = defineEvent('TeamMemberRoleChanged', z.object({ memberId: z.string(), role: z.enum(['co_admin_member', 'member']) }));
export const TeamMemberForbiddenActionsSet = defineEvent(
  'TeamMemberForbiddenActionsSet',
  z.object({ memberId: z.string(), actions: z.array(z.enum(FORBIDDEN_ACTIONS)) }),
);
/** Group names are the owner's words about people: personal, under the team's key. */
export const TeamGroupCreated = defineEvent('TeamGroupCreated', z.object({ groupId: z.string(), name: z.string() }), { personal: ['name'] });
export const TeamGroupRenamed = defineEvent('TeamGroupRenamed', z.object({ groupId: z.string(), name: z.string() }), { personal: ['name'] });
export const TeamGroupDeleted = defineEvent('TeamGroupDeleted', z.object({ groupId: z.string() }));
export const TeamGroupMembersSet = defineEvent('TeamGroupMembersSet', z.object({ groupId: z.string(), memberIds: z.array(z.string()) }));
/** The grants of one item of team storage, replacing its earlier ones (`none` is no grant). */
export const TeamItemPermissionsSet = defineEvent(
  'TeamItemPermissionsSet',
  z.object({ storageId: z.string(), itemId: z.string(), grants: z.array(z.object({ principal, level: z.enum(PERMISSION_LEVELS) })) }),
);
/** The plan no longer carries members (a downgrade or the owner's account deleted): the team ends. */
export const TeamClosed = defineEvent('TeamClosed', z.object({ reason: z.enum(['downgrade', 'owner-deleted']) }));
/** The owner's account was purged: what the team stream keeps of people (group names) is forgotten. */
export const TeamForgotten = defineEvent('TeamForgotten', z.object({ at: z.string() }), { erases: erasesOwnStream });

/** An e-mail invite's address and link, kept apart from the team so it can be forgotten alone. */
export const TeamInviteIssued = defineEvent('TeamInviteIssued', z.object({ teamId: z.string(), email: z.string(), tokenHash: z.string() }), {
  personal: ['email'],
});
/** Accepted, withdrawn or its member removed: the address is forgotten. */
export const TeamInviteClosed = defineEvent('TeamInviteClosed', z.object({ outcome: z.enum(['accepted', 'withdrawn']) }), { erases: erasesOwnStream });

export const TeamMembershipTaken = defineEvent('TeamMembershipTaken', z.object({ teamId: z.string() }));
export const TeamMembershipReleased = defineEvent('TeamMembershipReleased', z.object({ teamId: z.string() }));

export const teamEventDefinitions = [
  TeamCreated,
  TeamPlanChanged,
  TeamMemberInvited,
  TeamInviteLinkCreated,
  TeamInviteLinkRevoked,
  TeamMemberJoined,
  TeamMemberRemoved,
  TeamMemberSuspended,
  TeamMemberUnsuspended,
  TeamMemberQuotaSet,
  TeamMemberRoleChanged,
  TeamMemberForbiddenActionsSet,
  TeamGroupCreated,
  TeamGroupRenamed,
  TeamGroupDeleted,
  TeamGroupMembersSet,
  TeamItemPermissionsSet,
  TeamClosed,
  TeamForgotten,
  TeamInviteIssued,
  TeamInviteClosed,
  TeamMembershipTaken,
  TeamMembershipReleased,
];

export type TeamEvent =
  | EventOf<typeof TeamCreated>
  | EventOf<typeof TeamPlanChanged>
  | EventOf<typeof TeamMemberInvited>
  | EventOf<typeof TeamInviteLinkCreated>
  | EventOf<typeof TeamInviteLinkRevoked>
  | EventOf<typeof TeamMemberJoined>
  | EventOf<typeof TeamMemberRemoved>
  | EventOf<typeof TeamMemberSuspended>
  | EventOf<typeof TeamMemberUnsuspended>
  | EventOf<typeof TeamMemberQuotaSet>
  | EventOf<typeof TeamMemberRoleChanged>
  | EventOf<typeof TeamMemberForbiddenActionsSet>
  | EventOf<typeof TeamGroupCreated>
  | EventOf<typeof TeamGroupRenamed>
  | EventOf<typeof TeamGroupDeleted>
  | EventOf<typeof TeamGroupMembersSet>
  | EventOf<typeof TeamItemPermissionsSet>
  | EventOf<typeof TeamClosed>
  | EventOf<typeof TeamForgotten>;
export type TeamInviteEvent = EventOf<typeof TeamInviteIssued> | EventOf<typeof TeamInviteClosed>;
export type TeamMembershipEvent = EventOf<typeof TeamMembershipTaken> | EventOf<typeof TeamMembershipReleased>;
