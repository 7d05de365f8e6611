import { Box, Link as MuiLink } from '@mui/material';
import { useMemo } from 'react';
import { useBasename, useRecordContext, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { ActivityList } from '../activity/ActivityPage';

/**
 * The user's activity: the Activity page's own list of their timeline (their streams and what
 * they did), so this tab and the timeline show the same events, words and total.
 */
export const UserActivity = (_: { readonly label?: false }) => {
  const user = useRecordContext();
  const translate = useTranslate();
  const basename = useBasename();
  const userId = user ? String(user.id) : undefined;
  const filters = useMemo(() => (userId ? { user: userId } : {}), [userId]);
  if (!userId) return null;
  return (
    <Box data-testid="user-activity">
      <MuiLink
        component={Link}
        to={`${basename}/activity?${new URLSearchParams({ user: userId })}`}
        data-testid="user-activity-timeline"
        sx={{ display: 'inline-block', mb: 1 }}
      >
        {translate('resources.activity.openTimeline')}
      </MuiLink>
      <ActivityList filters={filters} withStream={false} />
    </Box>
  );
};
