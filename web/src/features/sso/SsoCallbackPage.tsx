import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import { fromPromise } from 'xstate';
import { goTo, safeRedirect } from '../../app/navigation';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { CenteredCard } from '../../components/StatusPage';
import { applyLocale } from '../../i18n';
import { sessionStore } from '../../session/store';
import { completeSso, type SsoAnswer, type SsoRequest } from './sso.api';
import { ssoMachine } from './sso.machine';
import { forgetRound, readRound, type SsoRound } from './sso.round';

/**
 * A provider's code is good once: a page that mounts twice (React's development checks) posts it
 * once and both mounts share the answer.
 */
const posted = new Map<string, Promise<SsoAnswer>>();
const completeOnce = (type: string, request: SsoRequest) => {
  if (!('state' in request)) return completeSso(type, request);
  const key = `${type}\0${request.code}`;
  const answer = posted.get(key) ?? completeSso(type, request);
  posted.set(key, answer);
  return answer;
};

const machine = ssoMachine.provide({
  actors: { complete: fromPromise<SsoAnswer, { type: string; request: SsoRequest }>(({ input }) => completeOnce(input.type, input.request)) },
});

/** A provider that refused (the user cancelled there) returns `error` instead of a code. */
const providerRefusal = { code: 'SSO_CANCELLED', message: 'The provider did not sign you in', data: null };

const Exchange = ({ type, code, state, round }: { type: string; code: string; state: string; round: SsoRound | null }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [snapshot, send] = useMachine(machine, { input: { type, code, state } });
  const [twoFactorCode, setTwoFactorCode] = useState('');
  const { context } = snapshot;

  useEffect(() => {
    if (snapshot.status !== 'done' || !snapshot.output) return;
    const { user, signUp } = snapshot.output;
    forgetRound();
    if (user) {
      void applyLocale(user.locale);
      sessionStore.signedIn(user);
      goTo(navigate, safeRedirect(round?.redirect), true);
    } else if (signUp) {
      void navigate(`/signup?${new URLSearchParams({ email: signUp.email, sso: type, reason: signUp.reason }).toString()}`, { replace: true });
    }
  }, [snapshot.status, snapshot.output, navigate, round, type]);

  if (snapshot.matches('failed')) {
    return (
      <Box data-testid="sso-failed">
        <ErrorAlert error={context.error} testId="sso-error" />
        <Button component={RouterLink} to={round?.from === 'signup' ? '/signup' : '/signin'} variant="contained" data-testid="sso-start-again">
          {t('sso.startAgain')}
        </Button>
      </Box>
    );
  }
  if (snapshot.matches('twoFactor') || snapshot.matches('verifying')) {
    const submit = (e: FormEvent) => {
      e.preventDefault();
      send({ type: 'SUBMIT_CODE', code: twoFactorCode });
    };
    return (
      <Box component="form" noValidate onSubmit={submit} aria-label={t('signin.codeTitle')} data-testid="sso-code-step">
        <Typography variant="h6" component="h2" gutterBottom>
          {t('signin.codeTitle')}
        </Typography>
        <Typography color="text.secondary">{context.method === 'email' ? t('signin.codeHintEmail') : t('signin.codeHintTotp')}</Typography>
        <ErrorAlert error={context.error} testId="sso-error" />
        <FormField
          name="code"
          label={t('fields.verificationCode')}
          value={twoFactorCode}
          onValue={setTwoFactorCode}
          errorKey={context.codeError ?? undefined}
          autoComplete="one-time-code"
          autoFocus
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6, 'data-testid': 'sso-code' } }}
        />
        <Button type="submit" variant="contained" fullWidth size="large" disabled={snapshot.matches('verifying')} sx={{ mt: 2 }} data-testid="sso-code-submit">
          {t('signin.verify')}
        </Button>
      </Box>
    );
  }
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', py: 2 }} data-testid="sso-exchanging">
      <CircularProgress aria-label={t('sso.signingIn')} />
      <Typography>{t('sso.signingIn')}</Typography>
    </Stack>
  );
};

/** `/signin/sso/:type`, where a provider sends the browser back with a code (or its refusal). */
export const SsoCallbackPage = () => {
  const { t } = useTranslation();
  const { type = '' } = useParams();
  const [params] = useSearchParams();
  const round = useMemo(() => readRound(), []);
  const code = params.get('code');
  const state = params.get('state');
  const provider = t(`sso.providers.${type}`, { defaultValue: type });

  return (
    <CenteredCard title={t('sso.title', { provider })} testId="sso-callback-page">
      {code && state ? (
        <Exchange type={type} code={code} state={state} round={round} />
      ) : (
        <Box data-testid="sso-failed">
          <ErrorAlert error={providerRefusal} testId="sso-error" />
          <Button component={RouterLink} to={round?.from === 'signup' ? '/signup' : '/signin'} variant="contained" data-testid="sso-start-again">
            {t('sso.startAgain')}
          </Button>
        </Box>
      )}
    </CenteredCard>
  );
};
