import { Box, Typography } from '@mui/material';
import { Datagrid, DateField, Pagination, ReferenceManyField, TextField, useTranslate } from 'react-admin';
import { ACTIVITY } from '../../data/dataProvider';
import { JsonField } from './userFields';
import { NONE } from './userValues';

const ACTIVITY_PER_PAGE = 10;

const NoActivity = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 2 }}>
      <Typography color="text.secondary">{translate('resources.activity.empty')}</Typography>
    </Box>
  );
};

/** The user's activity log (GET /api/admin/users/:id/activity), newest first, 10 per page. */
export const UserActivity = (_: { readonly label?: false }) => (
  <ReferenceManyField
    reference={ACTIVITY}
    target="userId"
    sort={{ field: 'timestamp', order: 'DESC' }}
    perPage={ACTIVITY_PER_PAGE}
    pagination={<Pagination rowsPerPageOptions={[ACTIVITY_PER_PAGE]} />}
  >
    <Datagrid bulkActionButtons={false} rowClick={false} empty={<NoActivity />} data-testid="user-activity">
      <DateField source="timestamp" showTime />
      <TextField source="event" sortable={false} />
      <TextField source="client" sortable={false} emptyText={NONE} />
      <TextField source="ip" sortable={false} emptyText={NONE} />
      <TextField source="actorId" sortable={false} emptyText={NONE} />
      <JsonField source="data" sortable={false} />
    </Datagrid>
  </ReferenceManyField>
);
