import type { PlanKind } from '../billing/billing.catalogue';
import type { Command } from '../shared/decider';
import type { PermissionLevel, Principal } from './permissions';
import type { ForbiddenAction } from './teams.events';

/** Who asks: a signed-in person, whose role in the team the decider finds itself. */
export interface TeamActor {
  readonly userId: string;
}

/** What the product knows of a person with an account, looked up before an invite or a join (never read by the decider itself). */
export interface InviteeAccount {
  readonly userId: string;
  /** Status `active` (not inactive, suspended, unpaid or abandoned). */
  readonly active: boolean;
  readonly planKind: PlanKind;
  readonly onTrial: boolean;
  /** Owns a plan with members (a team of their own). */
  readonly ownsTeam: boolean;
  /** The team they belong to, if any. */
  readonly teamId: string | null;
}

export interface Invitee {
  readonly memberId: string;
  readonly inviteId: string;
  readonly emailKey: string;
  /** null: no account with this address. */
  readonly account: InviteeAccount | null;
}

export type TeamCommand =
  | Command<'CreateTeam', { teamId: string; ownerId: string; planKind: PlanKind }>
  | Command<'ChangeTeamPlan', { planKind: PlanKind }>
  | Command<'InviteMembers', { actor: TeamActor; invitees: readonly Invitee[]; quotaBytes: number; seatLimit: number }>
  | Command<'CreateInviteLink', { actor: TeamActor; linkId: string; tokenHash: string; quotaBytes: number }>
  | Command<'RevokeInviteLink', { actor: TeamActor; linkId: string }>
  | Command<
      'JoinTeam',
      {
        account: InviteeAccount;
        emailKey: string;
        via: { readonly kind: 'invite'; readonly inviteId: string } | { readonly kind: 'link'; readonly linkId: string; readonly memberId: string };
        seatLimit: number;
      }
    >
  | Command<'RemoveMember', { actor: TeamActor; memberId: string }>
  | Command<'SuspendMember', { actor: TeamActor; memberId: string }>
  | Command<'UnsuspendMember', { actor: TeamActor; memberId: string }>
  | Command<'SetMemberQuota', { actor: TeamActor; memberId: string; quotaBytes: number }>
  | Command<'SetMemberRole', { actor: TeamActor; memberId: string; role: 'co_admin_member' | 'member' }>
  | Command<'SetForbiddenActions', { actor: TeamActor; memberId: string; actions: readonly ForbiddenAction[] }>
  | Command<'CreateGroup', { actor: TeamActor; groupId: string; name: string }>
  | Command<'RenameGroup', { actor: TeamActor; groupId: string; name: string }>
  | Command<'DeleteGroup', { actor: TeamActor; groupId: string }>
  | Command<'SetGroupMembers', { actor: TeamActor; groupId: string; memberIds: readonly string[] }>
  | Command<
      'SetItemPermissions',
      {
        actor: TeamActor;
        storageId: string;
        /** Item ids from the top folder of the team storage down to the item itself. */
        path: readonly string[];
        grants: readonly { principal: Principal; level: PermissionLevel }[];
      }
    >
  | Command<'CloseTeam', { reason: 'downgrade' | 'owner-deleted' }>
  /** A member's account was purged: they leave the team, whoever manages it. */
  | Command<'DropPurgedMember', { userId: string }>
  /** The owner's account was purged: what the team stream keeps of people is forgotten. */
  | Command<'ForgetTeam', Record<string, never>>;
