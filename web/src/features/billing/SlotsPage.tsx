import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { formatDateTime } from '../../components/i18nHelpers';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSession } from '../../session/store';
import { billingApi } from './billing.api';
import type { BillingCycle, Subscription } from './billing.types';
import { formatMoney } from './money';
import { CycleToggle } from './PlanGrid';
import { isOpenableLink } from './PayPromptDialog';
import { loadCatalogue } from './PlansPage';
import { canUnsubscribeSlots, slotProductFor, validSlotQuantity } from './slots';
import { useBillingLoad } from './useBilling';

/** Members using seats: teams arrive with their own slice, and until then none do. */
const MEMBERS_USING_SEATS = 0;

const loadSlots = async (userId: string) => {
  const [catalogue, freeSeats, slots] = await Promise.all([
    loadCatalogue(userId),
    billingApi.freeSeats(userId),
    billingApi.subscriptions(userId, undefined, 'extra-members'),
  ]);
  return { ...catalogue, freeSeats, slots };
};

/**
 * `/storages/slots`: extra member slots of a team, group or business plan. Buying goes through the
 * payment provider's checkout; unsubscribing needs enough unused slots (the server has the last word).
 */
export const SlotsPage = () => {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [data, reload] = useBillingLoad(() => loadSlots(user?.id ?? ''), user?.id ?? '');
  const [cycle, setCycle] = useState<BillingCycle>('monthly');
  const [quantityText, setQuantityText] = useState('1');
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<NormalisedError | null>(null);
  if (!user) return null;

  const run = async (key: string, action: () => Promise<void>) => {
    setBusy(key);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(toApiError(e).toJSON());
    } finally {
      setBusy(null);
    }
  };

  const ready = data.status === 'ready' ? data.value : null;
  const product = ready ? slotProductFor(ready.products, ready.plan, cycle) : null;
  const quantity = validSlotQuantity(quantityText);
  const buy = () =>
    run('buy', async () => {
      if (!product || quantity === null) return;
      const link = await billingApi.checkout(user.id, { productId: product.id, quantity });
      if (!isOpenableLink(link, window.location.origin)) throw new Error('Not a payment page');
      window.location.assign(link);
    });
  const unsubscribe = (slot: Subscription) =>
    run(slot.id, async () => {
      await billingApi.cancelSubscription(user.id, slot.id);
      reload();
    });

  return (
    <Container maxWidth="md" sx={{ py: 4 }} data-testid="slots-page">
      <Typography variant="h4" component="h1" gutterBottom>
        {t('billing.slots.title')}
      </Typography>
      {data.status === 'loading' && <CircularProgress aria-label={t('common.loading')} />}
      {data.status === 'failed' && (
        <>
          <ErrorAlert error={data.error} />
          <Button onClick={reload}>{t('billing.retry')}</Button>
        </>
      )}
      <ErrorAlert error={error} testId="slots-error" />
      {ready && (
        <Stack spacing={3}>
          <Typography data-testid="slots-free-seats">{t('billing.slots.freeSeats', { count: ready.freeSeats })}</Typography>
          {!slotProductFor(ready.products, ready.plan, 'monthly') && !slotProductFor(ready.products, ready.plan, 'yearly') ? (
            <Alert
              severity="info"
              data-testid="slots-not-offered"
              action={
                <Button component={RouterLink} to="/storages/plans">
                  {t('billing.storage.allPlans')}
                </Button>
              }
            >
              {t('billing.slots.notOffered')}
            </Alert>
          ) : (
            <Paper variant="outlined" sx={{ p: 3 }}>
              <Typography variant="h6" component="h2" gutterBottom>
                {t('billing.slots.buyTitle')}
              </Typography>
              <CycleToggle cycle={cycle} onChange={setCycle} />
              {product && (
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 2, alignItems: { sm: 'center' } }}>
                  <TextField
                    label={t('billing.slots.quantity')}
                    value={quantityText}
                    onChange={(e) => setQuantityText(e.target.value)}
                    error={quantity === null}
                    helperText={quantity === null ? t('billing.slots.quantityInvalid') : ' '}
                    slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'slots-quantity' } }}
                    size="small"
                    sx={{ width: 140 }}
                  />
                  <Typography data-testid="slots-total">
                    {t('billing.slots.total', { price: formatMoney(product.price * (quantity ?? 0), product.currency, i18n.language), name: product.name })}
                  </Typography>
                  <Button variant="contained" disabled={quantity === null || busy !== null} onClick={() => void buy()} data-testid="slots-buy">
                    {t('billing.slots.buy')}
                  </Button>
                </Stack>
              )}
            </Paper>
          )}
          <div>
            <Typography variant="h6" component="h2">
              {t('billing.slots.currentTitle')}
            </Typography>
            {ready.slots.length === 0 ? (
              <Typography color="text.secondary" data-testid="slots-none">
                {t('billing.slots.none')}
              </Typography>
            ) : (
              <List data-testid="slots-list">
                {ready.slots.map((slot) => {
                  const allowed = canUnsubscribeSlots(ready.freeSeats, MEMBERS_USING_SEATS, slot.quantity);
                  return (
                    <ListItem
                      key={slot.id}
                      divider
                      data-testid="slots-item"
                      secondaryAction={
                        slot.cancelSubscriptionAction && (
                          <Button disabled={!allowed || busy !== null} onClick={() => void unsubscribe(slot)} data-testid="slots-unsubscribe">
                            {t('billing.slots.unsubscribe')}
                          </Button>
                        )
                      }
                    >
                      <ListItemText
                        primary={t('billing.slots.item', { count: slot.quantity, name: slot.productName ?? '' })}
                        secondary={
                          slot.status === 'canceled'
                            ? t('billing.slots.ends', { date: slot.endDate ? formatDateTime(slot.endDate, i18n.language) : '' })
                            : !allowed
                              ? t('errors.NOT_ENOUGH_UNUSED_SLOTS')
                              : slot.nextPaymentDate
                                ? t('billing.slots.renews', { date: formatDateTime(slot.nextPaymentDate, i18n.language) })
                                : null
                        }
                      />
                    </ListItem>
                  );
                })}
              </List>
            )}
          </div>
        </Stack>
      )}
    </Container>
  );
};
