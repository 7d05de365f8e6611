import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/i18nHelpers';
import { useSession } from '../../session/store';
import { billingApi } from './billing.api';
import type { GraceInfo } from './billing.types';
import { formatMoney } from './money';
import { isOpenableLink } from './PayPromptDialog';
import { billingFlagsOf, useBillingLoad } from './useBilling';

/**
 * "Pay now" pays the overdue renewal on the payment provider's page when the grace information
 * names its subscription; without one (or a link that is not a web page) the plans page is the way.
 */
export const payNowTarget = (grace: GraceInfo | null): { kind: 'overdue'; subscriptionId: string } | { kind: 'plans' } =>
  grace?.subscriptionId ? { kind: 'overdue', subscriptionId: grace.subscriptionId } : { kind: 'plans' };

const dateOf = (iso: string | null, language: string) => (iso ? formatDateTime(iso, language) : '');

const GraceText = ({ grace }: { grace: GraceInfo }) => {
  const { t, i18n } = useTranslation();
  const values = {
    date: dateOf(grace.gracePeriodEndDate, i18n.language),
    storageDate: dateOf(grace.scheduledStorageDeletionDate, i18n.language),
    accountDate: dateOf(grace.scheduledAccDeletionDate, i18n.language),
    cost: grace.cost === null ? '' : formatMoney(grace.cost, grace.currency, i18n.language),
  };
  return (
    <>
      <AlertTitle>{t(grace.graceType === 'end' ? 'billing.grace.endedTitle' : 'billing.grace.title')}</AlertTitle>
      {t(grace.graceType === 'end' ? 'billing.grace.ended' : 'billing.grace.body', values)}
      {grace.scheduledAccDeletionDate && ` ${t('billing.grace.deletion', values)}`}
    </>
  );
};

/** Opens the payment page of the overdue renewal ("Pay now"); without a subscription to pay, the plans page. */
const PayNowButton = ({ userId, grace, onError }: { userId: string; grace: GraceInfo | null; onError: (error: NormalisedError | null) => void }) => {
  const { t } = useTranslation();
  const [paying, setPaying] = useState(false);
  const target = payNowTarget(grace);
  if (target.kind === 'plans') {
    return (
      <Button color="inherit" size="small" component={RouterLink} to="/storages/plans" data-testid="non-payment-pay">
        {t('billing.grace.pay')}
      </Button>
    );
  }
  const payNow = async () => {
    setPaying(true);
    onError(null);
    try {
      const link = await billingApi.payOverdue(userId, target.subscriptionId);
      if (!isOpenableLink(link, window.location.origin)) throw new Error('Not a payment page');
      window.location.assign(link);
    } catch (e) {
      onError(toApiError(e).toJSON());
      setPaying(false);
    }
  };
  return (
    <Button color="inherit" size="small" disabled={paying} onClick={() => void payNow()} data-testid="non-payment-pay">
      {t('billing.grace.pay')}
    </Button>
  );
};

/** The grace period's dates, on the plans page where an unpaid user lands, with "Pay now". */
export const GraceNotice = ({ userId }: { userId: string }) => {
  const [grace] = useBillingLoad(() => billingApi.graceInfo(userId), userId);
  const [error, setError] = useState<NormalisedError | null>(null);
  if (grace.status !== 'ready' || !grace.value) return null;
  return (
    <Alert
      severity={grace.value.graceType === 'end' ? 'error' : 'warning'}
      sx={{ mb: 2 }}
      data-testid="grace-notice"
      action={grace.value.subscriptionId ? <PayNowButton userId={userId} grace={grace.value} onError={setError} /> : undefined}
    >
      <ErrorAlert error={error} testId="non-payment-error" />
      <GraceText grace={grace.value} />
    </Alert>
  );
};

/**
 * The non-payment warning above every signed-in page while a renewal has failed: when the account
 * will be deactivated, and a way to pay. Not shown on the billing pages that already say it.
 */
export const NonPaymentBanner = () => {
  const { t } = useTranslation();
  const { user } = useSession();
  const location = useLocation();
  const flags = billingFlagsOf(user);
  const userId = user?.id ?? '';
  const show = Boolean(user) && flags.isGraceUnpaid;
  const [grace] = useBillingLoad(async () => (show ? billingApi.graceInfo(userId) : null), `${userId}:${show}`);
  const [error, setError] = useState<NormalisedError | null>(null);
  if (!show || /^\/storages\/(plans|checkout)/i.test(location.pathname)) return null;
  const info = grace.status === 'ready' ? grace.value : null;
  return (
    <Alert
      severity={info?.graceType === 'end' ? 'error' : 'warning'}
      square
      data-testid="non-payment-banner"
      action={<PayNowButton userId={userId} grace={info} onError={setError} />}
    >
      <ErrorAlert error={error} testId="non-payment-error" />
      {info ? <GraceText grace={info} /> : t('billing.grace.generic')}
    </Alert>
  );
};
