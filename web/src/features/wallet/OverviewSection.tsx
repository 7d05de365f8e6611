import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { localeTag } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { noticeStore } from '../../session/notices';
import { AddressGate } from './AddressGate';
import { displayAxel } from './amounts';
import { useBalance } from './balance.store';
import { useChainInfo } from './useChainInfo';
import { walletApi } from './wallet.api';

/** How much the development chain's faucet hands out per press. */
export const FAUCET_AMOUNT = '10';

const Figure = ({ label, value, testId }: { label: string; value: string; testId: string }) => (
  <Paper variant="outlined" sx={{ p: 2 }}>
    <Typography variant="body2" color="text.secondary">
      {label}
    </Typography>
    <Typography variant="h6" component="p" data-testid={testId}>
      {value} AXEL
    </Typography>
  </Paper>
);

const countOf = (raw: unknown): number | null => {
  if (typeof raw === 'number') return raw;
  if (raw && typeof raw === 'object') {
    const r = raw as Record<string, unknown>;
    for (const k of ['count', 'total', 'enabled']) if (typeof r[k] === 'number') return r[k] as number;
  }
  return null;
};

const Faucet = () => {
  const { t } = useTranslation();
  const { afterAction, refresh } = useBalance();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<NormalisedError | null>(null);
  const press = async () => {
    setBusy(true);
    setError(null);
    try {
      await walletApi.faucet(FAUCET_AMOUNT);
      noticeStore.push({ severity: 'success', key: 'wallet.faucet.done' });
      await refresh();
      afterAction();
    } catch (err) {
      setError(toApiError(err).toJSON());
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack spacing={1}>
      <Typography color="text.secondary">{t('wallet.faucet.hint', { amount: FAUCET_AMOUNT })}</Typography>
      <ErrorAlert error={error} testId="wallet-faucet-error" />
      <Button variant="outlined" onClick={() => void press()} disabled={busy} sx={{ alignSelf: 'flex-start' }} data-testid="wallet-faucet">
        {busy ? <CircularProgress size={20} aria-label={t('common.loading')} /> : t('wallet.faucet.button')}
      </Button>
    </Stack>
  );
};

export const OverviewSection = () => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  const { summary } = useBalance();
  const chain = useChainInfo();
  const masternodes = useLoad(() => walletApi.masternodes().then(countOf), []).data ?? null;

  return (
    <AddressGate>
      <Stack spacing={3}>
        <Typography variant="h5" component="h2">
          {t('wallet.nav.overview')}
        </Typography>
        {summary && (
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, sm: 6 }}>
              <Figure label={t('wallet.overview.main')} value={displayAxel(summary.main, tag)} testId="wallet-main" />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <Figure label={t('wallet.overview.fuel')} value={displayAxel(summary.fuel, tag)} testId="wallet-fuel" />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <Figure label={t('wallet.overview.pending')} value={displayAxel(summary.pending, tag)} testId="wallet-pending" />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <Figure label={t('wallet.overview.available')} value={displayAxel(summary.available, tag)} testId="wallet-available" />
            </Grid>
          </Grid>
        )}
        <Stack spacing={1}>
          <Typography variant="h6" component="h3">
            {t('wallet.overview.addresses')}
          </Typography>
          {summary?.addresses.map((a) => (
            <Typography key={a.address} sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid={`wallet-address-${a.type}`}>
              {t(`wallet.addressTypes.${a.type}`, { defaultValue: a.type })}: {a.address}
            </Typography>
          ))}
        </Stack>
        <Stack direction="row" spacing={3} sx={{ flexWrap: 'wrap' }}>
          {chain?.blocks !== null && chain?.blocks !== undefined && (
            <Typography color="text.secondary" data-testid="wallet-blocks">
              {t('wallet.overview.blocks', { count: chain.blocks })}
            </Typography>
          )}
          {masternodes !== null && (
            <Typography color="text.secondary" data-testid="wallet-masternodes">
              {t('wallet.overview.masternodes', { count: masternodes })}
            </Typography>
          )}
        </Stack>
        {chain?.faucet && <Faucet />}
      </Stack>
    </AddressGate>
  );
};
