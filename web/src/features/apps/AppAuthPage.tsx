import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { fromPromise } from 'xstate';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSession } from '../../session/store';
import { appAuthMachine } from './app-auth.machine';
import { appsApi, type AppName } from './apps.api';

/** `/app/dropbox/auth` and `/app/clio/auth`: where the provider sends the browser back with its code. */
export const AppAuthPage = ({ app }: { app: AppName }) => {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { user, status } = useSession();
  if (status === 'loading') return <CircularProgress sx={{ m: 4 }} />;
  return <AppAuth key={user?.id ?? 'none'} app={app} userId={user?.id ?? null} params={params} t={t} />;
};

const AppAuth = ({ app, userId, params, t }: { app: AppName; userId: string | null; params: URLSearchParams; t: (key: string) => string }) => {
  const machine = useMemo(
    () =>
      appAuthMachine.provide({
        actors: {
          connect: fromPromise<void, { code: string }>(async ({ input }) => {
            const state = params.get('state');
            if (app === 'dropbox') await appsApi.dropboxAuth(userId!, input.code, state ?? '');
            else await appsApi.clioAuth(userId!, input.code, state);
          }),
        },
      }),
    [app, userId, params],
  );
  const [snapshot] = useMachine(machine, { input: { code: params.get('code'), providerError: params.get('error'), signedIn: userId !== null } });
  const name = t(`apps.names.${app}`);
  // Clio's page greets a new connection with its congratulations dialog (spec §4: query `code`)
  const next = app === 'dropbox' ? '/files/dropbox' : '/app/clio?code=connected';
  return (
    <Container maxWidth="sm" sx={{ py: 4 }}>
      <Paper sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack spacing={2} data-testid="app-auth" data-state={String(snapshot.value)}>
          <Typography variant="h5" component="h1">
            {name}
          </Typography>
          {snapshot.matches('connecting') && <CircularProgress aria-label={t('apps.connecting')} />}
          {snapshot.matches('connected') && <Alert severity="success">{t(`apps.connected.${app}`)}</Alert>}
          {snapshot.matches('refused') && <Alert severity="warning">{t('apps.refusedAtProvider')}</Alert>}
          {snapshot.matches('signedOut') && <Alert severity="info">{t('apps.signInFirst')}</Alert>}
          <ErrorAlert error={snapshot.context.error} />
          {snapshot.status === 'done' && (
            <Button component={RouterLink} to={snapshot.matches('signedOut') ? '/signin' : next} variant="contained">
              {snapshot.matches('signedOut') ? t('apps.signIn') : t('apps.continue')}
            </Button>
          )}
        </Stack>
      </Paper>
    </Container>
  );
};
