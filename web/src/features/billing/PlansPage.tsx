import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSession } from '../../session/store';
import { billingApi } from './billing.api';
import type { BillingCycle, PlanInfo, Product } from './billing.types';
import { GraceNotice } from './NonPaymentBanner';
import { CycleToggle, PlanGrid } from './PlanGrid';
import { billingFlagsOf, useBillingLoad } from './useBilling';

export interface Catalogue {
  products: Product[];
  plan: PlanInfo;
}

/** The catalogue and the user's current plan, together: a page shows neither without the other. */
export const loadCatalogue = async (userId: string): Promise<Catalogue> => {
  const [products, plan] = await Promise.all([billingApi.products(), billingApi.plan(userId)]);
  return { products, plan };
};

export const checkoutPath = (product: Product) => `/storages/checkout?productId=${product.id}&cycle=${product.cycle ?? 'monthly'}`;

/** The weight of the plan the user has now, so the upgrade page offers only heavier ones. */
export const currentWeight = (catalogue: Catalogue): number | null => {
  const { products, plan } = catalogue;
  const current = products.find((p) => p.id === plan.productId) ?? products.find((p) => p.name === plan.productName);
  return current ? current.weight : null;
};

/**
 * `/storages/plans` and `/storages/upgrade`: the plans of the chosen cycle with their prices; the
 * upgrade page keeps only plans above the current one. Unpaid users are sent here by the guard, so
 * the page also says why.
 */
export const PlansPage = ({ upgrade = false }: { upgrade?: boolean }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const [cycle, setCycle] = useState<BillingCycle>('monthly');
  const [catalogue, reload] = useBillingLoad(() => loadCatalogue(user?.id ?? ''), user?.id ?? '');
  if (!user) return null;
  const flags = billingFlagsOf(user);

  return (
    <Container maxWidth="lg" sx={{ py: 4 }} data-testid={upgrade ? 'upgrade-page' : 'plans-page'}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t(upgrade ? 'billing.upgrade.title' : 'billing.plans.title')}
      </Typography>
      {flags.isUnpaid && !flags.isGraceUnpaid && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="plans-unpaid">
          {t('billing.plans.unpaid')}
        </Alert>
      )}
      {(flags.isGraceUnpaid || flags.isUnpaid) && <GraceNotice userId={user.id} />}
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 2, mb: 3 }}>
        <Typography color="text.secondary">{t(upgrade ? 'billing.upgrade.intro' : 'billing.plans.intro')}</Typography>
        <CycleToggle cycle={cycle} onChange={setCycle} />
      </Box>
      {catalogue.status === 'loading' && <CircularProgress aria-label={t('common.loading')} />}
      {catalogue.status === 'failed' && (
        <>
          <ErrorAlert error={catalogue.error} />
          <Button onClick={reload}>{t('billing.retry')}</Button>
        </>
      )}
      {catalogue.status === 'ready' && (
        <PlanGrid
          products={catalogue.value.products}
          cycle={cycle}
          currentProductId={catalogue.value.plan.productId}
          currentName={catalogue.value.plan.productName || null}
          above={upgrade ? currentWeight(catalogue.value) : undefined}
          onChoose={(p) => void navigate(checkoutPath(p))}
        />
      )}
    </Container>
  );
};
