import LockIcon from '@mui/icons-material/Lock';
import { Alert, Button, CardContent, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import { useReducer, useState, type FormEvent } from 'react';
import { Login, useLocaleState, useLogin, useNotify, useTranslate } from 'react-admin';
import { LeavingConsoleError, TwoFactorRequiredError } from './authProvider';
import { initialLoginState, loginErrorMessage, loginReducer } from './loginFlow';

/**
 * The console's own sign-in page (admin paths do not use the web app's /signin). Posts the
 * credentials; when two-factor sign-in is on, asks for the code and posts again with it.
 */
export const LoginPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const login = useLogin();
  const [locale] = useLocaleState();
  const [state, dispatch] = useReducer(loginReducer, initialLoginState);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.submitting) return;
    if (!email.trim() || !password) {
      notify('console.auth.required', { type: 'warning' });
      return;
    }
    dispatch({ type: 'SUBMIT' });
    try {
      await login(state.step === 'code' ? { email: email.trim(), password, code: code.trim() } : { email: email.trim(), password });
      dispatch({ type: 'SUCCEEDED' });
    } catch (error) {
      if (error instanceof TwoFactorRequiredError) {
        setCode('');
        dispatch({ type: 'TWO_FACTOR_REQUIRED', method: error.method });
        return;
      }
      if (error instanceof LeavingConsoleError) return;
      dispatch({ type: 'FAILED', code: (error as { code?: string }).code ?? null });
      const message = loginErrorMessage(error, locale);
      notify(message.key, { type: 'error', messageArgs: message.args });
    }
  };

  return (
    <Login avatarIcon={<LockIcon />}>
      <CardContent component="form" onSubmit={submit} noValidate data-testid="login-form" sx={{ width: 320 }}>
        <Stack spacing={2}>
          <Typography variant="h6" component="h1" sx={{ textAlign: 'center' }}>
            {translate('console.auth.title')}
          </Typography>
          {state.step === 'credentials' ? (
            <>
              <TextField
                label={translate('console.auth.email')}
                type="email"
                autoComplete="username"
                autoFocus
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                disabled={state.submitting}
                slotProps={{ htmlInput: { 'data-testid': 'login-email' } }}
              />
              <TextField
                label={translate('console.auth.password')}
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                disabled={state.submitting}
                slotProps={{ htmlInput: { 'data-testid': 'login-password' } }}
              />
            </>
          ) : (
            <>
              <Alert severity="info" data-testid="login-code-info">
                {translate(state.method === 'email' ? 'console.auth.codeSentByEmail' : 'console.auth.codeFromApp')}
              </Alert>
              <TextField
                label={translate('console.auth.code')}
                autoComplete="one-time-code"
                autoFocus
                required
                value={code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
                disabled={state.submitting}
                slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9]*', maxLength: 6, 'data-testid': 'login-code' } }}
              />
            </>
          )}
          <Button
            type="submit"
            variant="contained"
            disabled={state.submitting || (state.step === 'code' && code.length !== 6)}
            startIcon={state.submitting ? <CircularProgress size={18} /> : null}
            data-testid="login-submit"
          >
            {translate(state.step === 'code' ? 'console.auth.verify' : 'console.auth.signIn')}
          </Button>
          {state.step === 'code' ? (
            <Button onClick={() => dispatch({ type: 'BACK' })} disabled={state.submitting} data-testid="login-back">
              {translate('console.auth.back')}
            </Button>
          ) : null}
        </Stack>
      </CardContent>
    </Login>
  );
};
