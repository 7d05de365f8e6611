import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { emailSchema } from '@axel/domain/accounts/accounts.validation';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { z } from 'zod';
import type { NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { CenteredCard } from '../../components/StatusPage';
import { splitServerError } from '../../forms/serverErrors';
import { validate, type FieldErrors } from '../../forms/zodErrors';
import { signupApi } from './signup.api';

const schema = z.object({ email: emailSchema });

/** Sends the confirmation mail again; the answer is the same whether or not the address is known. */
export const ResendPage = () => {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<NormalisedError | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = validate(schema, { email });
    if (!v.ok) return setFieldErrors(v.fieldErrors);
    setFieldErrors({});
    setError(null);
    setBusy(true);
    try {
      await signupApi.resend(v.value.email);
      setSentTo(v.value.email);
    } catch (err) {
      const split = splitServerError(err);
      setFieldErrors(split.fieldErrors);
      setError(split.error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <CenteredCard title={t('resend.title')} testId="resend-page">
      {sentTo ? (
        <Alert severity="success" data-testid="resend-sent">
          {t('resend.sent', { email: sentTo })}
        </Alert>
      ) : (
        <Box component="form" noValidate onSubmit={(e) => void submit(e)} aria-label={t('resend.title')}>
          <Typography color="text.secondary">{t('resend.intro')}</Typography>
          <ErrorAlert error={error} testId="resend-error" />
          <FormField
            name="email"
            type="email"
            autoComplete="email"
            label={t('fields.email')}
            value={email}
            onValue={setEmail}
            errorKey={fieldErrors.email}
            testId="resend-email"
          />
          <Button type="submit" variant="contained" fullWidth disabled={busy} sx={{ mt: 2 }} data-testid="resend-submit">
            {t('resend.submit')}
          </Button>
        </Box>
      )}
      <Typography variant="body2" sx={{ mt: 2 }}>
        <Link component={RouterLink} to="/signin">
          {t('common.backToSignIn')}
        </Link>
      </Typography>
    </CenteredCard>
  );
};
