import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import RestoreOutlined from '@mui/icons-material/RestoreOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { localeTag } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { ConfirmDeleteDialog, useSkip2faDialog } from './dialogs';
import { FILES_PAGE_SIZE, filesApi, type TaskAction } from './files.api';
import { FileTable } from './FileTable';
import { formatBytes } from './format';
import { useStorages } from './FileBrowserPage';
import { runStorageTask } from './storage-task';

/** The trash at files/trash/:storageId? : restore, or delete for ever after typing "delete". */
export const TrashPage = () => {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const userId = user?.id;
  const { storageId } = useParams();
  const { storages, reload: reloadStorages } = useStorages(userId);
  const storage = storages?.find((s) => s.id === storageId) ?? storages?.find((s) => s.type === 'online') ?? storages?.[0];
  const [page, setPage] = useState(1);
  const [runError, setRunError] = useState<NormalisedError | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState<TaskAction | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [deleteError, setDeleteError] = useState<NormalisedError | null>(null);
  const skip2faDialog = useSkip2faDialog();
  const [restored, setRestored] = useState(0);

  const trash = useLoad(
    userId
      ? () => {
          // each reading of the trash starts with no error on screen, a failed restore's included
          setRunError(null);
          return filesApi.trash(userId, storageId ?? storage?.id, page);
        }
      : null,
    [userId, storageId, storage?.id, page],
  );
  const listing = trash.data ?? null;
  const error = trash.error ?? runError;

  if (!userId) return null;
  const items = listing?.data ?? [];
  const chosen = items.filter((i) => selected.has(i.id));

  // "Restored: N" tells of the last restore only: anything done after it clears it
  const select = (next: Set<string>) => {
    setRestored(0);
    setSelected(next);
  };

  const run = (action: 'restore' | 'delete') => {
    setRestored(0);
    setBusy(action);
    setRunError(null);
    setDeleteError(null);
    const count = chosen.length;
    runStorageTask({
      start: ({ skip2fa }) => filesApi.startTask(userId, { action, itemIds: chosen.map((i) => i.id), ...(skip2fa ? { skip2fa } : {}) }),
      poll: (task) => filesApi.taskState(userId, task),
      confirmSkip2fa: skip2faDialog.confirm,
    })
      .then(() => {
        if (action === 'restore') setRestored(count);
        setConfirmOpen(false);
        setSelected(new Set());
      })
      .catch((e: unknown) => (action === 'delete' ? setDeleteError : setRunError)(toApiError(e).toJSON()))
      .finally(() => {
        setBusy(null);
        trash.reload();
        reloadStorages();
      });
  };

  const pages = Math.max(1, Math.ceil((listing?.totalCount ?? 0) / FILES_PAGE_SIZE));
  return (
    <Container maxWidth="lg" sx={{ py: 3 }} data-testid="trash-page">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2, flexWrap: 'wrap' }}>
        <Button
          component={RouterLink}
          to={storage ? `/files/storage/${encodeURIComponent(storage.id)}` : '/files/storage'}
          startIcon={<ArrowBackOutlined />}
          data-testid="back-to-files"
        >
          {t('files.title')}
        </Button>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t('files.trash.title')}
        </Typography>
        {storage?.sizeTrashed !== undefined && (
          <Typography variant="body2" color="text.secondary">
            {t('files.trash.size', { size: formatBytes(storage.sizeTrashed, localeTag(i18n.language)) })}
          </Typography>
        )}
      </Box>
      {restored > 0 && (
        <Alert severity="success" onClose={() => setRestored(0)} sx={{ mb: 1 }} data-testid="restored">
          {t('files.trash.restored', { count: restored })}
        </Alert>
      )}
      {chosen.length > 0 && (
        <Paper variant="outlined" sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1, mb: 1 }} data-testid="trash-selection-bar">
          <Typography variant="body2" sx={{ flex: 1 }}>
            {t('files.selected', { count: chosen.length })}
          </Typography>
          <Button size="small" startIcon={<RestoreOutlined />} disabled={busy !== null} onClick={() => run('restore')} data-testid="action-restore">
            {t('files.trash.restore')}
          </Button>
          <Button
            size="small"
            color="error"
            startIcon={<DeleteForeverOutlined />}
            disabled={busy !== null}
            onClick={() => {
              setDeleteError(null);
              setConfirmOpen(true);
            }}
            data-testid="action-delete"
          >
            {t('files.trash.deleteForever')}
          </Button>
        </Paper>
      )}
      {busy && <LinearProgress aria-label={t('common.loading')} sx={{ mb: 1 }} />}
      <ErrorAlert error={error} testId="trash-error" />
      <Paper variant="outlined">
        {!listing && !error && <LinearProgress aria-label={t('common.loading')} />}
        {listing && items.length === 0 && (
          <Box sx={{ p: 6, textAlign: 'center', color: 'text.secondary' }} data-testid="trash-empty">
            <Typography>{t('files.trash.empty')}</Typography>
          </Box>
        )}
        {items.length > 0 && <FileTable items={items} selected={selected} onSelect={select} testId="trash-table" />}
      </Paper>
      {pages > 1 && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
          <Pagination
            count={pages}
            page={page}
            onChange={(_, p) => {
              setRestored(0);
              setPage(p);
            }}
          />
        </Box>
      )}
      <ConfirmDeleteDialog
        open={confirmOpen}
        count={chosen.length}
        busy={busy === 'delete'}
        error={deleteError}
        onConfirm={() => run('delete')}
        onClose={() => setConfirmOpen(false)}
      />
      {skip2faDialog.dialog}
    </Container>
  );
};
