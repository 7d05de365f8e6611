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
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/i18nHelpers';
import { refreshUser } from '../../session/session';
import { useSession } from '../../session/store';
import { billingApi, PAYMENTS_PER_PAGE } from './billing.api';
import type { NextPayment, PlanInfo, Subscription } from './billing.types';
import { formatMoney, formatStorage } from './money';
import { useBillingLoad } from './useBilling';

/** The subscription the page is about: the active one, else the latest cancelled or pending one. */
export const currentSubscription = (subscriptions: readonly Subscription[]): Subscription | null =>
  subscriptions.find((s) => s.status === 'active') ??
  subscriptions.find((s) => s.status === 'canceled') ??
  subscriptions.find((s) => s.status === 'pending') ??
  null;

const when = (iso: string | null, language: string) => (iso ? formatDateTime(iso, language) : '—');

/** The next payment as it will really be charged, and how long a promo code's price lasts. */
const NextPaymentLine = ({ next }: { next: NextPayment }) => {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, next.currency, i18n.language);
  return (
    <>
      <Typography sx={{ mt: 1 }} data-testid="subscription-next-payment">
        {t('billing.subscription.nextPayment', { date: when(next.date, i18n.language), amount: money(next.amount) })}
      </Typography>
      {next.promoCode && (
        <Typography color="text.secondary" data-testid="subscription-promo">
          {next.promoPaymentsLeft === null
            ? t('billing.subscription.promoEvery', { code: next.promoCode })
            : t('billing.subscription.promoCycles', { code: next.promoCode, count: next.promoPaymentsLeft, regular: money(next.regularAmount) })}
        </Typography>
      )}
    </>
  );
};

const PlanBlock = ({ plan, subscription, onCancel }: { plan: PlanInfo; subscription: Subscription | null; onCancel: () => void }) => {
  const { t, i18n } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 3, mb: 3 }} component="section" aria-labelledby="current-plan-title">
      <Typography id="current-plan-title" variant="h6" component="h2" gutterBottom>
        {t('billing.subscription.currentPlan')}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h5" component="p" data-testid="subscription-plan-name">
          {plan.productName || t('billing.subscription.unknownPlan')}
        </Typography>
        {subscription && <Chip size="small" label={t(`billing.subscription.statuses.${subscription.status}`)} data-testid="subscription-status" />}
        {subscription?.test && <Chip size="small" color="warning" label={t('billing.testPayment')} />}
      </Stack>
      {plan.paymentDelay && (
        <Alert severity="error" sx={{ my: 1 }} data-testid="subscription-payment-delay">
          {t('errors.PAYMENT_DELAY')}
        </Alert>
      )}
      {plan.quotaBytes !== null && (
        <Typography data-testid="subscription-storage">{t('billing.plans.storage', { size: formatStorage(plan.quotaBytes, i18n.language) })}</Typography>
      )}
      {subscription?.status === 'active' && subscription.nextPayment && <NextPaymentLine next={subscription.nextPayment} />}
      {subscription?.status === 'canceled' && (
        <Alert severity="info" sx={{ mt: 2 }} data-testid="subscription-ends">
          {t('billing.subscription.endsOn', { date: when(subscription.endDate ?? subscription.nextPaymentDate, i18n.language), plan: plan.productName })}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap' }}>
        <Button variant="contained" component={RouterLink} to="/storages/upgrade" data-testid="subscription-upgrade">
          {t('billing.subscription.changePlan')}
        </Button>
        {subscription?.status === 'active' && subscription.cancelSubscriptionAction && (
          <Button color="error" onClick={onCancel} data-testid="subscription-cancel">
            {t('billing.subscription.cancel')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
};

const PaymentHistory = ({ userId }: { userId: string }) => {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(0);
  const [payments] = useBillingLoad(() => billingApi.payments(userId, page + 1), `${userId}:${page}`);
  return (
    <Paper variant="outlined" component="section" aria-labelledby="payments-title">
      <Typography id="payments-title" variant="h6" component="h2" sx={{ p: 2, pb: 0 }}>
        {t('billing.payments.title')}
      </Typography>
      {payments.status === 'loading' && <CircularProgress sx={{ m: 2 }} aria-label={t('common.loading')} />}
      {payments.status === 'failed' && (
        <Box sx={{ px: 2 }}>
          <ErrorAlert error={payments.error} />
        </Box>
      )}
      {payments.status === 'ready' && payments.value.data.length === 0 && (
        <Typography color="text.secondary" sx={{ p: 2 }} data-testid="payments-empty">
          {t('billing.payments.empty')}
        </Typography>
      )}
      {payments.status === 'ready' && payments.value.data.length > 0 && (
        <>
          <Table size="small" data-testid="payments-table">
            <TableHead>
              <TableRow>
                <TableCell>{t('billing.payments.date')}</TableCell>
                <TableCell>{t('billing.payments.description')}</TableCell>
                <TableCell>{t('billing.payments.status')}</TableCell>
                <TableCell align="right">{t('billing.payments.amount')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {payments.value.data.map((p) => (
                <TableRow key={p.id} data-testid="payment-row">
                  <TableCell>{when(p.createdAt, i18n.language)}</TableCell>
                  <TableCell>
                    {p.productName ?? '—'}
                    {p.test && ` (${t('billing.testPayment')})`}
                  </TableCell>
                  <TableCell>{t(`billing.payments.statuses.${p.status}`, { defaultValue: p.status })}</TableCell>
                  <TableCell align="right">{formatMoney(p.amount, p.currency, i18n.language)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <TablePagination
            component="div"
            count={payments.value.total}
            page={page}
            onPageChange={(_, next) => setPage(next)}
            rowsPerPage={PAYMENTS_PER_PAGE}
            rowsPerPageOptions={[PAYMENTS_PER_PAGE]}
            labelDisplayedRows={({ from, to, count }) => t('billing.payments.range', { from, to, count })}
          />
        </>
      )}
    </Paper>
  );
};

/** `/subscription/manage`: the current plan, the next payment, cancelling, and the payment history. */
export const SubscriptionManagePage = () => {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const userId = user?.id ?? '';
  const [data, reload] = useBillingLoad(async () => {
    const [plan, subscriptions] = await Promise.all([billingApi.plan(userId), billingApi.subscriptions(userId)]);
    return { plan, subscription: currentSubscription(subscriptions) };
  }, userId);
  const [confirming, setConfirming] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [error, setError] = useState<NormalisedError | null>(null);
  if (!user) return null;

  const subscription = data.status === 'ready' ? data.value.subscription : null;
  const cancel = async () => {
    if (!subscription) return;
    setCancelling(true);
    setError(null);
    try {
      await billingApi.cancelSubscription(user.id, subscription.id);
      setConfirming(false);
      await refreshUser();
      reload();
    } catch (e) {
      setError(toApiError(e).toJSON());
    } finally {
      setCancelling(false);
    }
  };

  return (
    <Container maxWidth="md" sx={{ py: 4 }} data-testid="subscription-page">
      <Typography variant="h4" component="h1" gutterBottom>
        {t('billing.subscription.title')}
      </Typography>
      {data.status === 'loading' && <CircularProgress aria-label={t('common.loading')} />}
      {data.status === 'failed' && (
        <>
          <ErrorAlert error={data.error} />
          <Button onClick={reload}>{t('billing.retry')}</Button>
        </>
      )}
      {data.status === 'ready' && <PlanBlock plan={data.value.plan} subscription={subscription} onCancel={() => setConfirming(true)} />}
      <PaymentHistory userId={user.id} />
      <Dialog open={confirming} onClose={() => !cancelling && setConfirming(false)} data-testid="subscription-cancel-dialog">
        <DialogTitle>{t('billing.subscription.cancelTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('billing.subscription.cancelBody', { date: when(subscription?.nextPaymentDate ?? null, i18n.language) })}</DialogContentText>
          <ErrorAlert error={error} testId="subscription-cancel-error" />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)} disabled={cancelling}>
            {t('billing.subscription.keep')}
          </Button>
          <Button color="error" variant="contained" onClick={() => void cancel()} disabled={cancelling} data-testid="subscription-cancel-confirm">
            {t('billing.subscription.cancelConfirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Container>
  );
};
