import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { noticeStore } from '../../session/notices';
import { BACKUPS_PAGE_SIZE, devicesApi, type BackupDevice } from './devices.api';
import { ResidencyDialog } from './ResidencyDialog';

const BackupCard = ({ device, busy, onToggle }: { device: BackupDevice; busy: boolean; onToggle: () => void }) => {
  const { t, i18n } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="backup-row" data-name={device.name} data-status={device.status}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, flex: 1, minWidth: 0, wordBreak: 'break-word' }}>
          {device.name}
        </Typography>
        <Chip size="small" label={t(`devices.backups.platforms.${device.platform}`)} />
        <Chip
          size="small"
          color={device.active ? 'success' : 'default'}
          label={device.active ? t('devices.backups.active') : t('devices.backups.stopped')}
          data-testid="backup-status"
        />
      </Box>
      <Typography variant="body2" color="text.secondary">
        {device.lastSeenAt ? t('devices.backups.lastSeen', { date: formatDateTime(device.lastSeenAt, i18n.language) }) : t('devices.backups.neverSeen')}
      </Typography>
      {device.paths.length > 0 && (
        <Box component="ul" sx={{ pl: 2, my: 1 }} aria-label={t('devices.backups.paths')}>
          {device.paths.map((p) => (
            <Typography key={p} component="li" variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
              {p}
            </Typography>
          ))}
        </Box>
      )}
      <Button size="small" variant={device.active ? 'outlined' : 'contained'} onClick={onToggle} disabled={busy} data-testid="backup-toggle">
        {device.active ? t('devices.backups.stop') : t('devices.backups.resume')}
      </Button>
    </Paper>
  );
};

/** Settings: backup devices, with stop and resume (spec §2; GET /users/{id}/backups/, 100 a page). */
const BackupDevices = ({ userId }: { userId: string }) => {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const listed = useLoad(() => devicesApi.backups(userId, page), [userId, page]);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [error, setError] = useState<NormalisedError | null>(null);

  const toggle = async (device: BackupDevice) => {
    setBusyId(device.id);
    setError(null);
    try {
      if (device.active) await devicesApi.stopBackup(userId, device.id);
      else await devicesApi.resumeBackup(userId, device.id);
      noticeStore.push({
        severity: 'success',
        key: device.active ? 'devices.backups.stoppedNotice' : 'devices.backups.resumedNotice',
        values: { name: device.name },
      });
      listed.reload();
    } catch (e) {
      setError(toApiError(e).toJSON());
    } finally {
      setBusyId(null);
    }
  };

  const devices = listed.data?.data ?? [];
  const pages = Math.max(1, Math.ceil((listed.data?.totalCount ?? 0) / BACKUPS_PAGE_SIZE));
  return (
    <Box component="section" aria-label={t('devices.backups.title')} data-testid="settings-backups" sx={{ pb: 3 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('devices.backups.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('devices.backups.intro')}
      </Typography>
      {listed.loading && !listed.data && <LinearProgress aria-label={t('common.loading')} />}
      <ErrorAlert error={listed.error ?? error} testId="backups-error" />
      {listed.data && devices.length === 0 && <Alert severity="info">{t('devices.backups.none')}</Alert>}
      <Stack spacing={2}>
        {devices.map((d) => (
          <BackupCard key={d.id} device={d} busy={busyId === d.id} onToggle={() => void toggle(d)} />
        ))}
      </Stack>
      {pages > 1 && <Pagination sx={{ mt: 2 }} count={pages} page={page} onChange={(_, p) => setPage(p)} />}
    </Box>
  );
};

/** Settings: the region of new uploads (spec §9 regions, as the server lists them); files already stored keep theirs. */
const RegionChoice = ({ userId }: { userId: string }) => {
  const { t } = useTranslation();
  const loaded = useLoad(() => devicesApi.region(userId), [userId]);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<NormalisedError | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [showResidency, setShowResidency] = useState(false);
  const region = chosen ?? loaded.data?.region ?? null;

  const change = async (value: string) => {
    setSaving(true);
    setError(null);
    try {
      const answer = await devicesApi.chooseRegion(userId, value);
      setChosen(answer.region);
      noticeStore.push({ severity: 'success', key: 'devices.region.saved', values: { region: t(`devices.region.options.${answer.region}`) } });
    } catch (e) {
      setError(toApiError(e).toJSON());
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box component="section" aria-label={t('devices.region.title')} data-testid="settings-region" sx={{ pt: 3 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('devices.region.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('devices.region.intro')}
      </Typography>
      {region === null ? (
        loaded.loading && <LinearProgress aria-label={t('common.loading')} />
      ) : (
        <TextField
          select
          id="region-select"
          label={t('devices.region.label')}
          value={region}
          onChange={(e) => void change(e.target.value)}
          disabled={saving}
          sx={{ maxWidth: 360, width: '100%' }}
          slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'region-select' } }}
        >
          {(loaded.data?.regions ?? [region]).map((r) => (
            <option key={r} value={r}>
              {t(`devices.region.options.${r}`)}
            </option>
          ))}
        </TextField>
      )}
      <ErrorAlert error={loaded.error ?? error} testId="region-error" />
      <Box sx={{ mt: 1 }}>
        <Button variant="text" onClick={() => setShowResidency(true)} data-testid="residency-open" sx={{ px: 0 }}>
          {t('devices.region.report.open')}
        </Button>
      </Box>
      {showResidency && <ResidencyDialog userId={userId} open onClose={() => setShowResidency(false)} />}
    </Box>
  );
};

export const BackupTab = ({ userId }: { userId: string }) => (
  <Stack divider={<Divider flexItem />} data-testid="settings-backup">
    <BackupDevices userId={userId} />
    <RegionChoice userId={userId} />
  </Stack>
);
