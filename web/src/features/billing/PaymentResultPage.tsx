import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { CenteredCard } from '../../components/StatusPage';
import { useSession } from '../../session/store';
import { checkoutActors } from './checkout.actors';
import { checkoutMachine, type PaymentResult } from './checkout.machine';

const SUCCESS = new Set(['success', 'succeeded', 'paid', 'ok', 'true', 'complete', 'completed']);

/** What the provider put in the return address: `status`, `result` or `success`. */
export const resultFromQuery = (params: URLSearchParams): PaymentResult => {
  const value = (params.get('status') ?? params.get('result') ?? params.get('success') ?? '').toLowerCase();
  return SUCCESS.has(value) ? 'success' : 'declined';
};

/** Whether the address carries a payment result at all: without one there is no payment to show. */
export const hasPaymentResult = (params: URLSearchParams): boolean => ['status', 'result', 'success'].some((name) => (params.get(name) ?? '').trim() !== '');

const NoPayment = () => {
  const { t } = useTranslation();
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }} data-testid="payment-result-none">
      <Typography variant="h5" component="h1">
        {t('billing.result.noneTitle')}
      </Typography>
      <Typography color="text.secondary">{t('billing.result.noneBody')}</Typography>
      <Button variant="contained" component={RouterLink} to="/storages/plans" data-testid="payment-result-plans">
        {t('billing.result.toPlans')}
      </Button>
    </Stack>
  );
};

const Outcome = ({ result }: { result: PaymentResult }) => {
  const { t } = useTranslation();
  const { user } = useSession();
  const ok = result === 'success';
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }} data-testid={`payment-result-${result}`}>
      {ok ? <CheckCircleOutline color="success" sx={{ fontSize: 56 }} /> : <ErrorOutline color="error" sx={{ fontSize: 56 }} />}
      <Typography variant="h5" component="h1">
        {t(ok ? 'billing.result.successTitle' : 'billing.result.declinedTitle')}
      </Typography>
      <Typography color="text.secondary">{t(ok ? 'billing.result.successBody' : 'billing.result.declinedBody')}</Typography>
      {user ? (
        <Stack direction="row" spacing={1}>
          {ok ? (
            <Button variant="contained" component={RouterLink} to="/subscription/manage" data-testid="payment-result-subscription">
              {t('billing.result.toSubscription')}
            </Button>
          ) : (
            <Button variant="contained" component={RouterLink} to="/storages/plans" data-testid="payment-result-plans">
              {t('billing.result.tryAgain')}
            </Button>
          )}
        </Stack>
      ) : (
        <Button variant="contained" component={RouterLink} to="/signin">
          {t('common.toSignIn')}
        </Button>
      )}
    </Stack>
  );
};

const Confirming = ({ userId, claimed }: { userId: string; claimed: PaymentResult }) => {
  const { t } = useTranslation();
  const machine = useMemo(() => checkoutMachine.provide({ actors: checkoutActors(userId) }), [userId]);
  const [state] = useMachine(machine, { input: { result: claimed } });
  if (state.matches('confirming')) {
    return (
      <Stack spacing={2} sx={{ alignItems: 'center' }} data-testid="payment-result-confirming">
        <CircularProgress aria-label={t('common.loading')} />
        <Typography>{t('billing.result.confirming')}</Typography>
      </Stack>
    );
  }
  return <Outcome result={state.context.result ?? 'declined'} />;
};

/** `/storages/result`, where the payment provider sends the browser back after Pay or Decline. */
export const PaymentResultPage = () => {
  const { user } = useSession();
  const [params] = useSearchParams();
  if (!hasPaymentResult(params))
    return (
      <CenteredCard testId="payment-result">
        <NoPayment />
      </CenteredCard>
    );
  const claimed = resultFromQuery(params);
  return <CenteredCard testId="payment-result">{user ? <Confirming userId={user.id} claimed={claimed} /> : <Outcome result={claimed} />}</CenteredCard>;
};
