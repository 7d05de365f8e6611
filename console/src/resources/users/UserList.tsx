import { Box, Typography } from '@mui/material';
import { CreateButton, Datagrid, List, Pagination, TextField, TopToolbar, useListContext, usePermissions, useTranslate } from 'react-admin';
import { LocaleDateField } from '../../i18n/dates';
import { creatableRoles } from '../../auth/access';
import { RoleField, StatusField } from './userFields';
import { UserSearchBox, UserSearchMessage } from './UserSearchBox';
import { searchTextOf, USERS_PER_PAGE } from './userSearch';
import { NONE } from './userValues';

/** A financial_admin creates no accounts, so the button is not offered to one. */
const UserListActions = () => {
  const { permissions } = usePermissions();
  return (
    <TopToolbar sx={{ width: '100%', justifyContent: 'space-between', alignItems: 'center' }}>
      <UserSearchBox />
      {creatableRoles(permissions).length > 0 ? <CreateButton data-testid="users-create" /> : null}
    </TopToolbar>
  );
};

/** With a search, the "no match" message says it all; without one, an empty table means no users at all. */
const NoUsers = () => {
  const translate = useTranslate();
  const { filterValues } = useListContext();
  if (searchTextOf(filterValues)) return null;
  return (
    <Box sx={{ p: 2 }}>
      <Typography color="text.secondary">{translate('resources.users.search.none')}</Typography>
    </Box>
  );
};

export const UserList = () => (
  <List
    sort={{ field: 'createdAt', order: 'DESC' }}
    perPage={USERS_PER_PAGE}
    pagination={<Pagination rowsPerPageOptions={[USERS_PER_PAGE]} />}
    actions={<UserListActions />}
    empty={false}
    exporter={false}
    storeKey="users.active"
  >
    <UserSearchMessage />
    <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoUsers />} data-testid="users-table">
      <TextField source="email" />
      <TextField source="username" emptyText={NONE} />
      <TextField source="name" sortable={false} emptyText={NONE} />
      <RoleField source="role" />
      <StatusField source="status" />
      <LocaleDateField source="lastLoginAt" showTime emptyText={NONE} />
      <LocaleDateField source="createdAt" showTime />
    </Datagrid>
  </List>
);
