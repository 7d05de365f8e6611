import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSession } from '../../session/store';
import { formatStorage } from './money';
import { currentWeight, loadCatalogue } from './PlansPage';
import { PlanUpgradeDialog } from './PlanUpgradeDialog';
import { useBillingLoad } from './useBilling';

/** `/storages/management`: the plan and the storage it grants, and the ways to get more. */
export const StorageManagementPage = () => {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [catalogue, reload] = useBillingLoad(() => loadCatalogue(user?.id ?? ''), user?.id ?? '');
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  if (!user) return null;
  return (
    <Container maxWidth="md" sx={{ py: 4 }} data-testid="storage-management-page">
      <Typography variant="h4" component="h1" gutterBottom>
        {t('billing.storage.title')}
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
          <Typography color="text.secondary">{t('billing.subscription.currentPlan')}</Typography>
          <Typography variant="h5" component="p" data-testid="storage-plan-name">
            {catalogue.value.plan.productName || t('billing.subscription.unknownPlan')}
          </Typography>
          {catalogue.value.plan.quotaBytes !== null && (
            <Typography sx={{ mt: 1 }} data-testid="storage-quota">
              {t('billing.plans.storage', { size: formatStorage(catalogue.value.plan.quotaBytes, i18n.language) })}
            </Typography>
          )}
          <Stack direction="row" spacing={1} sx={{ mt: 3, flexWrap: 'wrap' }}>
            <Button variant="contained" onClick={() => setUpgradeOpen(true)} data-testid="storage-get-more">
              {t('billing.storage.getMore')}
            </Button>
            <Button component={RouterLink} to="/storages/plans" data-testid="storage-plans">
              {t('billing.storage.allPlans')}
            </Button>
            <Button component={RouterLink} to="/subscription/manage" data-testid="storage-subscription">
              {t('billing.storage.subscription')}
            </Button>
            <Button component={RouterLink} to="/storages/slots" data-testid="storage-slots">
              {t('billing.slots.title')}
            </Button>
            <Button component={RouterLink} to="/storages/group" data-testid="storage-group">
              {t('billing.group.title')}
            </Button>
          </Stack>
          <PlanUpgradeDialog
            open={upgradeOpen}
            onClose={() => setUpgradeOpen(false)}
            products={catalogue.value.products}
            currentWeight={currentWeight(catalogue.value)}
          />
        </Paper>
      )}
    </Container>
  );
};
