import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { goTo, safeRedirect } from '../../app/navigation';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { LanguageSelect } from '../../components/LanguageSelect';
import { CenteredCard } from '../../components/StatusPage';
import { applyLocale } from '../../i18n';
import { sessionStore, useSession } from '../../session/store';
import { CameFromTeamAddress, CustomHostSignIn } from '../branding/CustomHostSignIn';
import { useHostBranding } from '../branding/hostBranding';
import { SsoButtons } from '../sso/SsoButtons';
import { signinActors } from './signin.api';
import { signinMachine } from './signin.machine';

const machine = signinMachine.provide({ actors: signinActors });

/** Why the previous session ended, shown above the form. */
const SignedOutReason = ({ reason }: { reason: string | null }) => {
  const { t } = useTranslation();
  if (!reason) return null;
  const severity = reason === 'USER_SUSPENDED' ? 'error' : 'warning';
  return (
    <Alert severity={severity} data-testid="signin-notice" data-reason={reason} sx={{ mb: 2 }} onClose={() => sessionStore.clearReason()}>
      {t(`errors.${reason}`)}
    </Alert>
  );
};

export const SignInPage = () => {
  const host = useHostBranding();
  if (host.status === 'ready' && host.branding) return <CustomHostSignIn branding={host.branding} />;
  return <SignInForm />;
};

const SignInForm = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { user, signedOutReason } = useSession();
  const [state, send] = useMachine(machine);
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const redirect = safeRedirect(params.get('redirect'));
  const { context } = state;

  useEffect(() => {
    if (state.status !== 'done' || !state.output?.user) return;
    const signedIn = state.output.user;
    void applyLocale(signedIn.locale);
    sessionStore.signedIn(signedIn);
    goTo(navigate, redirect, true);
  }, [state.status, state.output, navigate, redirect]);

  useEffect(() => {
    if (context.error?.code === 'EMAIL_NOT_VERIFIED') {
      void navigate(`/signup?${new URLSearchParams({ email: context.email, verify: '1' }).toString()}`, { replace: true });
    }
  }, [context.error, context.email, navigate]);

  useEffect(() => {
    if (context.error && !context.password) setPassword('');
  }, [context.error, context.password]);

  if (user && state.status !== 'done') return <Navigate to={redirect} replace />;

  const busy = state.matches('submitting') || state.matches('submittingCode') || state.matches('resendingCode') || state.status === 'done';
  const onCredentials = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'SUBMIT', email, password });
  };
  const onCode = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'SUBMIT_CODE', code });
  };

  const inCodeStep = state.matches('twoFactor') || state.matches('submittingCode') || state.matches('resendingCode');

  return (
    <CenteredCard title={t('signin.title')} testId="signin-page">
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
        <LanguageSelect />
      </Box>
      <SignedOutReason reason={signedOutReason} />
      {params.get('from') === 'customOrigin' && <CameFromTeamAddress />}
      {!inCodeStep ? (
        <Box component="form" noValidate onSubmit={onCredentials} aria-label={t('signin.title')}>
          <ErrorAlert error={context.error} testId="signin-error" />
          <FormField
            name="email"
            type="email"
            autoComplete="username"
            label={t('fields.email')}
            value={email}
            onValue={setEmail}
            errorKey={context.fieldErrors.email}
            testId="signin-email"
            autoFocus
          />
          <FormField
            name="password"
            type="password"
            autoComplete="current-password"
            label={t('fields.password')}
            value={password}
            onValue={setPassword}
            errorKey={context.fieldErrors.password}
            testId="signin-password"
          />
          <Button type="submit" variant="contained" fullWidth size="large" disabled={busy} sx={{ mt: 2 }} data-testid="signin-submit">
            {t('signin.submit')}
          </Button>
          <SsoButtons from="signin" redirect={redirect} />
          <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mt: 2 }}>
            <Link component={RouterLink} to="/reset-password" data-testid="signin-forgot">
              {t('signin.forgotPassword')}
            </Link>
            <Link component={RouterLink} to="/signup" data-testid="signin-to-signup">
              {t('signin.noAccount')}
            </Link>
          </Stack>
          <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mt: 1 }}>
            <Link component={RouterLink} to="/resend" variant="body2">
              {t('signin.resendConfirmation')}
            </Link>
            <Link component={RouterLink} to="/reset2fa/" variant="body2">
              {t('signin.lostTwoFactor')}
            </Link>
          </Stack>
        </Box>
      ) : (
        <Box component="form" noValidate onSubmit={onCode} aria-label={t('signin.codeTitle')} data-testid="signin-code-step">
          <Typography variant="h6" component="h2" gutterBottom>
            {t('signin.codeTitle')}
          </Typography>
          <Typography color="text.secondary">{context.method === 'email' ? t('signin.codeHintEmail') : t('signin.codeHintTotp')}</Typography>
          {context.codeResent && (
            <Alert severity="success" sx={{ mt: 2 }} data-testid="signin-code-resent">
              {t('signin.codeResent')}
            </Alert>
          )}
          <ErrorAlert error={context.error} testId="signin-error" />
          <FormField
            name="code"
            label={t('fields.verificationCode')}
            value={code}
            onValue={setCode}
            errorKey={context.fieldErrors.code}
            autoComplete="one-time-code"
            testId="signin-code"
            autoFocus
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6, 'data-testid': 'signin-code' } }}
          />
          <Button type="submit" variant="contained" fullWidth size="large" disabled={busy} sx={{ mt: 2 }} data-testid="signin-code-submit">
            {t('signin.verify')}
          </Button>
          <Stack direction="row" sx={{ justifyContent: 'space-between', mt: 2 }}>
            <Button onClick={() => send({ type: 'BACK' })} disabled={busy} data-testid="signin-code-back">
              {t('common.back')}
            </Button>
            {context.method === 'email' && (
              <Button onClick={() => send({ type: 'RESEND_CODE' })} disabled={busy} data-testid="signin-code-resend">
                {t('signin.resendCode')}
              </Button>
            )}
          </Stack>
        </Box>
      )}
    </CenteredCard>
  );
};
