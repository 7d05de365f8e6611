import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CenteredCard } from '../../components/StatusPage';
import { FormField } from '../../components/FormField';
import { validate, type FieldErrors } from '../../forms/zodErrors';

/** The specification: a transaction id is alphanumeric, at least 20 characters. */
export const transactionIdSchema = z.object({
  id: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .regex(/^[A-Za-z0-9]{20,}$/, 'wallet.validation.transactionId'),
});

/** Public: find a transaction by its id; the server's /transaction/:id shows it. */
export const TransactionSearchPage = () => {
  const { t } = useTranslation();
  const [id, setId] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const checked = validate(transactionIdSchema, { id });
    if (!checked.ok) {
      setFieldErrors(checked.fieldErrors);
      return;
    }
    setFieldErrors({});
    // A full page load: the server answers /transaction/:id itself, with the configured explorer or
    // its own page of the development chain.
    window.location.assign(`/transaction/${encodeURIComponent(checked.value.id)}`);
  };

  return (
    <CenteredCard title={t('wallet.search.title')} width={560} testId="transaction-search">
      <Stack component="form" spacing={2} noValidate onSubmit={onSubmit}>
        <Typography color="text.secondary">{t('wallet.search.hint')}</Typography>
        <FormField
          name="id"
          label={t('wallet.search.id')}
          value={id}
          onValue={setId}
          errorKey={fieldErrors.id}
          testId="transaction-search-id"
          autoComplete="off"
          required
        />
        <Button type="submit" variant="contained" sx={{ alignSelf: 'flex-start' }} data-testid="transaction-search-submit">
          {t('wallet.search.submit')}
        </Button>
      </Stack>
    </CenteredCard>
  );
};
