import CancelOutlined from '@mui/icons-material/CancelOutlined';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import ExpandLessOutlined from '@mui/icons-material/ExpandLessOutlined';
import ExpandMoreOutlined from '@mui/icons-material/ExpandMoreOutlined';
import FileOpenOutlined from '@mui/icons-material/FileOpenOutlined';
import PauseOutlined from '@mui/icons-material/PauseOutlined';
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import ReplayOutlined from '@mui/icons-material/ReplayOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { localeTag, translateError } from '../../components/i18nHelpers';
import { fromFileList, toNewUploads } from './drop';
import { formatBytes } from './format';
import { formatDuration, formatRate } from './upload-format';
import { CANCELLABLE, secondsLeft, summarize, type UploadItem, type UploadStatus } from './upload-queue.machine';
import { addUploads, restoreUploads, resumeFromHandle, uploadQueue } from './uploader';

const STATUS_COLOR: Record<UploadStatus, 'default' | 'primary' | 'success' | 'error' | 'warning'> = {
  pending: 'default',
  progress: 'primary',
  paused: 'warning',
  saving: 'primary',
  done: 'success',
  failed: 'error',
  cancelled: 'default',
  interrupted: 'warning',
};

/** Bytes sent of the whole, and while bytes move the speed and the time left. */
const Transfer = ({ item }: { item: UploadItem }) => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  const left = secondsLeft(item);
  const bytes = t('files.upload.bytes', { sent: formatBytes(item.bytesSent, tag), total: formatBytes(item.size, tag) });
  return (
    <Typography variant="caption" color="text.secondary" component="div" data-testid="upload-transfer" sx={{ overflowWrap: 'anywhere' }}>
      {item.status === 'progress' && item.rate !== null && left !== null
        ? t('files.upload.transfer', { bytes, speed: formatRate(item.rate, tag), left: formatDuration(left, tag) })
        : bytes}
    </Typography>
  );
};

/** An upload the page was left during: its file is picked again (or given back by its handle) and it continues. */
const Interrupted = ({ item }: { item: UploadItem }) => {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [mismatch, setMismatch] = useState(false);
  return (
    <Box sx={{ mt: 0.5 }}>
      <Typography variant="caption" color="warning.main" component="div" data-testid="upload-interrupted-hint">
        {mismatch ? t('files.upload.notTheSameFile') : item.handle ? t('files.upload.interruptedHandle') : t('files.upload.interrupted')}
      </Typography>
      <Button
        size="small"
        startIcon={<FileOpenOutlined fontSize="small" />}
        data-testid="upload-reattach"
        onClick={() => {
          setMismatch(false);
          void resumeFromHandle(item, true).then((done) => {
            if (!done) input.current?.click();
          });
        }}
      >
        {item.handle ? t('files.upload.resume') : t('files.upload.chooseSameFile')}
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        aria-label={t('files.upload.chooseSameFile')}
        data-testid="upload-reattach-input"
        onChange={(e) => {
          const files = fromFileList(e.target.files ?? []);
          e.target.value = '';
          void addUploads(item.target, toNewUploads(files), item.id).then(() => {
            setMismatch(uploadQueue.getSnapshot().context.items.find((i) => i.id === item.id)?.status === 'interrupted');
          });
        }}
      />
    </Box>
  );
};

const Row = ({ item }: { item: UploadItem }) => {
  const { t, i18n } = useTranslation();
  const percent = item.size > 0 ? Math.floor((item.bytesSent / item.size) * 100) : item.status === 'done' ? 100 : 0;
  const path = item.relativeDir ? `${item.relativeDir}/${item.name}` : item.name;
  // Once saved, the row names the file as the storage does (a taken name gets the next free one).
  const shown = item.savedName ? (item.relativeDir ? `${item.relativeDir}/${item.savedName}` : item.savedName) : path;
  return (
    <ListItem
      dense
      data-testid="upload-item"
      data-status={item.status}
      data-name={path}
      data-saved-name={item.savedName ?? undefined}
      secondaryAction={
        <Box sx={{ display: 'flex' }}>
          {item.status === 'progress' && (
            <Tooltip title={t('files.upload.pause')}>
              <IconButton size="small" aria-label={t('files.upload.pause')} onClick={() => uploadQueue.send({ type: 'PAUSE', id: item.id })}>
                <PauseOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          {item.status === 'paused' && (
            <Tooltip title={t('files.upload.resume')}>
              <IconButton size="small" aria-label={t('files.upload.resume')} onClick={() => uploadQueue.send({ type: 'RESUME', id: item.id })}>
                <PlayArrowOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          {item.status === 'failed' && item.retryable && (
            <Tooltip title={t('files.upload.retry')}>
              <IconButton
                size="small"
                aria-label={t('files.upload.retry')}
                data-testid="upload-retry"
                onClick={() => uploadQueue.send({ type: 'RETRY', id: item.id })}
              >
                <ReplayOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          {(CANCELLABLE.includes(item.status) || item.status === 'saving') && (
            <Tooltip title={item.status === 'saving' ? t('files.upload.cannotCancelSaving') : t('files.upload.cancel')}>
              {/* A disabled button gets no hover events: the span lets the tooltip explain why. */}
              <span>
                <IconButton
                  size="small"
                  aria-label={t('files.upload.cancel')}
                  disabled={item.status === 'saving'}
                  onClick={() => uploadQueue.send({ type: 'CANCEL', id: item.id })}
                >
                  <CancelOutlined fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
          )}
        </Box>
      }
    >
      <ListItemText
        primary={
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, pr: 10 }}>
            <Typography variant="body2" noWrap sx={{ flex: 1, minWidth: 0 }} title={shown} data-testid="upload-item-name">
              {shown}
            </Typography>
            <Chip
              size="small"
              label={item.status === 'done' ? t('files.upload.saved') : t(`files.upload.status.${item.status}`)}
              color={STATUS_COLOR[item.status]}
              variant="outlined"
            />
          </Box>
        }
        secondary={
          item.status === 'failed' && item.error ? (
            <Typography variant="caption" color="error" component="span">
              {item.error.code === 'INVALID_NAME' && typeof item.error.data?.problem === 'string'
                ? t(`files.nameProblems.${item.error.data.problem}`)
                : translateError(t, i18n.language, item.error)}
            </Typography>
          ) : item.status === 'done' ? (
            item.savedName && item.savedName !== item.name ? (
              <Typography variant="caption" color="text.secondary" component="span" data-testid="upload-saved-as">
                {t('files.upload.savedAs', { name: item.savedName, asked: item.name })}
              </Typography>
            ) : null
          ) : (
            <Box sx={{ mt: 0.5, mr: 10 }}>
              <LinearProgress variant={item.status === 'saving' ? 'indeterminate' : 'determinate'} value={percent} aria-label={path} />
              {item.status !== 'saving' && item.status !== 'cancelled' && <Transfer item={item} />}
              {item.status === 'interrupted' && <Interrupted item={item} />}
            </Box>
          )
        }
        slotProps={{ secondary: { component: 'div' } }}
      />
    </ListItem>
  );
};

/**
 * The folder upload progress panel (spec §2), rendering the upload queue; on opening it lists the
 * uploads of this user that a reload or a closed tab interrupted.
 */
export const UploadPanel = ({ userId }: { userId: string }) => {
  const { t } = useTranslation();
  const items = useSelector(uploadQueue, (s) => s.context.items);
  const paused = useSelector(uploadQueue, (s) => s.context.paused);
  const [collapsed, setCollapsed] = useState(false);
  useEffect(() => {
    void restoreUploads(userId);
  }, [userId]);
  if (items.length === 0) return null;
  const sum = summarize(items);
  const finished = sum.unfinished === 0;
  return (
    <Paper
      elevation={8}
      data-testid="upload-panel"
      role="region"
      aria-label={t('files.upload.title')}
      sx={{
        position: 'fixed',
        right: 16,
        bottom: 16,
        width: { xs: 'calc(100% - 32px)', sm: 420 },
        zIndex: (theme) => theme.zIndex.speedDial,
        overflow: 'hidden',
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1, gap: 1, bgcolor: 'primary.main', color: 'primary.contrastText' }}>
        <Typography variant="subtitle2" sx={{ flex: 1 }} data-testid="upload-summary">
          {finished
            ? t('files.upload.finished', { done: sum.done, total: sum.total })
            : sum.active === 0 && sum.interrupted > 0
              ? t('files.upload.interruptedSummary', { count: sum.interrupted })
              : t('files.upload.progress', { done: sum.done, total: sum.total, percent: sum.percent })}
        </Typography>
        {sum.underWay > 0 &&
          (paused ? (
            <Tooltip title={t('files.upload.resumeAll')}>
              <IconButton
                size="small"
                color="inherit"
                aria-label={t('files.upload.resumeAll')}
                data-testid="upload-resume-all"
                onClick={() => uploadQueue.send({ type: 'RESUME' })}
              >
                <PlayArrowOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          ) : (
            <Tooltip title={t('files.upload.pauseAll')}>
              <IconButton
                size="small"
                color="inherit"
                aria-label={t('files.upload.pauseAll')}
                data-testid="upload-pause-all"
                onClick={() => uploadQueue.send({ type: 'PAUSE' })}
              >
                <PauseOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          ))}
        {items.some((i) => i.status === 'failed' && i.retryable) && (
          <Tooltip title={t('files.upload.retryAll')}>
            <IconButton size="small" color="inherit" aria-label={t('files.upload.retryAll')} onClick={() => uploadQueue.send({ type: 'RETRY' })}>
              <ReplayOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        <Tooltip title={collapsed ? t('files.upload.expand') : t('files.upload.collapse')}>
          <IconButton
            size="small"
            color="inherit"
            aria-label={collapsed ? t('files.upload.expand') : t('files.upload.collapse')}
            onClick={() => setCollapsed(!collapsed)}
          >
            {collapsed ? <ExpandLessOutlined fontSize="small" /> : <ExpandMoreOutlined fontSize="small" />}
          </IconButton>
        </Tooltip>
        <Tooltip title={finished ? t('common.close') : t('files.upload.cancelAll')}>
          <IconButton
            size="small"
            color="inherit"
            aria-label={finished ? t('common.close') : t('files.upload.cancelAll')}
            data-testid="upload-close"
            onClick={() => {
              if (!finished) uploadQueue.send({ type: 'CANCEL' });
              uploadQueue.send({ type: 'CLEAR' });
            }}
          >
            <CloseOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
      {!finished && <LinearProgress variant="determinate" value={sum.percent} aria-label={t('files.upload.title')} />}
      {!collapsed && (
        <List dense sx={{ maxHeight: 320, overflow: 'auto' }}>
          {items.map((item) => (
            <Row key={item.id} item={item} />
          ))}
        </List>
      )}
    </Paper>
  );
};
