import AddLinkOutlined from '@mui/icons-material/AddLinkOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime, localeTag } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { noticeStore } from '../../session/notices';
import { formatBytes } from '../files/format';
import { BindDialog } from './BindDialog';
import { ConfirmTypedDialog } from './ConfirmTypedDialog';
import { devicesApi, type Drive } from './devices.api';
import { notifyDrivesChanged } from './useDrives';

type Pending = { kind: 'unbind' | 'delete'; drive: Drive };

const DriveCard = ({ drive, onAct }: { drive: Drive; onAct: (pending: Pending) => void }) => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  const share = drive.sizeTotal > 0 ? Math.min(100, (drive.sizeUsed / drive.sizeTotal) * 100) : 0;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="drive-row" data-serial={drive.serial} data-status={drive.status}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, wordBreak: 'break-all', flex: 1, minWidth: 0 }}>
          {drive.serial}
        </Typography>
        <Chip
          size="small"
          color={drive.online ? 'success' : 'default'}
          label={drive.online ? t('devices.status.online') : t('devices.status.offline')}
          data-testid="drive-status"
        />
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
        {t('devices.fields.mac')}: {drive.mac}
      </Typography>
      {drive.boundAt && (
        <Typography variant="body2" color="text.secondary">
          {t('devices.boundAt', { date: formatDateTime(drive.boundAt, i18n.language) })}
        </Typography>
      )}
      <LinearProgress variant="determinate" value={share} sx={{ my: 1, height: 6, borderRadius: 3 }} aria-label={t('devices.size')} />
      <Typography variant="body2" color="text.secondary" data-testid="drive-size">
        {t('devices.usage', { used: formatBytes(drive.sizeUsed, tag), total: formatBytes(drive.sizeTotal, tag) })}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
        {drive.storageId && (
          <Button component={RouterLink} to={`/files/cloudlocker/${encodeURIComponent(drive.id)}`} variant="outlined" size="small" data-testid="drive-open">
            {t('devices.open')}
          </Button>
        )}
        <Button size="small" onClick={() => onAct({ kind: 'unbind', drive })} data-testid="drive-unbind">
          {t('devices.unbind.action')}
        </Button>
        <Button size="small" color="error" onClick={() => onAct({ kind: 'delete', drive })} data-testid="drive-delete">
          {t('devices.delete.action')}
        </Button>
      </Box>
    </Paper>
  );
};

/** Settings: the user's CloudLockers (GET /users/{id}/drives/), binding one, unbinding, removing. */
export const CloudLockersTab = ({ userId }: { userId: string }) => {
  const { t } = useTranslation();
  const listed = useLoad(() => devicesApi.drives(userId), [userId]);
  const [binding, setBinding] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<NormalisedError | null>(null);
  const { reload } = listed;

  const changed = useCallback(() => {
    reload();
    notifyDrivesChanged();
  }, [reload]);
  const onBound = useCallback(() => changed(), [changed]);

  const act = async (typed: string) => {
    if (!pending) return;
    setBusy(true);
    setActionError(null);
    try {
      if (pending.kind === 'unbind') await devicesApi.unbind(userId, pending.drive.id);
      else await devicesApi.remove(userId, pending.drive.id, typed);
      noticeStore.push({
        severity: 'success',
        key: pending.kind === 'unbind' ? 'devices.unbind.done' : 'devices.delete.done',
        values: { serial: pending.drive.serial },
      });
      setPending(null);
      changed();
    } catch (e) {
      setActionError(toApiError(e).toJSON());
    } finally {
      setBusy(false);
    }
  };

  const drives = listed.data ?? [];
  return (
    <Box component="section" aria-label={t('devices.title')} data-testid="settings-cloudlockers">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          {t('devices.title')}
        </Typography>
        <Button variant="contained" startIcon={<AddLinkOutlined />} onClick={() => setBinding(true)} data-testid="bind-open">
          {t('devices.bind.open')}
        </Button>
      </Box>
      {listed.loading && !listed.data && <LinearProgress aria-label={t('common.loading')} />}
      <ErrorAlert error={listed.error} testId="drives-error" />
      {listed.data && drives.length === 0 && <Alert severity="info">{t('devices.none')}</Alert>}
      <Stack spacing={2}>
        {drives.map((d) => (
          <DriveCard
            key={d.id}
            drive={d}
            onAct={(p) => {
              setActionError(null);
              setPending(p);
            }}
          />
        ))}
      </Stack>
      <BindDialog open={binding} userId={userId} onClose={() => setBinding(false)} onBound={onBound} />
      <ConfirmTypedDialog
        key={pending ? `${pending.kind}-${pending.drive.id}` : 'none'}
        open={pending !== null}
        title={pending?.kind === 'delete' ? t('devices.delete.title') : t('devices.unbind.title')}
        body={t(pending?.kind === 'delete' ? 'devices.delete.body' : 'devices.unbind.body', { serial: pending?.drive.serial ?? '' })}
        action={pending?.kind === 'delete' ? t('devices.delete.action') : t('devices.unbind.action')}
        busy={busy}
        error={actionError}
        onClose={() => setPending(null)}
        onConfirm={(typed) => void act(typed)}
      />
    </Box>
  );
};
