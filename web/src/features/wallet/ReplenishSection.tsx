import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import type { NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { splitServerError } from '../../forms/serverErrors';
import { validate, type FieldErrors } from '../../forms/zodErrors';
import { AddressGate } from './AddressGate';
import { ReplenishResult } from './ReplenishResult';
import { AXEL_PRICE_CENTS, REPLENISH_MAXIMUM, REPLENISH_MINIMUM, replenishPriceCents } from '@axel/domain/wallet/replenish-price';
import { localeTag } from '../../components/i18nHelpers';
import { formatMoney } from '../billing/money';
import { displayAxel, formatAxel, parseAxel } from './amounts';
import { useBalance } from './balance.store';
import { walletApi } from './wallet.api';

export const replenishSchema = z.object({
  amount: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .refine((v) => (parseAxel(v) ?? 0) > 0, 'wallet.validation.amount')
    .transform((v) => formatAxel(parseAxel(v) ?? 0)),
});

/** Buying tokens: the server answers a checkout link; once paid, the treasury sends the tokens. */
export const ReplenishSection = () => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  const { afterAction } = useBalance();
  const [params] = useSearchParams();
  const [amount, setAmount] = useState('');
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<NormalisedError | null>(null);
  // the price before the checkout, by the rule the checkout charges
  const units = parseAxel(amount.trim());
  const price = units !== null && units >= REPLENISH_MINIMUM && units <= REPLENISH_MAXIMUM ? replenishPriceCents(units) : null;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = validate(replenishSchema, { amount });
    if (!checked.ok) {
      setFieldErrors(checked.fieldErrors);
      return;
    }
    setFieldErrors({});
    setError(null);
    setBusy(true);
    try {
      const { checkoutLink } = await walletApi.replenish(checked.value.amount);
      afterAction();
      window.location.assign(checkoutLink);
    } catch (err) {
      const split = splitServerError(err, { WALLET_INVALID_AMOUNT: 'amount', WALLET_BELOW_MINIMUM: 'amount' });
      setFieldErrors(split.fieldErrors);
      setError(split.error);
      setBusy(false);
    }
  };

  return (
    <AddressGate>
      <Stack component="form" spacing={2} noValidate onSubmit={(e) => void onSubmit(e)} sx={{ maxWidth: 480 }} data-testid="replenish-form">
        <Typography variant="h5" component="h2">
          {t('wallet.nav.replenish')}
        </Typography>
        <ReplenishResult checkoutId={params.get('checkoutId')} queryStatus={params.get('status')} />
        <Typography color="text.secondary">{t('wallet.replenish.hint')}</Typography>
        <ErrorAlert error={error} testId="replenish-error" />
        <FormField
          name="amount"
          label={t('wallet.replenish.amount')}
          value={amount}
          onValue={setAmount}
          errorKey={fieldErrors.amount}
          testId="replenish-amount"
          inputMode="decimal"
          autoComplete="off"
          required
        />
        {price !== null && (
          <Typography data-testid="replenish-price">
            {t('wallet.replenish.price', {
              amount: displayAxel(formatAxel(units!), tag),
              price: formatMoney(price, 'USD', i18n.language),
              unit: formatMoney(AXEL_PRICE_CENTS, 'USD', i18n.language),
            })}
          </Typography>
        )}
        <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }} data-testid="replenish-submit">
          {busy ? <CircularProgress size={20} aria-label={t('common.loading')} /> : t('wallet.replenish.submit')}
        </Button>
      </Stack>
    </AddressGate>
  );
};
