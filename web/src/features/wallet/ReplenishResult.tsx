import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useBalance } from './balance.store';
import { replenishOutcome, replenishOutcomeSettled, type ReplenishState } from './replenishOutcome';
import { walletApi } from './wallet.api';

/** Asked again every few seconds while the provider's report or the treasury's send is still to come, for at most ten minutes. */
const POLL_MS = 3_000;
const POLL_FOR_MS = 10 * 60_000;

/**
 * Back from the checkout (`/wallet/replenish?status=paid|declined&checkoutId=...`): says what became
 * of the payment from the checkout's real state, the address's `status` only while the server has
 * no report yet.
 */
export const ReplenishResult = ({ checkoutId, queryStatus }: { checkoutId: string | null; queryStatus: string | null }) => {
  const { t } = useTranslation();
  const { afterAction } = useBalance();
  const [state, setState] = useState<ReplenishState | null>(null);
  const [error, setError] = useState<NormalisedError | null>(null);
  const outcome = replenishOutcome(queryStatus, state);

  useEffect(() => {
    if (!checkoutId) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const started = Date.now();
    const load = async () => {
      try {
        const next = await walletApi.replenishState(checkoutId);
        if (!live) return;
        setState(next);
        setError(null);
        if (next.tokens === 'sent') afterAction();
        if (replenishOutcomeSettled(replenishOutcome(queryStatus, next)) || (next.status === 'open' && queryStatus !== 'paid')) return;
      } catch (err) {
        if (!live) return;
        const e = toApiError(err);
        setError(e.toJSON());
        if (e.status >= 400 && e.status < 500) return;
      }
      if (Date.now() - started < POLL_FOR_MS) timer = setTimeout(() => void load(), POLL_MS);
    };
    void load();
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // asked once per checkout (afterAction is the store's own function, the same on every render)
  }, [checkoutId, queryStatus, afterAction]);

  if (!checkoutId && !queryStatus) return null;
  const amount = state?.amount ?? '';
  return (
    <Stack spacing={1} data-testid="replenish-result" data-outcome={outcome}>
      {error ? (
        <ErrorAlert error={error} testId="replenish-result-error" />
      ) : outcome === 'sent' ? (
        <Alert severity="success" data-testid="replenish-result-sent">
          <AlertTitle>{t('wallet.replenish.result.paidTitle')}</AlertTitle>
          {t('wallet.replenish.result.sent', { amount })}
        </Alert>
      ) : outcome === 'waiting' ? (
        <Alert severity="info" data-testid="replenish-result-waiting">
          <AlertTitle>{t('wallet.replenish.result.paidTitle')}</AlertTitle>
          {t('wallet.replenish.result.waiting', { amount })}
        </Alert>
      ) : outcome === 'confirming' ? (
        <Alert severity="info" icon={<CircularProgress size={20} />} data-testid="replenish-result-confirming">
          {t('wallet.replenish.result.confirming')}
        </Alert>
      ) : outcome === 'declined' ? (
        <Alert severity="warning" data-testid="replenish-result-declined">
          <AlertTitle>{t('wallet.replenish.result.declinedTitle')}</AlertTitle>
          {t('wallet.replenish.result.declined')}
        </Alert>
      ) : (
        <Alert severity="info" data-testid="replenish-result-open">
          {t('wallet.replenish.result.open')}
        </Alert>
      )}
      {(outcome === 'sent' || outcome === 'waiting') && (
        <Button component={RouterLink} to="/wallet/transactions" sx={{ alignSelf: 'flex-start' }} data-testid="replenish-result-transactions">
          {t('wallet.replenish.result.transactions')}
        </Button>
      )}
    </Stack>
  );
};
