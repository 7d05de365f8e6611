import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { secureFetchApi } from '../secure-fetch/secure-fetch.api';
import { appsApi, CLIO_REGIONS, type ClioMatter, type ClioRegion } from './apps.api';

/**
 * /app/clio: Clio's page. `type=clio` opens the partner connect dialog, `code` the congratulations
 * dialog (spec §4). Connected, it lists the open matters and files a paid Secure Fetch certificate,
 * with its hashes, to the one chosen.
 */
export const ClioPage = () => {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { user } = useSession();
  const userId = user?.id ?? null;
  const apps = useLoad(userId ? () => appsApi.list(userId) : null, [userId]);
  const clio = apps.data?.find((a) => a.app === 'clio');
  const connected = clio?.connected ?? false;
  const [q, setQ] = useState('');
  const matters = useLoad(userId && connected ? () => appsApi.clioMatters(userId, q.trim()) : null, [userId, connected, q]);
  const certificates = useLoad(
    userId && connected
      ? async () =>
          (await secureFetchApi.list(userId, { page: 1, perPage: 50, sortBy: 'createdAt', sortOrder: 'DESC' })).data.filter((f) => f.certificated && f.paid)
      : null,
    [userId, connected],
  );
  const [region, setRegion] = useState<ClioRegion>('app');
  const [filing, setFiling] = useState<ClioMatter | null>(null);
  const [fetchId, setFetchId] = useState('');
  const [failure, setFailure] = useState<NormalisedError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const partnerDialog = params.get('type') === 'clio' && !connected;
  const congratulations = params.has('code');
  const closeDialogs = () => setParams({}, { replace: true });

  const connect = async () => {
    setBusy(true);
    setFailure(null);
    try {
      window.location.assign((await appsApi.clioAuthorize(userId!, region)).url);
    } catch (e) {
      setFailure(toApiError(e).toJSON());
      setBusy(false);
    }
  };
  const file = async () => {
    if (!filing || !fetchId) return;
    setBusy(true);
    setFailure(null);
    try {
      const filed = await appsApi.fileCertificate(userId!, filing.id, fetchId);
      setNotice(t('apps.clio.filed', { name: filed.name, matter: filing.displayNumber }));
      setFiling(null);
      setFetchId('');
    } catch (e) {
      setFailure(toApiError(e).toJSON());
    } finally {
      setBusy(false);
    }
  };

  const regionSelect = (
    <TextField select size="small" label={t('apps.region')} value={region} onChange={(e) => setRegion(e.target.value as ClioRegion)} sx={{ minWidth: 180 }}>
      {CLIO_REGIONS.map((r) => (
        <MenuItem key={r} value={r}>
          {t(`apps.regions.${r}`)}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Container maxWidth="md" sx={{ py: 3 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('apps.names.clio')}
      </Typography>
      {!userId && (
        <Alert
          severity="info"
          action={
            <Button component={RouterLink} to="/signin?redirect=%2Fapp%2Fclio">
              {t('apps.signIn')}
            </Button>
          }
        >
          {t('apps.signInFirst')}
        </Alert>
      )}
      {(apps.loading || matters.loading) && <LinearProgress />}
      <ErrorAlert error={apps.error ?? matters.error ?? failure} />
      {notice && (
        <Alert severity="success" data-testid="clio-notice" sx={{ mb: 2 }}>
          {notice}
        </Alert>
      )}
      {clio && !clio.configured && <Alert severity="info">{t('apps.notConfigured')}</Alert>}
      {clio?.configured && !connected && (
        <Paper sx={{ p: 3 }}>
          <Typography sx={{ mb: 2 }}>{t('apps.about.clio')}</Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {regionSelect}
            <Button variant="contained" disabled={busy} onClick={connect}>
              {t('apps.clio.connect')}
            </Button>
          </Stack>
        </Paper>
      )}
      {connected && (
        <Paper sx={{ p: 2 }}>
          <TextField fullWidth size="small" label={t('apps.clio.searchMatters')} value={q} onChange={(e) => setQ(e.target.value)} sx={{ mb: 1 }} />
          <List data-testid="clio-matters">
            {matters.data?.length === 0 && (
              <ListItem>
                <ListItemText primary={t('apps.clio.noMatters')} />
              </ListItem>
            )}
            {matters.data?.map((m) => (
              <ListItem key={m.id} data-testid="clio-matter" sx={{ flexWrap: 'wrap', gap: 1 }}>
                <ListItemText
                  primary={m.displayNumber}
                  secondary={m.description}
                  sx={{ minWidth: 180 }}
                  slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
                />
                <Button size="small" variant="outlined" onClick={() => setFiling(m)}>
                  {t('apps.clio.fileCertificate')}
                </Button>
              </ListItem>
            ))}
          </List>
        </Paper>
      )}

      <Dialog open={filing !== null} onClose={() => setFiling(null)} fullWidth maxWidth="sm">
        <DialogTitle>{t('apps.clio.fileTo', { matter: filing?.displayNumber ?? '' })}</DialogTitle>
        <DialogContent>
          {certificates.data?.length === 0 ? (
            <Alert severity="info">{t('apps.clio.noCertificates')}</Alert>
          ) : (
            <TextField select fullWidth margin="dense" label={t('apps.clio.certificate')} value={fetchId} onChange={(e) => setFetchId(e.target.value)}>
              {certificates.data?.map((f) => (
                <MenuItem key={f.id} value={f.id}>
                  {f.note}
                </MenuItem>
              ))}
            </TextField>
          )}
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('apps.clio.custody')}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setFiling(null)}>{t('apps.cancel')}</Button>
          <Button variant="contained" disabled={!fetchId || busy} onClick={file}>
            {t('apps.clio.file')}
          </Button>
        </DialogActions>
      </Dialog>

      <Dialog open={partnerDialog} onClose={closeDialogs} fullWidth maxWidth="xs" data-testid="clio-partner-dialog">
        <DialogTitle>{t('apps.clio.partnerTitle')}</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 2 }}>{t('apps.clio.partnerText')}</Typography>
          {userId && clio?.configured && regionSelect}
        </DialogContent>
        <DialogActions>
          <Button onClick={closeDialogs}>{t('apps.cancel')}</Button>
          {userId && clio?.configured && (
            <Button variant="contained" disabled={busy} onClick={connect}>
              {t('apps.clio.connect')}
            </Button>
          )}
        </DialogActions>
      </Dialog>

      <Dialog open={congratulations} onClose={closeDialogs} fullWidth maxWidth="xs" data-testid="clio-congratulations-dialog">
        <DialogTitle>{t('apps.clio.congratulationsTitle')}</DialogTitle>
        <DialogContent>
          <Typography>{t('apps.clio.congratulationsText')}</Typography>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={closeDialogs}>
            {t('apps.continue')}
          </Button>
        </DialogActions>
      </Dialog>
    </Container>
  );
};
