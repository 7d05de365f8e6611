import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { emailSchema } from '@axel/domain/accounts/accounts.validation';
import { useMachine } from '@xstate/react';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { z } from 'zod';
import type { NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { CenteredCard } from '../../components/StatusPage';
import { splitServerError } from '../../forms/serverErrors';
import { validate, type FieldErrors } from '../../forms/zodErrors';
import { reset2faConfirmMachine } from './reset2fa.machine';
import { reset2faConfirmActors, twoFactorApi } from './two-factor.api';

const requestSchema = z.object({ email: emailSchema, password: z.string().min(1, 'validation.required') });

/**
 * /reset2fa/ asks (with e-mail and password) for a link that turns two-factor authentication off;
 * /reset2fa/?token=... is that link: the user confirms and 2FA is turned off.
 */
export const Reset2faPage = () => {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? <ConfirmReset key={token} token={token} /> : <RequestReset />;
};

const BackToSignIn = () => {
  const { t } = useTranslation();
  return (
    <Typography variant="body2" sx={{ mt: 2 }}>
      <Link component={RouterLink} to="/signin">
        {t('common.backToSignIn')}
      </Link>
    </Typography>
  );
};

const RequestReset = () => {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<NormalisedError | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = validate(requestSchema, { email, password });
    if (!v.ok) return setFieldErrors(v.fieldErrors);
    setFieldErrors({});
    setError(null);
    setBusy(true);
    try {
      await twoFactorApi.requestReset(v.value.email, v.value.password);
      setSent(true);
    } catch (err) {
      const split = splitServerError(err);
      setFieldErrors(split.fieldErrors);
      setError(split.error);
    } finally {
      setBusy(false);
      setPassword('');
    }
  };

  return (
    <CenteredCard title={t('reset2fa.requestTitle')} testId="reset2fa-request">
      {sent ? (
        <Alert severity="success" data-testid="reset2fa-sent">
          {t('reset2fa.sent')}
        </Alert>
      ) : (
        <Box component="form" noValidate onSubmit={(e) => void submit(e)} aria-label={t('reset2fa.requestTitle')}>
          <Typography color="text.secondary">{t('reset2fa.requestIntro')}</Typography>
          <ErrorAlert error={error} testId="reset2fa-error" />
          <FormField
            name="email"
            type="email"
            autoComplete="username"
            label={t('fields.email')}
            value={email}
            onValue={setEmail}
            errorKey={fieldErrors.email}
            testId="reset2fa-email"
          />
          <FormField
            name="password"
            type="password"
            autoComplete="current-password"
            label={t('fields.password')}
            value={password}
            onValue={setPassword}
            errorKey={fieldErrors.password}
            testId="reset2fa-password"
          />
          <Button type="submit" variant="contained" fullWidth disabled={busy} sx={{ mt: 2 }} data-testid="reset2fa-submit">
            {t('reset2fa.requestSubmit')}
          </Button>
        </Box>
      )}
      <BackToSignIn />
    </CenteredCard>
  );
};

const ConfirmReset = ({ token }: { token: string }) => {
  const { t } = useTranslation();
  const machine = useMemo(() => reset2faConfirmMachine.provide({ actors: reset2faConfirmActors }), []);
  const [state, send] = useMachine(machine, { input: { token } });
  const { error } = state.context;

  if (state.matches('checking')) {
    return (
      <CenteredCard title={t('reset2fa.confirmTitle')} testId="reset2fa-checking">
        <Stack sx={{ alignItems: 'center', py: 2 }}>
          <CircularProgress aria-label={t('common.loading')} />
        </Stack>
      </CenteredCard>
    );
  }

  if (state.matches('invalid')) {
    return (
      <CenteredCard title={t('reset2fa.invalidTitle')} testId="reset2fa-invalid">
        <Stack spacing={2}>
          <ErrorAlert error={error} testId="reset2fa-error" />
          <Button variant="contained" component={RouterLink} to="/reset2fa/" data-testid="reset2fa-new-link">
            {t('reset2fa.requestNew')}
          </Button>
        </Stack>
        <BackToSignIn />
      </CenteredCard>
    );
  }

  return (
    <CenteredCard title={t('reset2fa.confirmTitle')} testId="reset2fa-confirm">
      {state.matches('done') ? (
        <Stack spacing={2}>
          <Alert severity="success" data-testid="reset2fa-done">
            {t('reset2fa.done')}
          </Alert>
          <Button variant="contained" component={RouterLink} to="/signin" data-testid="reset2fa-to-signin">
            {t('common.toSignIn')}
          </Button>
        </Stack>
      ) : (
        <Stack spacing={2}>
          <Typography>{t('reset2fa.confirmIntro')}</Typography>
          <ErrorAlert error={error} testId="reset2fa-error" />
          <Button variant="contained" onClick={() => send({ type: 'CONFIRM' })} disabled={state.matches('confirming')} data-testid="reset2fa-confirm-submit">
            {t('reset2fa.confirmSubmit')}
          </Button>
        </Stack>
      )}
      <BackToSignIn />
    </CenteredCard>
  );
};
