import { Box, Typography } from '@mui/material';
import { Datagrid, List, Pagination, TextField, useTranslate } from 'react-admin';
import { LocaleDateField } from '../../i18n/dates';
import { USERS_PER_PAGE } from '../users/userSearch';
import { NONE } from '../users/userValues';

const NoDatabases = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 2 }} data-testid="databases-empty">
      <Typography color="text.secondary">{translate('operations.databases.empty')}</Typography>
    </Box>
  );
};

/**
 * Databases: the accounts with database access (`ddbaas`), newest first. A row opens the user's
 * page, where staff with the feature activate or cancel it.
 */
export const DatabaseList = () => (
  <List
    title="operations.databases.title"
    sort={{ field: 'activatedAt', order: 'DESC' }}
    perPage={USERS_PER_PAGE}
    pagination={<Pagination rowsPerPageOptions={[USERS_PER_PAGE]} />}
    empty={false}
    exporter={false}
    actions={false}
  >
    <Datagrid
      rowClick={(id) => `/users/${encodeURIComponent(String(id))}/show`}
      bulkActionButtons={false}
      empty={<NoDatabases />}
      data-testid="databases-table"
    >
      <TextField source="email" label="operations.databases.fields.email" emptyText={NONE} />
      <TextField source="status" label="operations.databases.fields.status" />
      <LocaleDateField source="activatedAt" label="operations.databases.fields.activatedAt" showTime />
      <TextField source="activatedByEmail" label="operations.databases.fields.activatedBy" sortable={false} emptyText={NONE} />
    </Datagrid>
  </List>
);
