import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useMemo, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { UserInfo } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { useSession } from '../../session/store';
import type { BillingCycle, PromoQuote } from './billing.types';
import { checkoutActors } from './checkout.actors';
import { checkoutMachine, PROMO_CODE_MAX_LENGTH, PROMO_FIELD_MAX_LENGTH } from './checkout.machine';
import { formatMoney, formatStorage } from './money';
import { isOpenableLink } from './PayPromptDialog';
import { CycleToggle, PlanGrid } from './PlanGrid';

const cycleParam = (v: string | null): BillingCycle | null => (v === 'monthly' || v === 'yearly' ? v : null);
const productParam = (v: string | null): number | null => (v && /^\d{1,9}$/.test(v) ? Number(v) : null);

/** What the applied code does to the payments: how many at its price, then the plan's own; what is due today. */
const PromoTerms = ({ quote, cycle }: { quote: PromoQuote; cycle: BillingCycle | null }) => {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, quote.currency, i18n.language);
  const per = t(cycle === 'yearly' ? 'billing.plans.perYear' : 'billing.plans.perMonth');
  return (
    <Box data-testid="checkout-promo-terms" sx={{ mt: 0.5 }}>
      <Typography color="success.main">
        {quote.cycles === null
          ? t('billing.checkout.promoEvery', { code: quote.code, price: money(quote.promoPrice), per })
          : t('billing.checkout.promoCycles', { code: quote.code, count: quote.cycles, price: money(quote.promoPrice), regular: money(quote.price), per })}
      </Typography>
      {quote.freeTrialDays > 0 && <Typography>{t('billing.checkout.trial', { count: quote.freeTrialDays })}</Typography>}
      <Typography sx={{ fontWeight: 600 }} data-testid="checkout-due-today">
        {t('billing.checkout.dueToday', { amount: money(quote.dueToday) })}
      </Typography>
    </Box>
  );
};

const Checkout = ({ user, productId, cycle }: { user: UserInfo; productId: number | null; cycle: BillingCycle | null }) => {
  const { t, i18n } = useTranslation();
  const machine = useMemo(
    () =>
      checkoutMachine.provide({
        actors: checkoutActors(user.id),
        actions: {
          openCheckout: ({ context }) => {
            if (context.checkoutLink && isOpenableLink(context.checkoutLink, window.location.origin)) window.location.assign(context.checkoutLink);
          },
        },
      }),
    [user.id],
  );
  const [state, send] = useMachine(machine, { input: { productId, cycle } });
  const { context } = state;
  const chosen = context.products.find((p) => p.id === context.productId) ?? null;

  const pay = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'PAY' });
  };

  if (state.matches('loading')) return <CircularProgress aria-label={t('common.loading')} />;
  if (state.matches('loadFailed')) {
    return (
      <>
        <ErrorAlert error={context.error} />
        <Button onClick={() => send({ type: 'RETRY' })}>{t('billing.retry')}</Button>
      </>
    );
  }
  if (state.matches('choosing')) {
    return (
      <>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 2, gap: 2, flexWrap: 'wrap' }}>
          <Typography color="text.secondary">{t('billing.checkout.choose')}</Typography>
          <CycleToggle cycle={context.cycle} onChange={(c) => send({ type: 'SET_CYCLE', cycle: c })} />
        </Box>
        <PlanGrid
          products={context.products}
          cycle={context.cycle}
          currentProductId={null}
          currentName={null}
          onChoose={(p) => send({ type: 'SELECT', productId: p.id })}
        />
      </>
    );
  }
  if (state.matches('redirecting')) {
    return (
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} data-testid="checkout-redirecting">
        <CircularProgress size={24} aria-label={t('common.loading')} />
        <Typography>{t('billing.checkout.redirecting')}</Typography>
      </Stack>
    );
  }
  const submitting = state.matches('submitting');
  const quoting = state.matches('quoting');
  return (
    <Paper variant="outlined" sx={{ p: 3, maxWidth: 520 }} component="form" noValidate onSubmit={pay} data-testid="checkout-form">
      {chosen && (
        <Box sx={{ mb: 2 }} data-testid="checkout-summary">
          <Typography variant="h6" component="h2">
            {chosen.name}
          </Typography>
          <Typography data-testid="checkout-price">
            {context.quote ? (
              <>
                <Box component="s" sx={{ color: 'text.secondary', mr: 1 }}>
                  {formatMoney(context.quote.price, context.quote.currency, i18n.language)}
                </Box>
                {formatMoney(context.quote.promoPrice, context.quote.currency, i18n.language)}
              </>
            ) : (
              formatMoney(chosen.price, chosen.currency, i18n.language)
            )}{' '}
            {t(chosen.cycle === 'yearly' ? 'billing.plans.perYear' : 'billing.plans.perMonth')}
          </Typography>
          {context.quote && <PromoTerms quote={context.quote} cycle={chosen.cycle} />}
          {chosen.quotaBytes !== null && (
            <Typography color="text.secondary">{t('billing.plans.storage', { size: formatStorage(chosen.quotaBytes, i18n.language) })}</Typography>
          )}
        </Box>
      )}
      <ErrorAlert error={context.error} testId="checkout-error" />
      <FormField
        name="promoCode"
        label={t('billing.checkout.promoCode')}
        hint={t('billing.checkout.promoHint')}
        value={context.promoCode}
        onValue={(code) => send({ type: 'SET_PROMO', code })}
        errorKey={context.promoError ?? undefined}
        testId="checkout-promo"
        fullWidth
        autoComplete="off"
        slotProps={{ htmlInput: { maxLength: PROMO_CODE_MAX_LENGTH + 1 } }}
      />
      <Button onClick={() => send({ type: 'APPLY_PROMO' })} disabled={submitting || quoting} sx={{ mt: 1 }} data-testid="checkout-promo-apply">
        {quoting ? <CircularProgress size={20} aria-label={t('common.loading')} /> : t('billing.checkout.apply')}
      </Button>
      {context.askedFields.map((name) => (
        <FormField
          key={name}
          name={`promo-${name}`}
          label={t(`billing.checkout.fields.${name}`)}
          value={context.customFields[name] ?? ''}
          onValue={(value) => send({ type: 'SET_FIELD', name, value })}
          testId={`checkout-field-${name}`}
          fullWidth
          sx={{ mt: 2 }}
          slotProps={{ htmlInput: { maxLength: PROMO_FIELD_MAX_LENGTH } }}
        />
      ))}
      <Stack direction="row" spacing={1} sx={{ mt: 3, justifyContent: 'flex-end' }}>
        <Button onClick={() => send({ type: 'BACK' })} disabled={submitting} data-testid="checkout-back">
          {t('common.back')}
        </Button>
        <Button type="submit" variant="contained" disabled={submitting || quoting} data-testid="checkout-pay">
          {t('billing.checkout.pay')}
        </Button>
      </Stack>
    </Paper>
  );
};

/** `/storages/checkout?productId=&cycle=`: renders the checkout machine's state. */
export const CheckoutPage = () => {
  const { t } = useTranslation();
  const { user } = useSession();
  const [params] = useSearchParams();
  if (!user) return null;
  return (
    <Container maxWidth="lg" sx={{ py: 4 }} data-testid="checkout-page">
      <Typography variant="h4" component="h1" gutterBottom>
        {t('billing.checkout.title')}
      </Typography>
      <Checkout user={user} productId={productParam(params.get('productId'))} cycle={cycleParam(params.get('cycle'))} />
    </Container>
  );
};
