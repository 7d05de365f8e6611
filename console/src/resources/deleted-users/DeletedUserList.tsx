import { Box, Typography } from '@mui/material';
import { Datagrid, List, Pagination, TextField, useTranslate } from 'react-admin';
import { LocaleDateField } from '../../i18n/dates';
import { UserAccountDetails, UserPlanDetails, UserProfileDetails } from '../users/UserDetails';
import { DeletedByField, RoleField } from '../users/userFields';
import { USERS_PER_PAGE } from '../users/userSearch';
import { NONE } from '../users/userValues';

const NoDeletedUsers = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 2 }} data-testid="deleted-users-empty">
      <Typography color="text.secondary">{translate('resources.deleted-users.empty')}</Typography>
    </Box>
  );
};

/** The list rows already carry every admin-view field: expanding a row shows them without another call. */
const DeletedUserDetails = () => (
  <Box sx={{ px: 2 }}>
    <UserAccountDetails />
    <UserProfileDetails />
    <UserPlanDetails />
  </Box>
);

export const DeletedUserList = () => (
  <List
    sort={{ field: 'deletedAt', order: 'DESC' }}
    perPage={USERS_PER_PAGE}
    pagination={<Pagination rowsPerPageOptions={[USERS_PER_PAGE]} />}
    empty={false}
    exporter={false}
    actions={false}
  >
    <Datagrid rowClick="expand" expand={<DeletedUserDetails />} bulkActionButtons={false} empty={<NoDeletedUsers />} data-testid="deleted-users-table">
      <TextField source="email" emptyText={NONE} />
      <TextField source="username" emptyText={NONE} />
      <TextField source="name" sortable={false} emptyText={NONE} />
      <RoleField source="role" />
      <LocaleDateField source="deletedAt" showTime emptyText={NONE} />
      <DeletedByField source="deletedBy" sortable={false} />
      <LocaleDateField source="createdAt" showTime />
    </Datagrid>
  </List>
);
