import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { noticeStore } from '../../session/notices';
import { AddressGate } from './AddressGate';
import { walletApi } from './wallet.api';

const ReceiveContent = () => {
  const { t } = useTranslation();
  const { data: info, error } = useLoad(() => walletApi.receive(), []);

  if (error) return <ErrorAlert error={error} testId="receive-error" />;
  if (!info) return <CircularProgress aria-label={t('common.loading')} />;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(info.address);
      noticeStore.push({ severity: 'success', key: 'wallet.receive.copied' });
    } catch {
      noticeStore.push({ severity: 'warning', key: 'wallet.receive.copyFailed' });
    }
  };
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Typography color="text.secondary">{t('wallet.receive.hint')}</Typography>
      {info.qr && <img src={info.qr} alt={t('wallet.receive.qrAlt')} width={220} height={220} data-testid="receive-qr" />}
      <Typography sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="receive-address">
        {info.address}
      </Typography>
      <Button variant="outlined" onClick={() => void copy()} data-testid="receive-copy">
        {t('wallet.receive.copy')}
      </Button>
    </Stack>
  );
};

export const ReceiveSection = () => {
  const { t } = useTranslation();
  return (
    <AddressGate>
      <Stack spacing={2}>
        <Typography variant="h5" component="h2">
          {t('wallet.nav.receive')}
        </Typography>
        <ReceiveContent />
      </Stack>
    </AddressGate>
  );
};
