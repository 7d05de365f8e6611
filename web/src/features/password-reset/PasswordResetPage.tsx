import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { CenteredCard } from '../../components/StatusPage';
import { passwordResetActors } from './password-reset.api';
import { passwordResetMachine } from './password-reset.machine';

/** /reset-password asks for the link; /reset-password/:token sets the new password. */
export const PasswordResetPage = () => {
  const { token } = useParams();
  // A new token in the address starts a new flow.
  return <PasswordResetFlow key={token ?? 'request'} token={token ?? null} />;
};

const PasswordResetFlow = ({ token }: { token: string | null }) => {
  const { t } = useTranslation();
  const machine = useMemo(() => passwordResetMachine.provide({ actors: passwordResetActors }), []);
  const [state, send] = useMachine(machine, { input: { token } });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [passwordConfirmation, setPasswordConfirmation] = useState('');
  const { context } = state;

  const request = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'REQUEST', email });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'SUBMIT', password, passwordConfirmation });
  };

  const backToSignIn = (
    <Typography variant="body2" sx={{ mt: 2 }}>
      <Link component={RouterLink} to="/signin">
        {t('common.backToSignIn')}
      </Link>
    </Typography>
  );

  if (state.matches('request') || state.matches('requesting')) {
    return (
      <CenteredCard title={t('passwordReset.requestTitle')} testId="password-reset-request">
        <Box component="form" noValidate onSubmit={request} aria-label={t('passwordReset.requestTitle')}>
          <Typography color="text.secondary">{t('passwordReset.requestIntro')}</Typography>
          <ErrorAlert error={context.error} testId="password-reset-error" />
          <FormField
            name="email"
            type="email"
            autoComplete="email"
            label={t('fields.email')}
            value={email}
            onValue={setEmail}
            errorKey={context.fieldErrors.email}
            testId="password-reset-email"
            autoFocus
          />
          <Button type="submit" variant="contained" fullWidth disabled={state.matches('requesting')} sx={{ mt: 2 }} data-testid="password-reset-request-submit">
            {t('passwordReset.requestSubmit')}
          </Button>
        </Box>
        {backToSignIn}
      </CenteredCard>
    );
  }

  if (state.matches('checking')) {
    return (
      <CenteredCard title={t('passwordReset.setTitle')} testId="password-reset-checking">
        <Stack sx={{ alignItems: 'center', py: 2 }}>
          <CircularProgress aria-label={t('common.loading')} />
        </Stack>
      </CenteredCard>
    );
  }

  if (state.matches('sent')) {
    return (
      <CenteredCard title={t('passwordReset.sentTitle')} testId="password-reset-sent">
        <Alert severity="success">{t('passwordReset.sent', { email: context.email })}</Alert>
        {backToSignIn}
      </CenteredCard>
    );
  }

  if (state.matches('expired')) {
    return (
      <CenteredCard title={t('passwordReset.expiredTitle')} testId="password-reset-expired">
        <ErrorAlert error={context.error} testId="password-reset-error" />
        <Button variant="contained" onClick={() => send({ type: 'REQUEST_NEW_LINK' })} data-testid="password-reset-new-link">
          {t('passwordReset.requestNew')}
        </Button>
        {backToSignIn}
      </CenteredCard>
    );
  }

  if (state.matches('done')) {
    return (
      <CenteredCard title={t('passwordReset.doneTitle')} testId="password-reset-done">
        <Stack spacing={2}>
          <Alert severity="success">{t('passwordReset.done')}</Alert>
          <Button variant="contained" component={RouterLink} to="/signin" data-testid="password-reset-to-signin">
            {t('common.toSignIn')}
          </Button>
        </Stack>
      </CenteredCard>
    );
  }

  return (
    <CenteredCard title={t('passwordReset.setTitle')} testId="password-reset-form">
      <Box component="form" noValidate onSubmit={submit} aria-label={t('passwordReset.setTitle')}>
        <ErrorAlert error={context.error} testId="password-reset-error" />
        <FormField
          name="password"
          type="password"
          autoComplete="new-password"
          label={t('fields.newPassword')}
          value={password}
          onValue={setPassword}
          errorKey={context.fieldErrors.password}
          hint={t('fields.passwordHint')}
          testId="password-reset-password"
          autoFocus
        />
        <FormField
          name="passwordConfirmation"
          type="password"
          autoComplete="new-password"
          label={t('fields.passwordConfirmation')}
          value={passwordConfirmation}
          onValue={setPasswordConfirmation}
          errorKey={context.fieldErrors.passwordConfirmation}
          testId="password-reset-password-confirmation"
        />
        <Button type="submit" variant="contained" fullWidth disabled={state.matches('submitting')} sx={{ mt: 2 }} data-testid="password-reset-submit">
          {t('passwordReset.setSubmit')}
        </Button>
      </Box>
      {backToSignIn}
    </CenteredCard>
  );
};
