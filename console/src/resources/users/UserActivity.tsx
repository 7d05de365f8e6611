import { Box, Typography } from '@mui/material';
import { Datagrid, FunctionField, Pagination, ReferenceManyField, TextField, useRecordContext, useTranslate } from 'react-admin';
import { LocaleDateField, useDates } from '../../i18n/dates';
import { ACTIVITY } from '../../data/dataProvider';
import { describeActivity, describeActor, type ActivityEntry } from './activityWords';
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

/** The whole recorded event (credentials already redacted by the server), one click on its row away. */
const ActivityJson = () => {
  const entry = useRecordContext<ActivityEntry & { id: string }>();
  const translate = useTranslate();
  if (!entry) return null;
  return (
    <Box sx={{ px: 2, py: 1 }} data-testid="activity-json">
      <Typography variant="caption" color="text.secondary">
        {translate('resources.activity.json')}
      </Typography>
      <Box component="pre" sx={{ m: 0, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {JSON.stringify(entry, null, 2)}
      </Box>
    </Box>
  );
};

/** The user's activity log (GET /api/admin/users/:id/activity), newest first, in words; a row opens its JSON. */
export const UserActivity = (_: { readonly label?: false }) => {
  const user = useRecordContext();
  const translate = useTranslate();
  const dates = useDates();
  const userId = user ? String(user.id) : undefined;
  return (
    <ReferenceManyField
      reference={ACTIVITY}
      target="userId"
      sort={{ field: 'timestamp', order: 'DESC' }}
      perPage={ACTIVITY_PER_PAGE}
      pagination={<Pagination rowsPerPageOptions={[ACTIVITY_PER_PAGE]} />}
    >
      <Datagrid bulkActionButtons={false} rowClick="expand" expand={<ActivityJson />} empty={<NoActivity />} data-testid="user-activity">
        <LocaleDateField source="timestamp" showTime />
        <FunctionField
          source="event"
          sortable={false}
          render={(entry: ActivityEntry) => <span data-testid="activity-words">{describeActivity(entry, userId, translate, dates)}</span>}
        />
        <FunctionField source="actorId" sortable={false} render={(entry: ActivityEntry) => describeActor(entry, undefined, translate) ?? NONE} />
        <TextField source="ip" sortable={false} emptyText={NONE} />
        <TextField source="client" sortable={false} emptyText={NONE} />
      </Datagrid>
    </ReferenceManyField>
  );
};
