import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useBalance } from './balance.store';
import { walletApi } from './wallet.api';

/** The specification: without a wallet address the user creates one first. */
export const AddressGate = ({ children }: { children: ReactNode }) => {
  const { t } = useTranslation();
  const { summary, error, loading, refresh, afterAction } = useBalance();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<NormalisedError | null>(null);

  if (!summary) {
    if (error) {
      return (
        <Stack spacing={2}>
          <ErrorAlert error={error} testId="wallet-load-error" />
          <Button onClick={() => void refresh()} disabled={loading} sx={{ alignSelf: 'flex-start' }}>
            {t('wallet.retry')}
          </Button>
        </Stack>
      );
    }
    return <CircularProgress aria-label={t('common.loading')} />;
  }
  if (summary.addresses.length > 0) return <>{children}</>;

  const create = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await walletApi.createAddress();
      await refresh();
      afterAction();
    } catch (err) {
      setFailure(toApiError(err).toJSON());
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={2} data-testid="wallet-no-address">
      <Alert severity="info">{t('wallet.noAddress')}</Alert>
      <ErrorAlert error={failure} />
      <Button variant="contained" onClick={() => void create()} disabled={busy} sx={{ alignSelf: 'flex-start' }} data-testid="wallet-create-address">
        {busy ? <CircularProgress size={20} aria-label={t('common.loading')} /> : t('wallet.createAddress')}
      </Button>
    </Stack>
  );
};
