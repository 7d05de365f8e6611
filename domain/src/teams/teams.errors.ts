import { defineErrors } from '../shared/errors';

/**
 * Teams, members, groups and folder permissions (spec rules-calls-errors.md §5 Members, §8 Members and branding).
 * An item a person may not reach answers StorageErrors.fileNotAccessible; a revoked invite link,
 * AccountErrors.inviteRevoked (the spec lists it with the sign-in errors).
 */
export const TeamErrors = defineErrors({
  teamNotFound: { code: 'TEAM_NOT_FOUND', status: 404, message: 'Team not found' },
  notTeamPlan: { code: 'TEAM_PLAN_REQUIRED', status: 403, message: 'Your plan does not include members' },
  notTeamAdmin: { code: 'TEAM_ADMIN_REQUIRED', status: 403, message: 'Only the team admin or a co-admin can do this' },
  notTeamOwner: { code: 'TEAM_OWNER_REQUIRED', status: 403, message: 'Only the team admin can do this' },
  memberNotFound: { code: 'MEMBER_NOT_FOUND', status: 404, message: 'Member not found' },
  alreadyAdded: { code: 'MEMBER_ALREADY_ADDED', status: 409, message: 'This user is already added' },
  ownEmail: { code: 'MEMBER_OWN_EMAIL', status: 400, message: 'You cannot add yourself as a member' },
  otherTeam: { code: 'MEMBER_OF_ANOTHER_TEAM', status: 409, message: 'This user is a member of another team' },
  inactiveUser: { code: 'MEMBER_INACTIVE_USER', status: 409, message: 'This user is not active' },
  memberLimit: { code: 'MEMBER_LIMIT', status: 409, message: 'You have reached the number of members your plan allows' },
  inviteeHasAccount: { code: 'INVITEE_HAS_ACCOUNT', status: 409, message: 'This person already has an account on a plan that cannot join a team' },
  inviteeHigherPlan: { code: 'INVITEE_HIGHER_PLAN', status: 409, message: 'This person is on a higher plan and cannot join a team' },
  inviteeOwnsPlan: { code: 'INVITEE_PLAN_OWNER', status: 409, message: 'This person owns a plan with members and cannot join a team' },
  invalidEmails: { code: 'INVALID_EMAILS', status: 400, message: 'One or more e-mail addresses are invalid' },
  tooManyEmails: { code: 'TOO_MANY_EMAILS', status: 400, message: 'Invite at most 10 addresses at a time' },
  inviteInvalid: { code: 'INVITE_INVALID', status: 404, message: 'This invite is not valid' },
  inviteForOther: { code: 'INVITE_FOR_OTHER_EMAIL', status: 403, message: 'This invite was sent to another e-mail address' },
  groupNameRequired: { code: 'GROUP_NAME_REQUIRED', status: 400, message: 'A group name is required' },
  groupNameInUse: { code: 'GROUP_NAME_IN_USE', status: 409, message: 'This group name is already in use' },
  groupNotFound: { code: 'GROUP_NOT_FOUND', status: 404, message: 'Group not found' },
  quotaWithoutAccess: { code: 'QUOTA_WITHOUT_ACCESS', status: 400, message: 'A quota cannot be set for a member without access' },
  adminUnchangeable: { code: 'MEMBER_IS_ADMIN', status: 409, message: 'The team admin cannot be changed this way' },
  inheritedPermission: { code: 'PERMISSION_INHERITED', status: 409, message: 'An inherited permission cannot be lowered on a folder below it' },
  duplicateGrant: { code: 'PERMISSION_DUPLICATE', status: 400, message: 'A member or group appears twice in the permissions' },
  rootFolderForbidden: { code: 'ROOT_FOLDER_FORBIDDEN', status: 403, message: 'Root-level folders cannot be created' },
});
