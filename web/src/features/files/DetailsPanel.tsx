import CloseOutlined from '@mui/icons-material/CloseOutlined';
import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime, localeTag } from '../../components/i18nHelpers';
import { useEffect, useRef, useState } from 'react';
import { useLoad } from '../../components/useLoad';
import { useLockDialog } from '../file-lock/LockDialog';
import { filesApi, type Item, type ItemInfo } from './files.api';
import { formatBytes } from './format';

/** The File details fields (spec §3) the panel shows, in this order, when the server gives them. */
export const DETAIL_FIELDS = [
  'size',
  'created',
  'modified',
  'lastOpened',
  'owner',
  'location',
  'mime',
  'hash',
  'title',
  'keywords',
  'description',
  'author',
  'publisher',
  'website',
  'contactEmail',
  'isbn',
  'ttl',
] as const;

const DATE_FIELDS = new Set(['created', 'modified', 'lastOpened', 'ttl']);

const show = (field: string, value: unknown, language: string): string | null => {
  if (value === null || value === undefined || value === '') return null;
  if (field === 'size' && typeof value === 'number') return formatBytes(value, localeTag(language));
  if (DATE_FIELDS.has(field) && typeof value === 'string') return formatDateTime(value, language);
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const label = record.email ?? record.name ?? record.path;
    return typeof label === 'string' ? label : null;
  }
  return String(value);
};

export const DetailsPanel = ({ userId, item, onClose }: { userId: string; item: Item | null; onClose: () => void }) => {
  const { t, i18n } = useTranslation();
  const details = useLoad(item ? () => filesApi.info(userId, item.storageId, item.id).catch((): ItemInfo => ({})) : null, [userId, item], { reset: true });
  const info = details.data ?? null;
  const { loading } = details;
  const lockDialog = useLockDialog(userId);
  const locked = info?.twoFactorLock === true;
  // the details are read again after a lock change (the button goes while they load): focus comes back
  // to the button once they are there, so the keyboard stays in the panel (Escape closes it)
  const toggleRef = useRef<HTMLButtonElement>(null);
  const [refocus, setRefocus] = useState<'no' | 'waiting' | 'loading'>('no');
  useEffect(() => {
    if (refocus === 'waiting' && loading) setRefocus('loading');
    else if (refocus === 'loading' && !loading && info) {
      toggleRef.current?.focus();
      setRefocus('no');
    }
  }, [refocus, info, loading]);
  const changeLock = async () => {
    if (item && (await lockDialog.ask(locked ? 'unlock' : 'lock', item))) {
      details.reload();
      setRefocus('waiting');
    }
  };

  const merged: Record<string, unknown> = { size: item?.size, created: item?.createdAt, modified: item?.modifiedAt, mime: item?.mime, ...(info ?? {}) };
  if (merged.owner === userId) merged.owner = t('files.details.you');
  return (
    <Drawer anchor="right" open={item !== null} onClose={onClose} data-testid="details-panel">
      <Box sx={{ width: { xs: '100vw', sm: 360 }, p: 2 }} role="region" aria-label={t('files.details.title')}>
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            {t('files.details.title')}
          </Typography>
          <IconButton aria-label={t('common.close')} onClick={onClose}>
            <CloseOutlined />
          </IconButton>
        </Box>
        <Typography variant="subtitle1" sx={{ wordBreak: 'break-word' }} data-testid="details-name">
          {item?.name}
        </Typography>
        <Divider sx={{ my: 1 }} />
        {loading && <CircularProgress size={24} aria-label={t('common.loading')} />}
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 1 }}>
          {DETAIL_FIELDS.map((field) => {
            const value = show(field, merged[field], i18n.language);
            if (value === null) return null;
            return (
              <Box key={field} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {t(`files.details.fields.${field}`)}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-all' }} data-testid={`details-${field}`}>
                  {value}
                </Typography>
              </Box>
            );
          })}
          {info && (
            <>
              <Typography component="dt" variant="body2" color="text.secondary">
                {t('fileLock.details.lock')}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }} data-testid="details-twoFactorLock">
                {t(locked ? 'fileLock.details.on' : 'fileLock.details.off')}
              </Typography>
              <Typography component="dt" variant="body2" color="text.secondary">
                {t('fileLock.details.e2ee')}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }} data-testid="details-e2eeEnabled">
                {t(info.e2eeEnabled === true ? 'fileLock.details.yes' : 'fileLock.details.no')}
              </Typography>
            </>
          )}
        </Box>
        {info && item && (
          <Button
            sx={{ mt: 2 }}
            variant="outlined"
            startIcon={locked ? <LockOpenOutlined /> : <LockOutlined />}
            onClick={() => void changeLock()}
            ref={toggleRef}
            data-testid="details-lock-toggle"
          >
            {t(locked ? 'fileLock.details.unlockAction' : 'fileLock.details.lockAction')}
          </Button>
        )}
      </Box>
      {lockDialog.dialog}
    </Drawer>
  );
};
