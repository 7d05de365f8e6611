import { CommonErrors, DomainError } from '../shared/errors';
import type { DeleteAccount, PurgeAccount } from './accounts.commands';
import { nowOf, requireExisting } from './accounts.decide.common';
import { AccountErrors } from './accounts.errors';
import type { UserEvent } from './accounts.events';
import type { UserState } from './accounts.state';

/** The typed confirmation an account deletion needs. */
export const DELETE_CONFIRMATION = 'YES';

export const deleteAccount = (command: DeleteAccount, state: UserState): UserEvent[] => {
  const user = requireExisting(state);
  const d = command.data;
  if (d.by === 'user') {
    if (d.confirmation !== DELETE_CONFIRMATION) throw new DomainError(AccountErrors.confirmationRequired);
    if (!d.passwordValid) throw new DomainError(AccountErrors.wrongPassword);
  }
  const deleterId = d.by === 'staff' ? d.staffId : user.id;
  return [{ type: 'AccountDeleted', data: { by: d.by, deleterId, email: user.email, at: nowOf(command).at } }];
};

export const purgeAccount = (command: PurgeAccount, state: UserState): UserEvent[] => {
  if (state.status === 'purged') return [];
  if (state.status === 'unregistered') throw new DomainError(AccountErrors.userNotFound);
  if (state.status !== 'deleted') {
    throw new DomainError(CommonErrors.conflict, undefined, 'Only a deleted account can be purged');
  }
  return [{ type: 'AccountPurged', data: { at: nowOf(command).at } }];
};

/** True when the account exists and has been deleted (or purged): the retention process acts on these. */
export const isDeleted = (state: UserState): boolean => state.status === 'deleted' || state.status === 'purged';
