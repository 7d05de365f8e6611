import PeopleIcon from '@mui/icons-material/People';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import { Button, Card, CardActions, CardContent, Grid, Skeleton, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Title, useBasename, useGetIdentity, useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';

/**
 * Only the total is wanted: one row per page keeps the call cheap; the total comes from
 * Content-Range. Counts are fetched afresh on every visit and shown only once they arrive, so the
 * dashboard never shows a count from before the last change.
 */
const useTotal = (resource: string) => {
  const { total, isFetching, error } = useGetList(resource, { pagination: { page: 1, perPage: 1 } }, { refetchOnMount: 'always' });
  return { total, isPending: isFetching, error };
};

const CountCard = ({ testId, icon, label, resource }: { testId: string; icon: ReactNode; label: string; resource: string }) => {
  const translate = useTranslate();
  const basename = useBasename();
  const { total, isPending, error } = useTotal(resource);
  return (
    <Card data-testid={testId}>
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          {icon}
          <div>
            <Typography color="text.secondary">{translate(label)}</Typography>
            {isPending ? (
              <Skeleton width={60} height={40} />
            ) : error ? (
              <Typography color="error">{translate('console.dashboard.loadFailed')}</Typography>
            ) : (
              <Typography variant="h4" component="p" data-testid={`${testId}-total`}>
                {total ?? 0}
              </Typography>
            )}
          </div>
        </Stack>
      </CardContent>
      <CardActions>
        <Button component={Link} to={`${basename}/${resource}`} size="small">
          {translate('console.dashboard.open')}
        </Button>
      </CardActions>
    </Card>
  );
};

export const Dashboard = () => {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  return (
    <Stack spacing={2} sx={{ mt: 2 }} data-testid="dashboard">
      <Title title="console.dashboard.title" />
      {identity ? (
        <Typography color="text.secondary">
          {translate('console.dashboard.welcome', {
            email: identity.fullName ?? '',
            role: translate(`resources.users.roles.${String(identity.role)}`, { _: String(identity.role) }),
          })}
        </Typography>
      ) : null}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <CountCard testId="dashboard-users" icon={<PeopleIcon color="primary" fontSize="large" />} label="console.dashboard.activeUsers" resource="users" />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <CountCard
            testId="dashboard-deleted-users"
            icon={<PersonOffIcon color="action" fontSize="large" />}
            label="console.dashboard.deletedUsers"
            resource="deleted-users"
          />
        </Grid>
      </Grid>
    </Stack>
  );
};
