import type { ActivateDbsAccess, BlockUser, CancelDbsAccess, ChangeRole, SuspendUser, UnblockUser, UnsuspendUser } from './accounts.commands';
import { iso, nowOf, requireExisting } from './accounts.decide.common';
import type { UserEvent } from './accounts.events';
import type { UserState } from './accounts.state';

export const suspendUser = (command: SuspendUser, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  if (user.status === 'suspended') return [];
  return [{ type: 'UserSuspended', data: { reason: command.data.reason ?? null, at: nowOf(command).at } }];
};

export const unsuspendUser = (command: UnsuspendUser, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  return user.status === 'suspended' ? [{ type: 'UserUnsuspended', data: { at: nowOf(command).at } }] : [];
};

export const blockUser = (command: BlockUser, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  const until = command.data.until === null ? null : command.data.until.getTime();
  if (user.block !== null && user.block.until === until) return [];
  return [{ type: 'UserBlocked', data: { until: until === null ? null : iso(until), at: nowOf(command).at } }];
};

export const unblockUser = (command: UnblockUser, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  return user.block === null ? [] : [{ type: 'UserUnblocked', data: { at: nowOf(command).at } }];
};

export const changeRole = (command: ChangeRole, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  if (user.role === command.data.role) return [];
  return [{ type: 'RoleChanged', data: { from: user.role, to: command.data.role, at: nowOf(command).at } }];
};

/** Database-as-a-service access: given and taken back by staff with the `ddbaas` feature; repeating either changes nothing. */
export const activateDbsAccess = (command: ActivateDbsAccess, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  return user.dbsAccess ? [] : [{ type: 'DbsAccessActivated', data: { at: nowOf(command).at } }];
};

export const cancelDbsAccess = (command: CancelDbsAccess, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  return user.dbsAccess ? [{ type: 'DbsAccessCancelled', data: { at: nowOf(command).at } }] : [];
};
