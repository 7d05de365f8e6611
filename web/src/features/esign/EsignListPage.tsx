import AddOutlined from '@mui/icons-material/AddOutlined';
import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import UnarchiveOutlined from '@mui/icons-material/UnarchiveOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { esignApi, sealedDocumentUrl, type EsignPackage, type PackageStatus } from './esign.api';

export type ListView = 'list' | 'drafts' | 'archive';

/** Which statuses each tab shows: sent packages (awaiting signatures, then completed), drafts, archived ones. */
export const VIEW_STATUSES: Record<ListView, readonly PackageStatus[]> = {
  list: ['awaiting_signatures', 'completed'],
  drafts: ['draft'],
  archive: ['archived'],
};

const STATUS_COLOR = { draft: 'default', awaiting_signatures: 'warning', completed: 'success', archived: 'default' } as const;

const newestFirst = (a: EsignPackage, b: EsignPackage) => (b.modifiedAt ?? '').localeCompare(a.modifiedAt ?? '');

const loadView = async (userId: string, view: ListView) => {
  const pages = await Promise.all(VIEW_STATUSES[view].map((s) => esignApi.list(userId, s)));
  return pages.flatMap((p) => p.data).sort(newestFirst);
};

export const StatusChip = ({ status }: { status: PackageStatus }) => {
  const { t } = useTranslation();
  return <Chip size="small" label={t(`esign.status.${status}`)} color={STATUS_COLOR[status]} data-testid="esign-status" data-status={status} />;
};

const SignersProgress = ({ pkg }: { pkg: EsignPackage }) => {
  const { t } = useTranslation();
  if (pkg.status === 'draft')
    return (
      <Typography variant="body2" color="text.secondary">
        {t('esign.list.signers', { count: pkg.signersCount })}
      </Typography>
    );
  const share = pkg.signersCount ? (pkg.finishedCount / pkg.signersCount) * 100 : 0;
  return (
    <Box sx={{ minWidth: 140, flex: '1 1 140px', maxWidth: 260 }} data-testid="esign-progress">
      <Typography variant="body2" color="text.secondary">
        {t('esign.list.progress', { done: pkg.finishedCount, total: pkg.signersCount })}
      </Typography>
      <LinearProgress variant="determinate" value={share} sx={{ height: 6, borderRadius: 3, mt: 0.5 }} aria-label={t('esign.list.progressLabel')} />
    </Box>
  );
};

const PackageRow = ({
  pkg,
  userId,
  onChanged,
  onError,
}: {
  pkg: EsignPackage;
  userId: string;
  onChanged: () => void;
  onError: (e: NormalisedError) => void;
}) => {
  const { t, i18n } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const act = async (call: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await call();
      onChanged();
    } catch (e) {
      onError(toApiError(e).toJSON());
    } finally {
      setBusy(false);
    }
  };
  const when = pkg.completedAt ?? pkg.sentAt ?? pkg.modifiedAt;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="esign-row" data-name={pkg.name} data-status={pkg.status}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}>
        <Box sx={{ flex: '1 1 200px', minWidth: 0 }}>
          <Typography sx={{ overflowWrap: 'anywhere', fontWeight: 600 }} data-testid="esign-row-name">
            {pkg.name}
          </Typography>
          {when && (
            <Typography variant="caption" color="text.secondary">
              {formatDateTime(when, i18n.language)}
            </Typography>
          )}
        </Box>
        <StatusChip status={pkg.status} />
        <SignersProgress pkg={pkg} />
      </Box>
      <Stack direction="row" sx={{ mt: 1, flexWrap: 'wrap', gap: 1 }}>
        {pkg.status === 'draft' ? (
          <Button size="small" startIcon={<EditOutlined />} component={RouterLink} to={`/esigns/edit/1/${pkg.id}`} data-testid="esign-edit">
            {t('esign.list.edit')}
          </Button>
        ) : (
          <Button size="small" startIcon={<VisibilityOutlined />} component={RouterLink} to={`/esigns/view/1/${pkg.id}`} data-testid="esign-view">
            {t('esign.list.view')}
          </Button>
        )}
        {pkg.status === 'completed' && (
          <Button size="small" startIcon={<DownloadOutlined />} href={sealedDocumentUrl(userId, pkg.id)} download data-testid="esign-download">
            {t('esign.list.download')}
          </Button>
        )}
        {pkg.status !== 'draft' && pkg.status !== 'archived' && (
          <Button
            size="small"
            startIcon={<ArchiveOutlined />}
            disabled={busy}
            onClick={() => act(() => esignApi.archive(userId, pkg.id))}
            data-testid="esign-archive"
          >
            {t('esign.list.archive')}
          </Button>
        )}
        {pkg.status === 'archived' && (
          <Button
            size="small"
            startIcon={<UnarchiveOutlined />}
            disabled={busy}
            onClick={() => act(() => esignApi.unarchive(userId, pkg.id))}
            data-testid="esign-unarchive"
          >
            {t('esign.list.unarchive')}
          </Button>
        )}
        {pkg.status === 'draft' && (
          <Button size="small" color="error" startIcon={<DeleteOutlined />} disabled={busy} onClick={() => setConfirming(true)} data-testid="esign-delete">
            {t('esign.list.delete')}
          </Button>
        )}
      </Stack>
      <Dialog open={confirming} onClose={() => setConfirming(false)} data-testid="esign-delete-dialog">
        <DialogTitle>{t('esign.list.deleteTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('esign.list.deleteText', { name: pkg.name })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>{t('common.cancel')}</Button>
          <Button
            color="error"
            variant="contained"
            disabled={busy}
            data-testid="esign-delete-confirm"
            onClick={() => {
              setConfirming(false);
              void act(() => esignApi.remove(userId, pkg.id));
            }}
          >
            {t('esign.list.delete')}
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
};

/** `/esigns/list`, `/esigns/drafts`, `/esigns/archive`: the owner's packages by status. */
export const EsignListPage = ({ view }: { view: ListView }) => {
  const { t } = useTranslation();
  const { user } = useSession();
  const userId = user?.id ?? '';
  const [actionError, setActionError] = useState<NormalisedError | null>(null);
  const { data, error, loading, reload } = useLoad(userId ? () => loadView(userId, view) : null, [userId, view], { reset: true });
  return (
    <Container maxWidth="md" sx={{ py: 3 }} data-testid="esign-list" data-view={view}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 2 }}>
        <Typography variant="h5" component="h1">
          {t('esign.title')}
        </Typography>
        <Button variant="contained" startIcon={<AddOutlined />} component={RouterLink} to="/esigns/package/upload" data-testid="esign-new">
          {t('esign.list.new')}
        </Button>
      </Box>
      <Tabs value={view} variant="scrollable" allowScrollButtonsMobile sx={{ mb: 2 }} aria-label={t('esign.title')}>
        <Tab value="list" label={t('esign.tabs.list')} component={RouterLink} to="/esigns/list" data-testid="esign-tab-list" />
        <Tab value="drafts" label={t('esign.tabs.drafts')} component={RouterLink} to="/esigns/drafts" data-testid="esign-tab-drafts" />
        <Tab value="archive" label={t('esign.tabs.archive')} component={RouterLink} to="/esigns/archive" data-testid="esign-tab-archive" />
      </Tabs>
      <ErrorAlert error={error ?? actionError} testId="esign-error" />
      {loading && !data && <CircularProgress aria-label={t('common.loading')} />}
      {data && data.length === 0 && (
        <Alert severity="info" data-testid="esign-empty">
          {t(`esign.list.empty.${view}`)}
        </Alert>
      )}
      <Stack spacing={1.5}>
        {data?.map((pkg) => (
          <PackageRow
            key={pkg.id}
            pkg={pkg}
            userId={userId}
            onError={setActionError}
            onChanged={() => {
              setActionError(null);
              reload();
            }}
          />
        ))}
      </Stack>
    </Container>
  );
};
