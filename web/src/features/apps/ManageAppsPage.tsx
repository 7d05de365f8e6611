import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { appsApi, CLIO_REGIONS, type AppName, type ClioRegion, type ConnectedApp } from './apps.api';

/** manage-apps: the apps the user may connect, which are connected, and disconnecting them. */
export const ManageAppsPage = () => {
  const { t } = useTranslation();
  const { user } = useSession();
  const userId = user?.id ?? null;
  const { data, error, loading, reload } = useLoad(userId ? () => appsApi.list(userId) : null, [userId]);
  const [failure, setFailure] = useState<NormalisedError | null>(null);
  const [busy, setBusy] = useState<AppName | null>(null);
  const [region, setRegion] = useState<ClioRegion>('app');

  const act = async (app: AppName, action: () => Promise<unknown>) => {
    setBusy(app);
    setFailure(null);
    try {
      await action();
      reload();
    } catch (e) {
      setFailure(toApiError(e).toJSON());
    } finally {
      setBusy(null);
    }
  };
  const connect = (app: AppName) =>
    act(app, async () => {
      const { url } = app === 'dropbox' ? await appsApi.dropboxAuthorize(userId!) : await appsApi.clioAuthorize(userId!, region);
      window.location.assign(url);
    });

  const card = (a: ConnectedApp) => (
    <Card key={a.app} variant="outlined" data-testid={`app-${a.app}`} data-connected={String(a.connected)}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h2">
            {t(`apps.names.${a.app}`)}
          </Typography>
          <Chip size="small" color={a.connected ? 'success' : 'default'} label={a.connected ? t('apps.state.connected') : t('apps.state.notConnected')} />
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t(`apps.about.${a.app}`)}
        </Typography>
        {!a.configured && (
          <Alert severity="info" sx={{ mt: 1 }}>
            {t('apps.notConfigured')}
          </Alert>
        )}
        {a.configured && !a.allowed && (
          <Alert severity="info" sx={{ mt: 1 }}>
            {t('apps.notAllowed')}
          </Alert>
        )}
        {a.app === 'clio' && a.connected && a.region && (
          <Typography variant="body2" sx={{ mt: 1 }}>
            {t('apps.region')}: {t(`apps.regions.${a.region}`)}
          </Typography>
        )}
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {a.connected ? (
          <Button color="error" disabled={busy !== null} onClick={() => act(a.app, () => appsApi.disconnect(userId!, a.app))}>
            {t('apps.disconnect')}
          </Button>
        ) : (
          a.configured &&
          a.allowed && (
            <>
              {a.app === 'clio' && (
                <TextField
                  select
                  size="small"
                  label={t('apps.region')}
                  value={region}
                  onChange={(e) => setRegion(e.target.value as ClioRegion)}
                  sx={{ minWidth: 160 }}
                >
                  {CLIO_REGIONS.map((r) => (
                    <MenuItem key={r} value={r}>
                      {t(`apps.regions.${r}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
              <Button variant="contained" disabled={busy !== null} onClick={() => connect(a.app)}>
                {t('apps.connect')}
              </Button>
            </>
          )
        )}
      </CardActions>
    </Card>
  );

  return (
    <Container maxWidth="md" sx={{ py: 3 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('apps.title')}
      </Typography>
      {loading && <LinearProgress />}
      <ErrorAlert error={error ?? failure} />
      <Stack spacing={2}>{data?.map(card)}</Stack>
    </Container>
  );
};
