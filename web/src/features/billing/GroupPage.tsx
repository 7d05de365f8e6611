import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSession } from '../../session/store';
import type { BillingCycle } from './billing.types';
import { formatMoney, formatStorage } from './money';
import { CycleToggle } from './PlanGrid';
import { checkoutPath, loadCatalogue } from './PlansPage';
import { groupPlanFor } from './slots';
import { useBillingLoad } from './useBilling';

/** Premium accounts the Group plan includes (§9). */
export const GROUP_ACCOUNTS = 5;

/**
 * `/storages/group`: the Group plan (shared storage and Premium accounts for a group). Its owner
 * sees their group's plan and the way to more accounts; anyone else sees the offer and buys it
 * through the checkout.
 */
export const GroupPage = () => {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const [catalogue, reload] = useBillingLoad(() => loadCatalogue(user?.id ?? ''), user?.id ?? '');
  const [cycle, setCycle] = useState<BillingCycle>('monthly');
  if (!user) return null;
  const owner = user.isGroupOwner === true;
  const group = catalogue.status === 'ready' ? groupPlanFor(catalogue.value.products, cycle) : null;

  return (
    <Container maxWidth="md" sx={{ py: 4 }} data-testid="group-page">
      <Typography variant="h4" component="h1" gutterBottom>
        {t('billing.group.title')}
      </Typography>
      {catalogue.status === 'loading' && <CircularProgress aria-label={t('common.loading')} />}
      {catalogue.status === 'failed' && (
        <>
          <ErrorAlert error={catalogue.error} />
          <Button onClick={reload}>{t('billing.retry')}</Button>
        </>
      )}
      {catalogue.status === 'ready' && (
        <Paper variant="outlined" sx={{ p: 3 }}>
          {owner ? (
            <>
              <Typography data-testid="group-owner">{t('billing.group.owner', { plan: catalogue.value.plan.productName })}</Typography>
              {catalogue.value.plan.quotaBytes !== null && (
                <Typography sx={{ mt: 1 }}>{t('billing.plans.storage', { size: formatStorage(catalogue.value.plan.quotaBytes, i18n.language) })}</Typography>
              )}
              <Stack direction="row" spacing={1} sx={{ mt: 3 }}>
                <Button variant="contained" component={RouterLink} to="/storages/slots" data-testid="group-slots">
                  {t('billing.group.moreAccounts')}
                </Button>
                <Button component={RouterLink} to="/subscription/manage">
                  {t('billing.storage.subscription')}
                </Button>
              </Stack>
            </>
          ) : (
            <>
              <Typography sx={{ mb: 2 }}>{t('billing.group.pitch', { count: GROUP_ACCOUNTS })}</Typography>
              <CycleToggle cycle={cycle} onChange={setCycle} />
              {group ? (
                <Stack spacing={1} sx={{ mt: 2 }} data-testid="group-offer">
                  <Typography variant="h5" component="p">
                    {group.name}: {formatMoney(group.price, group.currency, i18n.language)} /{' '}
                    {t(cycle === 'yearly' ? 'billing.plans.yearly' : 'billing.plans.monthly')}
                  </Typography>
                  {group.quotaBytes !== null && <Typography>{t('billing.plans.storage', { size: formatStorage(group.quotaBytes, i18n.language) })}</Typography>}
                  <Typography>{t('billing.group.accounts', { count: GROUP_ACCOUNTS })}</Typography>
                  <div>
                    <Button variant="contained" onClick={() => void navigate(checkoutPath(group))} data-testid="group-buy">
                      {t('billing.group.buy')}
                    </Button>
                  </div>
                </Stack>
              ) : (
                <Typography color="text.secondary">{t('billing.group.unavailable')}</Typography>
              )}
            </>
          )}
        </Paper>
      )}
    </Container>
  );
};
