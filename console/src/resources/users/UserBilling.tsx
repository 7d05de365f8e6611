import { GB, PRODUCTS } from '@axel/domain/billing/billing.catalogue';
import {
  Alert,
  Button as MuiButton,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField as MuiTextField,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useGetIdentity, useNotify, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { decisionOn } from '../../auth/access';
import { ADMIN_API } from '../../data/contractUrl';
import { httpClient } from '../../data/dataProvider';
import { useDates } from '../../i18n/dates';

interface BillingSubscription {
  id: string;
  productName: string | null;
  status: string;
  startDate: string | null;
  nextPaymentDate: string | null;
  endDate: string | null;
  price: number | null;
  /** What the next payment will really be (the promo code's price while its cycles remain); null when none is coming. */
  nextPayment: { amount: number; regularAmount: number; promoCode: string | null; promoPaymentsLeft: number | null } | null;
  test?: boolean;
}
interface UserBillingView {
  plan: { productId: number | null; productName: string; quotaBytes: number | null };
  subscriptions: BillingSubscription[];
  payments: { id: string; amount: number }[];
}

/** Plans staff may put a user on: every plan of the catalogue a user can hold alone (no member plans). */
export const STAFF_PLAN_CHOICES = PRODUCTS.filter((p) => p.plan && p.type !== 'child-plan').map((p) => ({
  id: p.id,
  name: p.validity ? `${p.name} (${p.validity === 'year' ? 'yearly' : 'monthly'})` : p.name,
}));

const usd = (cents: number | null) => (cents === null ? '—' : `$${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);

const billingUrl = (id: unknown) => `${ADMIN_API}/users/${encodeURIComponent(String(id))}`;

/**
 * The user's plan and subscriptions on their page, and the staff action "change plan" (at once,
 * without a payment), offered only to staff the hierarchy lets act on this account.
 */
export const UserBilling = (_: { label?: false }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const dates = useDates();
  const day = (iso: string | null) => dates.day(iso, '—');
  const notify = useNotify();
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  const [view, setView] = useState<UserBillingView | null>(null);
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState(false);
  const [productId, setProductId] = useState<number | ''>('');
  const [busy, setBusy] = useState(false);
  const id = record?.id;

  const load = useCallback(async () => {
    if (id === undefined) return;
    try {
      const { json } = await httpClient(`${billingUrl(id)}/billing`);
      setView(json as UserBillingView);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [id]);
  useEffect(() => {
    void load();
  }, [load]);

  if (!record) return null;
  const decision = decisionOn(permissions, identity?.id, record);

  const change = async () => {
    if (productId === '') return;
    setBusy(true);
    try {
      const { json } = await httpClient(`${billingUrl(record.id)}/plan`, { method: 'POST', body: JSON.stringify({ productId }) });
      setView(json as UserBillingView);
      setOpen(false);
      notify('resources.users.billing.changed', { type: 'success' });
    } catch (error) {
      notify(error instanceof Error && error.message ? error.message : 'ra.notification.http_error', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={1.5} sx={{ mt: 1 }} data-testid="user-billing">
      <Typography variant="subtitle1" component="h2">
        {translate('resources.users.billing.title')}
      </Typography>
      {failed && <Alert severity="error">{translate('resources.users.billing.loadFailed')}</Alert>}
      {!view && !failed && <CircularProgress size={24} />}
      {view && (
        <>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography data-testid="user-billing-plan">
              {translate('resources.users.billing.plan', { plan: view.plan.productName })}
              {view.plan.quotaBytes !== null ? ` · ${Math.round(view.plan.quotaBytes / GB)} GB` : ''}
            </Typography>
            <Typography color="text.secondary">
              {translate('resources.users.billing.payments', { count: view.payments.length, smart_count: view.payments.length })}
            </Typography>
            {decision?.allowed ? (
              <MuiButton size="small" variant="outlined" onClick={() => setOpen(true)} data-testid="user-change-plan">
                {translate('resources.users.billing.changePlan')}
              </MuiButton>
            ) : null}
          </Stack>
          {view.subscriptions.length === 0 ? (
            <Typography color="text.secondary">{translate('resources.users.billing.noSubscriptions')}</Typography>
          ) : (
            <Table size="small" data-testid="user-subscriptions">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('resources.users.billing.fields.product')}</TableCell>
                  <TableCell>{translate('resources.users.billing.fields.status')}</TableCell>
                  <TableCell>{translate('resources.users.billing.fields.startDate')}</TableCell>
                  <TableCell>{translate('resources.users.billing.fields.nextPaymentDate')}</TableCell>
                  <TableCell>{translate('resources.users.billing.fields.endDate')}</TableCell>
                  <TableCell align="right">{translate('resources.users.billing.fields.nextPaymentAmount')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {view.subscriptions.map((s) => (
                  <TableRow key={s.id}>
                    <TableCell>
                      {s.productName ?? '—'} {s.test ? <Chip size="small" label={translate('resources.users.billing.test')} /> : null}
                    </TableCell>
                    <TableCell>{translate(`resources.users.billing.statuses.${s.status}`, { _: s.status })}</TableCell>
                    <TableCell>{day(s.startDate)}</TableCell>
                    <TableCell>{day(s.nextPaymentDate)}</TableCell>
                    <TableCell>{day(s.endDate)}</TableCell>
                    <TableCell align="right" data-testid="user-subscription-next-amount">
                      {usd(s.nextPayment?.amount ?? null)}
                      {s.nextPayment?.promoCode ? (
                        <Typography variant="caption" component="div" color="text.secondary">
                          {s.nextPayment.promoPaymentsLeft === null
                            ? translate('resources.users.billing.promoEvery', { code: s.nextPayment.promoCode })
                            : translate('resources.users.billing.promoCycles', {
                                code: s.nextPayment.promoCode,
                                smart_count: s.nextPayment.promoPaymentsLeft,
                                regular: usd(s.nextPayment.regularAmount),
                              })}
                        </Typography>
                      ) : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </>
      )}
      <Dialog open={open} onClose={() => !busy && setOpen(false)} data-testid="user-change-plan-dialog">
        <DialogTitle>{translate('resources.users.billing.changeTitle', { email: String(record.email ?? record.id) })}</DialogTitle>
        <DialogContent>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {translate('resources.users.billing.changeHelp')}
          </Typography>
          <MuiTextField
            select
            fullWidth
            label={translate('resources.users.billing.newPlan')}
            value={productId}
            onChange={(e) => setProductId(Number(e.target.value))}
            slotProps={{ htmlInput: { 'data-testid': 'user-change-plan-select' } }}
          >
            {STAFF_PLAN_CHOICES.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </MuiTextField>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setOpen(false)} disabled={busy}>
            {translate('ra.action.cancel')}
          </MuiButton>
          <MuiButton variant="contained" onClick={() => void change()} disabled={busy || productId === ''} data-testid="user-change-plan-save">
            {translate('resources.users.billing.changePlan')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </Stack>
  );
};
