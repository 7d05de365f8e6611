import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { CopyableLink } from '../../components/CopyableLink';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { ipfsApi } from './ipfs.api';

const COLORS = { queued: 'default', pinning: 'info', pinned: 'success', failed: 'error', unpinned: 'warning' } as const;

/** The IPFS pins of a paid fetch's files: status, CID and the public link through the preferred gateway. */
export const IpfsPinsSection = ({ userId, fetchId, names }: { userId: string; fetchId: string; names: Readonly<Record<string, string>> }) => {
  const { t } = useTranslation();
  const pins = useLoad(() => ipfsApi.pinsOfFetch(userId, fetchId), [userId, fetchId]);
  if (!pins.data?.length && !pins.error) return null;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="fetch-ipfs">
      <Typography variant="subtitle1">{t('ipfs.pins.title')}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('ipfs.pins.help')}
      </Typography>
      <ErrorAlert error={pins.error} testId="fetch-ipfs-error" />
      <Stack spacing={1.5}>
        {(pins.data ?? []).map((pin) => (
          <Stack key={pin.id} spacing={0.5} data-testid="fetch-ipfs-pin" data-status={pin.status}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
              <Chip size="small" color={COLORS[pin.status]} label={t(`ipfs.status.${pin.status}`)} />
              <Typography variant="body2" noWrap sx={{ minWidth: 0 }}>
                {names[pin.itemId] ?? pin.itemId}
              </Typography>
            </Stack>
            {pin.cid && (
              <Typography variant="caption" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="fetch-ipfs-cid">
                {pin.cid}
              </Typography>
            )}
            {pin.url && (
              <CopyableLink
                url={pin.url}
                testId="fetch-ipfs-link"
                fullWidth
                size="small"
                labels={{ link: t('ipfs.pins.link'), copy: t('ipfs.pins.copy'), copied: t('ipfs.pins.copied') }}
              />
            )}
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
};
