import type { TwoFactorMethod } from '@axel/domain/accounts/accounts.validation';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { sessionStore } from '../../session/store';
import { twoFactorActors } from './two-factor.api';
import { twoFactorMachine } from './two-factor.machine';

/** Settings section for two-factor authentication; renders the enrolment machine's state. */
export const TwoFactorSection = ({ user }: { user: UserInfo }) => {
  const { t } = useTranslation();
  const machine = useMemo(
    () =>
      twoFactorMachine.provide({
        actors: twoFactorActors(user.id),
        actions: { userChanged: (_, params) => sessionStore.signedIn(params.user) },
      }),
    [user.id],
  );
  const [state, send] = useMachine(machine, { input: { enabled: user.twoFactor.enabled, method: user.twoFactor.method } });
  const [method, setMethod] = useState<TwoFactorMethod>('totp');
  const [code, setCode] = useState('');
  const { context } = state;

  const submitCode = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'SUBMIT_CODE', code });
  };
  const resent = context.codeResent && (
    <Alert severity="success" role="status" data-testid="twofa-code-resent">
      {t('twoFactor.codeResent', { email: user.email })}
    </Alert>
  );
  const busy = ['startingTotp', 'sendingEmailCode', 'verifying', 'sendingDisableCode', 'disabling'].some((s) => state.matches(s as never));

  const codeForm = (submitLabel: string, submitTestId: string, withResend: boolean) => (
    <Box component="form" noValidate onSubmit={submitCode} aria-label={t('twoFactor.codeLabel')}>
      <FormField
        name="twoFactorCode"
        label={t('fields.verificationCode')}
        value={code}
        onValue={setCode}
        errorKey={context.fieldErrors.code}
        autoComplete="one-time-code"
        testId="twofa-code"
        sx={{ maxWidth: 240 }}
        slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6, 'data-testid': 'twofa-code' } }}
      />
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', mt: 1 }}>
        <Button type="submit" variant="contained" disabled={busy} data-testid={submitTestId}>
          {submitLabel}
        </Button>
        {withResend && (
          <Button onClick={() => send({ type: 'RESEND' })} disabled={busy} data-testid="twofa-resend">
            {t('twoFactor.resend')}
          </Button>
        )}
        <Button
          onClick={() => {
            setCode('');
            send({ type: 'CANCEL' });
          }}
          disabled={busy}
          data-testid="twofa-cancel"
        >
          {t('common.cancel')}
        </Button>
      </Stack>
    </Box>
  );

  let body: React.ReactNode;
  if (state.matches('choose') || state.matches('startingTotp') || state.matches('sendingEmailCode')) {
    body = (
      <>
        <Typography color="text.secondary">{t('twoFactor.offIntro')}</Typography>
        <FormControl sx={{ mt: 2 }}>
          <FormLabel id="twofa-method-label">{t('twoFactor.method')}</FormLabel>
          <RadioGroup aria-labelledby="twofa-method-label" value={method} onChange={(e) => setMethod(e.target.value as TwoFactorMethod)}>
            <FormControlLabel
              value="totp"
              control={<Radio slotProps={{ input: { 'data-testid': 'twofa-method-totp' } as React.InputHTMLAttributes<HTMLInputElement> }} />}
              label={t('twoFactor.methods.totp')}
            />
            <FormControlLabel
              value="email"
              control={<Radio slotProps={{ input: { 'data-testid': 'twofa-method-email' } as React.InputHTMLAttributes<HTMLInputElement> }} />}
              label={t('twoFactor.methods.email')}
            />
          </RadioGroup>
        </FormControl>
        <Box>
          <Button
            variant="contained"
            sx={{ mt: 1 }}
            disabled={busy}
            onClick={() => {
              setCode('');
              send({ type: 'CHOOSE', method });
            }}
            data-testid="twofa-enable"
          >
            {t('twoFactor.enable')}
          </Button>
        </Box>
      </>
    );
  } else if (state.matches('totpSetup') || (state.matches('verifying') && context.method === 'totp')) {
    body = (
      <Stack spacing={1} data-testid="twofa-totp-setup">
        <Typography>{t('twoFactor.totpIntro')}</Typography>
        {context.totp && (
          <>
            <Box
              component="img"
              src={context.totp.qrDataUrl}
              alt={t('twoFactor.qrAlt')}
              data-testid="twofa-qr"
              sx={{ width: 200, height: 200, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#fff' }}
            />
            <Typography variant="body2" color="text.secondary">
              {t('twoFactor.secretLabel')}{' '}
              <Box component="code" data-testid="twofa-secret" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                {context.totp.secret}
              </Box>
            </Typography>
          </>
        )}
        <ErrorAlert error={context.error} testId="twofa-error" />
        {codeForm(t('twoFactor.verify'), 'twofa-verify', false)}
      </Stack>
    );
  } else if (state.matches('emailCode') || (state.matches('verifying') && context.method === 'email')) {
    body = (
      <Stack spacing={1} data-testid="twofa-email-setup">
        <Typography>{t('twoFactor.emailIntro', { email: user.email })}</Typography>
        {resent}
        <ErrorAlert error={context.error} testId="twofa-error" />
        {codeForm(t('twoFactor.verify'), 'twofa-verify', true)}
      </Stack>
    );
  } else if (state.matches('enabled')) {
    body = (
      <Stack spacing={1} data-testid="twofa-enabled" sx={{ alignItems: 'flex-start' }}>
        <Alert severity="success">{t('twoFactor.enabledWith', { method: t(`twoFactor.methods.${context.enabledMethod ?? 'totp'}`) })}</Alert>
        <ErrorAlert error={context.error} testId="twofa-error" />
        <Button
          variant="outlined"
          color="error"
          onClick={() => {
            setCode('');
            send({ type: 'DISABLE' });
          }}
          data-testid="twofa-disable"
        >
          {t('twoFactor.disable')}
        </Button>
      </Stack>
    );
  } else {
    body = (
      <Stack spacing={1} data-testid="twofa-disable-step">
        <Typography>{context.enabledMethod === 'email' ? t('twoFactor.disableIntroEmail') : t('twoFactor.disableIntroTotp')}</Typography>
        {resent}
        <ErrorAlert error={context.error} testId="twofa-error" />
        {codeForm(t('twoFactor.disableConfirm'), 'twofa-disable-confirm', context.enabledMethod === 'email')}
      </Stack>
    );
  }

  return (
    <Box component="section" aria-label={t('twoFactor.title')} data-testid="account-twofa" sx={{ py: 2 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('twoFactor.title')}
      </Typography>
      {state.matches('choose') && <ErrorAlert error={context.error} testId="twofa-error" />}
      {body}
    </Box>
  );
};
